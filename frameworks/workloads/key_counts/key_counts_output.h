// key-counts' answer: one row per distinct key, its number of occurrences,
// held as 16-byte numeric rows (keyed_rows_output.h, shared with netflix): a
// run writes its rows into the output's storage in pieces (its partitions, a
// table's filled slots), each in any order; finish() (untimed) gathers them,
// sorts them by key and refuses a repeated key. Dump: one line per key,
// ascending: the key as 16 lower-case hex digits, TAB, its count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "frameworks/workloads/keyed_rows_output.h"

namespace harness::workloads::key_counts {

// A key and its count. No member initializers: arrays of it are left
// uninitialized for the threads (or the device) that fill them.
struct KeyCount {
  std::uint64_t key;
  std::uint64_t count;
};
static_assert(sizeof(KeyCount) == 16);

// KeyCount rows as KeyedRowsOutput reads them.
struct KeyCountRows {
  using Row = KeyCount;
  static constexpr const char* kApp = "key-counts";
  static constexpr const char* kWhat = "key counts";
  static constexpr const char* kKey = "key";
  static constexpr const char* kKeys = "keys";
  static std::uint64_t key(const KeyCount& row) { return row.key; }
  static std::string key_name(std::uint64_t key);  // 16 lower-case hex digits
  static bool same_values(const KeyCount& a, const KeyCount& b) { return a.count == b.count; }
  static std::string values(const KeyCount& row);  // the count
  static void append_line(std::string& text, const KeyCount& row);
};

}  // namespace harness::workloads::key_counts

namespace harness::workloads {
extern template class KeyedRowsOutput<key_counts::KeyCountRows>;
}  // namespace harness::workloads

namespace harness::workloads::key_counts {

// KeyCount* storage(capacity) and add_piece(first, count) as a run fills it;
// rows() after finish(): every key once, ascending.
class KeyCountsOutput final : public KeyedRowsOutput<KeyCountRows> {};

}  // namespace harness::workloads::key_counts
