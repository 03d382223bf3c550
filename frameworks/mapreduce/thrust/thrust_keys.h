// thrust/default's maps for the apps whose keys are bytes of the input
// (thrust_keys.cu): each finds its keys on the device as (start, length) byte
// ranges for the shared group-by (thrust_group.h), and a u32 value per key
// where the app outputs one. Raw device pointers and an Exec (stream and temporary storage), as in
// thrust_group.h. Record offsets are relative to the device input.
#pragma once

#include <cstddef>
#include <cstdint>

#include "frameworks/mapreduce/thrust/thrust_temp.h"

namespace harness::thrustmr::cuda {

// Word count: at most this many words start in `bytes` bytes (a word and a
// separator each).
inline std::size_t words_capacity(std::size_t bytes) { return bytes / 2 + 1; }

// The words of input[0, bytes) (maximal runs of ASCII letters), in input
// order: thrust::copy_if over a counting iterator compacts the word starts,
// then one thread per word finds its length and hashes it as hash_keys
// (thrust_group.h) would its lower-cased bytes, in one walk. Returns the
// number of words.
std::uint32_t find_words(const std::uint8_t* input, std::uint32_t bytes, unsigned hash_bits,
                         std::uint32_t* starts, std::uint32_t* lengths, std::uint64_t* hashes,
                         const Exec& exec);

// The line records of input[0, bytes), found on the device as a plain thrust
// program finds them (the apps' host split, apps::split_lines, gives the same:
// each line up to and including its '\n', the last may lack one).
// count_lines returns how many lines start in the input (thrust::count_if);
// write_line_starts writes their starts in order (thrust::copy_if over a
// counting iterator) and then `bytes`: lines + 1 entries.
std::uint32_t count_lines(const std::uint8_t* input, std::uint32_t bytes, const Exec& exec);
void write_line_starts(const std::uint8_t* input, std::uint32_t bytes, std::uint32_t lines,
                       std::uint32_t* starts, const Exec& exec);

// The key of a line record (record r is input[records[r], records[r + 1])).
enum class LineKey : std::uint32_t {
  entry = 0,  // pvc_dedup: the line without its '\n' and a '\r' before it; empty: none
  url = 1,    // pvc_count: the bytes before the line's first tab; no tab or none before it: none
  ranked = 2  // pvr_rank: the line without its '\n' when it has 8 bytes or more; value
              // 0xffffffff - its first 8 bytes read as lower-case hex
};

// One thread per record writes its key (or none) and value (the entry's
// length, 0, the page views); thrust::remove_if drops the records without a
// key, keeping record order. starts, lengths and values hold `records`
// entries. Returns the number of keys.
std::uint32_t line_keys(const std::uint8_t* input, const std::uint32_t* records,
                        std::uint32_t n_records, LineKey kind, std::uint32_t* starts,
                        std::uint32_t* lengths, std::uint32_t* values, const Exec& exec);

// Inverted index, two passes over the line records (the app's link rule,
// frameworks/workloads/inverted_index/html_links.clh): count_links writes each
// record's number of links and exclusive-scans them into link_offsets
// (n_records + 1 entries); returns the total. write_links then writes link i's
// URL as key i and, as its value, the start of the page holding its line: the
// last of the `pages` ascending page_starts (absolute input offsets, the first
// 0) at or before base + the record's start (base: the device input's offset
// in the whole input).
std::uint32_t count_links(const std::uint8_t* input, const std::uint32_t* records,
                          std::uint32_t n_records, std::uint32_t* link_offsets, const Exec& exec);
void write_links(const std::uint8_t* input, const std::uint32_t* records, std::uint32_t n_records,
                 const std::uint32_t* link_offsets, const std::uint32_t* page_starts,
                 std::uint32_t pages, std::uint32_t base, std::uint32_t* starts,
                 std::uint32_t* lengths, std::uint32_t* values, const Exec& exec);

}  // namespace harness::thrustmr::cuda
