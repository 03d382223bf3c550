// The CUDA side of thrust/default's word count (thrust_wordcount.cu), behind
// an interface of raw device pointers and a stream so that the .cu file needs
// no harness headers (they are C++20; nvcc compiles this project's CUDA as C++17).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harness::thrustmr::cuda {

// Device scratch for one word-count run over `bytes` input bytes: starts and
// hashes hold words_capacity(bytes) entries, the per-group arrays one more
// than the words found (lengths two more), words `bytes` bytes.
struct WordScratch {
  std::uint32_t* starts = nullptr;        // word starts (then sorted with the hashes)
  std::uint64_t* hashes = nullptr;        // their hashes (then sorted)
  std::uint32_t* group_starts = nullptr;  // per distinct word: the first occurrence's start
  std::uint64_t* group_hashes = nullptr;  // per distinct word: its hash
  std::uint32_t* counts = nullptr;        // per distinct word: occurrences
  std::uint32_t* lengths = nullptr;       // per distinct word + 1: bytes, then output offsets
  std::uint8_t* words = nullptr;          // distinct words' bytes, lower-cased (`bytes` capacity)
  unsigned long long* flag = nullptr;     // one counter (collisions)
};

// At most this many words start in `bytes` bytes (a word and a separator each).
inline std::size_t words_capacity(std::size_t bytes) { return bytes / 2 + 1; }

// Map: finds the words of input[begin, end) (maximal runs of ASCII letters;
// a letter at `begin` starts a word) and hashes each, lower-cased, with
// FNV-1a 64 keeping the low `hash_bits` bits. Returns the number of words.
std::uint32_t find_words(const std::uint8_t* input, std::uint32_t begin, std::uint32_t end,
                         unsigned hash_bits, const WordScratch& s, void* stream);

struct Groups {
  std::uint32_t distinct = 0;    // distinct words
  std::uint64_t collisions = 0;  // adjacent pairs of different words with equal hashes
};

// Group: sort_by_key on the hashes, a check that every equal-hash run holds
// one word, then reduce_by_key counting each run. When the check finds
// different words under one hash, the words are sorted again by (hash, bytes)
// and runs are split where the bytes differ.
Groups group_words(const std::uint8_t* input, std::uint32_t end, std::uint32_t words,
                   const WordScratch& s, void* stream);

// The distinct words on the host: word i is bytes[offsets[i], offsets[i + 1]).
struct HostWords {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> offsets;
  std::vector<std::uint32_t> counts;
};

// Copy out: gathers the distinct words' lower-cased bytes on the device (at
// each group's first occurrence) and copies them, their offsets and counts
// into `out`. Returns the bytes copied from the device.
std::uint64_t copy_out(const std::uint8_t* input, std::uint32_t end, std::uint32_t distinct,
                       const WordScratch& s, void* stream, HostWords& out);

}  // namespace harness::thrustmr::cuda
