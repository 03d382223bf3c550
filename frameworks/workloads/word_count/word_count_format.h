// Word Count's input and words (the MapReduce wordcount's definition,
// frameworks/mapreduce/apps/wordcount/wordcount_types.clh): any text; a word
// is a maximal run of ASCII letters [A-Za-z], counted lower-cased; every other
// byte (digits, punctuation, spaces, newlines, UTF-8 sequences) separates
// words. A word is at most kMaxWordBytes letters: the SePo hash table's keys
// (frameworks/hashtable/apps/word_count.clh, HT_KEY_WORDS words of 4 bytes)
// hold no longer one, so check_words refuses the input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harness::workloads::word_count {

inline constexpr const char* kApp = "word-count";
inline constexpr std::size_t kMaxWordBytes = 64;

inline bool is_letter(std::uint8_t c) { return static_cast<std::uint8_t>((c | 0x20u) - 'a') < 26u; }
// A letter lower-cased (ASCII letters only).
inline char lower(std::uint8_t c) { return static_cast<char>(c | 0x20u); }

// Throws RunError naming the first word longer than kMaxWordBytes: its line
// (1-based), the byte offset of its first letter and its length.
void check_words(const std::uint8_t* data, std::size_t size);

}  // namespace harness::workloads::word_count
