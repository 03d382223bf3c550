// "text-zipf": a synthetic English-like corpus for word count, string match
// and friends. Pseudo-English words (built from syllables, deterministic in the
// seed) over a vocabulary of kTextZipfVocabulary words, drawn with Zipf
// frequencies (exponent 1, Zipf-Mandelbrot offset kTextZipfOffset, so the top
// word is about 7% of the tokens, as "the" is), the most popular words the
// shortest; sentences with capitals, commas and end punctuation, numbers,
// quotes, parentheses, hyphenated and ALL-CAPS words, about 0.5% of the words
// with non-ASCII UTF-8 letters; lines wrapped at 60-80 bytes, blank lines
// between paragraphs.
//
// The output is made of independent chunks of chunk_bytes (chunk i seeded
// from (seed, i)), generated in parallel and written in order, so it is
// byte-identical for any thread count. Every chunk ends in '\n' and never
// splits a UTF-8 character; a chunk may end mid-word.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint64_t kTextZipfChunkBytes = std::uint64_t{4} << 20;
inline constexpr std::uint32_t kTextZipfVocabulary = 100000;
inline constexpr double kTextZipfOffset = 0.25;

const Generator& text_zipf_generator();

// The generator's work with the thread count (0: hardware concurrency) and the
// chunk size as parameters. The bytes depend on chunk_bytes (the generator
// always uses kTextZipfChunkBytes) but never on threads.
void generate_text_zipf(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out,
                        unsigned threads, std::uint64_t chunk_bytes = kTextZipfChunkBytes);

// The vocabulary for a seed, most popular word first (for tests and docs).
std::vector<std::string> text_zipf_vocabulary(std::uint64_t seed);

}  // namespace harness::datasets
