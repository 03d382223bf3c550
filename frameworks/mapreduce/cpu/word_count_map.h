// Word count's fast path in the CPU runtime (knob fast_path, on by default):
// the app's map rule (frameworks/mapreduce/apps/wordcount: maximal runs of ASCII
// letters, counted lower-cased) reimplemented for the CPU so that one pass
// over the input finds, hashes and counts every word, where the generic path
// splits lines (preprocess), calls app_map per line and copies each word
// into a key. Every run is still validated against the app's reference.
//  - The input is cut into chunks at non-letter bytes: no line records.
//  - Words are found 64 bytes at a time (word_scanner.h).
//  - A word of up to 16 letters is read with one or two 8-byte loads and
//    lower-cased with one OR (its bytes are letters: c | 0x20): it is its own
//    key, with no copy and no std::string. Words of up to 8 letters (94% of
//    text-zipf's) are one 64-bit integer and are counted in a table of their
//    own with half-size slots (short_key_table.h).
//  - Zipf text has a few hot words and a long tail of rare ones whose table
//    slots are not in cache: each word's slot is prefetched when the word is
//    found and the word is counted kBatch words later (prefetch_batch.h), so
//    the cache misses of the rare words overlap.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "frameworks/mapreduce/cpu/packed_key.h"
#include "frameworks/mapreduce/cpu/prefetch_batch.h"
#include "frameworks/mapreduce/cpu/short_key_table.h"
#include "frameworks/mapreduce/cpu/word_scanner.h"

namespace harness::cpu {

struct WordCountMap {
  // Words counted between a slot's prefetch and its lookup: enough to cover a
  // miss to memory (~100-200 ns) with the scanning of the words in between.
  static constexpr unsigned kBatch = 64;
  static constexpr std::uint32_t kCount = 1;  // what the app's map emits per word

  // Chunk boundaries fall between words: moves `pos` forward past the word it cuts.
  static std::size_t cut(const std::uint8_t* data, std::size_t size, std::size_t pos) {
    while (pos > 0 && pos < size && is_ascii_letter(data[pos - 1]) && is_ascii_letter(data[pos]))
      ++pos;
    return pos;
  }

  // A word of up to 8 letters at data[start], lower-cased and zero padded:
  // its ShortKeyTable key.
  static std::uint64_t short_key(const std::uint8_t* data, std::size_t size, std::size_t start,
                                 std::uint32_t len) {
    return (load8(data, size, start) | kFold) & first_bytes(len);
  }

  // A word of 9 to 16 letters at data[start], lower-cased, as a PackedKey
  // (filled in place: a copy through the stack would stall on its loads).
  static void pack_lower(const std::uint8_t* data, std::size_t size, std::size_t start,
                         std::uint32_t len, PackedKey& key) {
    key.w0 = load8(data, size, start) | kFold;
    key.w1 = (load8(data, size, start + 8) | kFold) & first_bytes(len - 8);
    key.len = len;
    key.hash = hash_words(key.w0, key.w1, len);
  }

  // Counts the words of the chunks next_chunk(begin, end) hands out (false
  // when none is left; boundaries from cut) into `parts`, the tables of one
  // thread, one per partition; merge(value, count, inserted) adds a count to
  // a word's value. Words of up to 8 letters are counted in a ShortKeyTable
  // first, moved to `parts` at the end. Returns the number of words.
  template <class Table, class NextChunk, class Merge>
  static std::uint64_t map(const std::uint8_t* data, std::size_t size, NextChunk&& next_chunk,
                           std::vector<Table>& parts, Merge merge) {
    using Value = typename Table::value_type;
    const auto nparts = static_cast<unsigned>(parts.size());
    auto add = [&](const PackedKey& key, Value count) {
      bool inserted = false;
      merge(parts[Table::partition(key.hash, nparts)].upsert(key, inserted), count, inserted);
    };
    auto count_packed = [&](const PackedKey& key) { add(key, Value(kCount)); };
    ShortKeyTable<Value> shorts;
    auto count_short = [&](std::uint64_t key) {
      bool inserted = false;
      Value one(kCount);
      merge(shorts.upsert(key, inserted), one, inserted);
    };
    PrefetchBatch<std::uint64_t, kBatch> short_words;
    PrefetchBatch<PackedKey, kBatch> packed_words;
    std::string lowered;  // a word longer than 16 letters, lower-cased
    std::uint64_t words = 0;
    auto word = [&](std::size_t start, std::uint32_t len) {
      ++words;
      if (len <= 8) {
        std::uint64_t& key = short_words.next();
        key = short_key(data, size, start, len);
        shorts.prefetch(key);
        if (short_words.commit()) short_words.drain(count_short);
      } else if (len <= PackedKey::kInlineBytes) {
        PackedKey& key = packed_words.next();
        pack_lower(data, size, start, len, key);
        parts[Table::partition(key.hash, nparts)].prefetch(key.hash);
        if (packed_words.commit()) packed_words.drain(count_packed);
      } else {  // rare: counted at once
        lowered.resize(len);
        for (std::uint32_t i = 0; i < len; ++i)
          lowered[i] = static_cast<char>(data[start + i] | 0x20);
        count_packed(pack_long_key(lowered.data(), len));
      }
    };
    std::size_t begin, end;
    while (next_chunk(begin, end)) for_each_word(data, size, begin, end, word);
    short_words.drain(count_short);
    packed_words.drain(count_packed);
    shorts.for_each([&](std::uint64_t key, std::uint32_t len, Value& count) {
      add(pack_words(key, 0, len), count);
    });
    return words;
  }

 private:
  static constexpr std::uint64_t kFold = 0x2020202020202020ULL;  // | c: lower case of a letter

  // The 8 bytes at data[start] (fewer at the input's end: zero padded).
  static std::uint64_t load8(const std::uint8_t* data, std::size_t size, std::size_t start) {
    std::uint64_t w = 0;
    if (start + 8 <= size) {
      std::memcpy(&w, data + start, 8);
    } else if (start < size) {  // the input's last bytes: do not read past them
      std::memcpy(&w, data + start, size - start);
    }
    return w;
  }

  // A mask of the first n (1..8) bytes of a word loaded from memory.
  static std::uint64_t first_bytes(std::uint32_t n) {
    if (n >= 8) return ~std::uint64_t{0};
    const std::uint64_t low = (std::uint64_t{1} << (8 * n)) - 1;
    if constexpr (std::endian::native == std::endian::little) return low;
    return ~(~std::uint64_t{0} >> (8 * n));
  }
};

}  // namespace harness::cpu
