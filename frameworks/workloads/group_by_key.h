// MAP_GROUP (thesis chapter 6): every value grouped under its key; the answer
// is each key with the list of all its values. Patent Citation (cited patent
// -> citing patents), Geo Location (location -> article ids) and Inverted
// Index (link URL -> page ids) share it.
//
// Their answers are a TableOutput of one integer column (the number of values)
// and a list (the values, ascending); kv-pairs adds a second column, the sum
// of the values modulo 2^32 (KeyOps::kValueSums). table_of_groups() builds it
// from a plain map for the references; group_in_parallel() is the CPU-MT
// grouping:
//  1. each thread scans its own piece of the input. Every record goes to the
//     partition of its key (a range of the key's hash), in record order; with
//     a thread-local table (KeyOps::kThreadLocalTable) the thread numbers its
//     distinct keys per partition and a record carries its key's number,
//     otherwise the record carries its key;
//  2. each partition is merged by one thread: its keys (the threads' distinct
//     ones, or every record's) are numbered again in a partition table
//     (small enough to stay in a core's cache), their counts summed into
//     offsets, and the records' values copied to their key's run, thread by
//     thread, so a key's values stay in input order.
// The clock stops there: the GroupedOutput keeps the partitions as the run
// left them, and its finish() (untimed) makes the TableOutput.
//
// A key type is described by a KeyOps class:
//   using Key = ...;                          // trivially copyable; tables hold it
//   static constexpr bool kThreadLocalTable;  // see above
//   std::uint64_t hash(const Key&) const;     // all 64 bits well mixed
//   bool equal(const Key&, const Key&) const;
//   std::string_view text(const Key&) const;  // the key's bytes in the answer
//                                             // (or a std::string)
//   static constexpr bool kValueSums;         // optional (false): the sums column
//   std::int64_t value(std::uint32_t) const;  // optional: the answer's value of a
//                                             // record's 32-bit value (absent: itself)
// A thread-local table suits keys that point into the input (comparing them
// later would read the input again, at random) and few distinct keys;
// carrying the key suits small self-contained keys with many distinct
// values, where a thread-local table of millions of keys would miss the
// cache on every record. Keys may point into the input, which must outlive
// the output's finish(). Values are 32-bit ids; fewer than 2^32 records. A
// KeyOps with value() maps them to the answer's values when finish() makes
// the table (inverted-index: page numbers to the pages' byte offsets, which
// may pass 2^32).
//
// count_in_parallel() is the MAP_REDUCE counterpart for a sum of ones (Word
// Count, Page View Count): each key's number of records, counted per thread
// in a KeyTable (hash, equal and text of the KeyOps above).
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "frameworks/workloads/outputs.h"
#include "harness/core/mix64.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"

namespace harness::workloads::group_by_key {

using harness::mix64;  // harness/core/mix64.h

inline std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  return word;
}

// A hash of a byte string: one multiply per 8-byte word (the last word
// overlapping the one before it when the length is not a multiple of 8),
// the length, then mix64.
inline std::uint64_t hash_bytes(const std::uint8_t* bytes, std::size_t length) {
  std::uint64_t h = length * 0x9E3779B97F4A7C15ULL;
  auto add = [&h](std::uint64_t word) {
    h = (h ^ word) * 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
  };
  if (length < 8) {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < length; ++i) word = word << 8 | bytes[i];
    add(word);
  } else {
    for (std::size_t at = 0; at + 8 < length; at += 8) add(load64(bytes + at));
    add(load64(bytes + length - 8));
  }
  return mix64(h);
}

// Whether a[0, length) == b[0, length): 8-byte words, the last overlapping.
inline bool same_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t length) {
  if (length < 8) return std::memcmp(a, b, length) == 0;
  for (std::size_t at = 0; at + 8 < length; at += 8) {
    if (load64(a + at) != load64(b + at)) return false;
  }
  return load64(a + length - 8) == load64(b + length - 8);
}

// A key that is bytes where they lie in the input (a location, a URL): a
// pointer, the length and the hash of the bytes, computed once. Compared
// while its record is in the cache, in a thread-local table: suits keys of
// which a few thousand take most records.
struct InputBytesKeys {
  static constexpr bool kThreadLocalTable = true;
  struct Key {
    const std::uint8_t* bytes = nullptr;
    std::uint64_t hash = 0;
    std::uint32_t length = 0;
  };
  static Key key(const std::uint8_t* bytes, const std::uint8_t* end) {
    const auto length = static_cast<std::size_t>(end - bytes);
    return {bytes, hash_bytes(bytes, length), static_cast<std::uint32_t>(length)};
  }
  std::uint64_t hash(const Key& k) const { return k.hash; }
  bool equal(const Key& a, const Key& b) const {
    return a.hash == b.hash && a.length == b.length && same_bytes(a.bytes, b.bytes, a.length);
  }
  std::string_view text(const Key& k) const {
    return {reinterpret_cast<const char*>(k.bytes), k.length};
  }
  void prefetch(const Key& k) const { __builtin_prefetch(k.bytes); }
};

// Adds a key's row: the number of its values, with `value_sums` their sum
// modulo 2^32 (`key<TAB>count<TAB>sum<TAB>id,id,...`), and the values
// (32-bit ids).
void add_group(TableOutput& table, std::string_view key, std::span<const std::int64_t> values,
               bool value_sums);

// The answer's shape: rows `key<TAB>count<TAB>id,id,...`.
TableOutput table_of_groups(const std::map<std::string, std::vector<std::int64_t>>& groups);

// count_in_parallel's answer from a plain map (the references): rows
// `key<TAB>count`.
TableOutput table_of_counts(const std::map<std::string, std::int64_t>& counts);

// Whether KeyOps asks for the sums column (KeyOps::kValueSums; absent: no).
template <class KeyOps>
constexpr bool value_sums() {
  if constexpr (requires { KeyOps::kValueSums; })
    return KeyOps::kValueSums;
  else
    return false;
}

// Whether KeyOps maps the records' 32-bit values (KeyOps::value; absent: no).
template <class KeyOps>
constexpr bool maps_values() {
  return requires(const KeyOps& ops, std::uint32_t v) {
    { ops.value(v) } -> std::convertible_to<std::int64_t>;
  };
}

// How many partitions the merge has: several per thread, so that a partition
// holding a very frequent key does not hold the others up, and about one per
// kRecordsPerPartition records, so that a partition's table and values stay
// in a core's cache while it is merged; at most kMaxPartitions, as each
// thread appends to every partition (more streams of appends would miss).
inline constexpr std::size_t kRecordsPerPartition = std::size_t{1} << 16;
inline constexpr unsigned kMaxPartitions = 256;
unsigned partitions_for(unsigned threads, std::size_t expected_records);

// The partition (0 .. partitions-1) of a key's hash: its high 32 bits scaled.
inline unsigned partition_of(std::uint64_t hash, unsigned partitions) {
  return static_cast<unsigned>(((hash >> 32) * partitions) >> 32);
}

// Open addressing, linear probing, a power-of-two number of slots kept under
// half full: each distinct key gets a group number (from the caller, when
// the key is first added) and the sum of the counts added under it.
template <class KeyOps>
class KeyTable {
 public:
  using Key = typename KeyOps::Key;

  KeyTable(const KeyOps& ops, std::size_t expected_keys) : ops_(&ops) {
    std::size_t slots = 64;
    while (slots < 2 * expected_keys) slots *= 2;
    slots_.assign(slots, Slot{});
  }

  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask()]); }
  // With a KeyOps that has prefetch(key) (keys whose bytes lie elsewhere, in
  // the input): prefetches the bytes of the key stored in the slot that a
  // lookup of `hash` compares first, once that slot is in the cache.
  void prefetch_stored_key(std::uint64_t hash) const {
    if constexpr (requires(const KeyOps& ops, const Key& k) { ops.prefetch(k); }) {
      const Slot& slot = slots_[hash & mask()];
      if (slot.group != kFree) ops_->prefetch(slot.key);
    }
  }

  // The group of `key` (whose hash is `hash`): new_group() numbers it when
  // the key is new. `count` is added to the group's count.
  template <class NewGroup>
  std::uint32_t add(const Key& key, std::uint64_t hash, std::uint32_t count, NewGroup&& new_group) {
    for (std::size_t at = hash & mask();; at = (at + 1) & mask()) {
      Slot& slot = slots_[at];
      if (slot.group == kFree) {
        const std::uint32_t group = new_group();
        slot = Slot{key, group, count};
        if (2 * ++keys_ > slots_.size()) grow();
        return group;
      }
      if (ops_->equal(slot.key, key)) {
        slot.count += count;
        return slot.group;
      }
    }
  }

  std::size_t keys() const { return keys_; }
  // fn(key, group, count) for every key.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.group != kFree) fn(s.key, s.group, s.count);
    }
  }

 private:
  static constexpr std::uint32_t kFree = UINT32_MAX;
  struct Slot {
    Key key{};
    std::uint32_t group = kFree;
    std::uint32_t count = 0;
  };
  std::size_t mask() const { return slots_.size() - 1; }
  void grow() {
    std::vector<Slot> old(2 * slots_.size());
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.group == kFree) continue;
      std::size_t at = ops_->hash(s.key) & mask();
      while (slots_[at].group != kFree) at = (at + 1) & mask();
      slots_[at] = s;
    }
  }

  const KeyOps* ops_;
  std::vector<Slot> slots_;
  std::size_t keys_ = 0;
};

// Appends in blocks of doubling size that never move (no copying as the list
// grows, no zeroing: the appending thread touches them first).
template <class T>
class BlockList {
 public:
  void push(const T& item) {
    if (next_ == end_) new_block();
    *next_++ = item;
  }
  std::size_t size() const {
    std::size_t n = 0;
    for (std::size_t b = 0; b + 1 < blocks_.size(); ++b) n += capacity(b);
    return blocks_.empty() ? 0 : n + static_cast<std::size_t>(next_ - blocks_.back().get());
  }
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const T* end = b + 1 == blocks_.size() ? next_ : blocks_[b].get() + capacity(b);
      for (const T* item = blocks_[b].get(); item != end; ++item) fn(*item);
    }
  }

 private:
  static std::size_t capacity(std::size_t block) {
    return std::size_t{64} << std::min<std::size_t>(block, 10);  // 64 .. 64Ki items
  }
  void new_block() {
    blocks_.emplace_back(new T[capacity(blocks_.size())]);  // uninitialized
    next_ = blocks_.back().get();
    end_ = next_ + capacity(blocks_.size() - 1);
  }

  std::vector<std::unique_ptr<T[]>> blocks_;
  T* next_ = nullptr;
  T* end_ = nullptr;
};

// One thread's part of the grouping (step 1): add() its records in order,
// then seal().
template <class KeyOps>
class ThreadGroups {
 public:
  using Key = typename KeyOps::Key;
  static constexpr bool kTable = KeyOps::kThreadLocalTable;
  // What a record leaves in its partition: its key's number in this
  // thread's part of the partition and its value, or (without a table) its
  // value, its key being the partition's key of the same index.
  struct Numbered {
    std::uint32_t group, value;
  };
  using Record = std::conditional_t<kTable, Numbered, std::uint32_t>;

  // This thread's share of a partition.
  struct Part {
    BlockList<Key> keys;                // by group, or by record without a table
    std::vector<std::uint32_t> counts;  // by group (with a table)
    BlockList<Record> records;
    std::unique_ptr<std::uint32_t[]> merged;  // the keys' numbers in the merged partition
    std::uint32_t groups = 0;
  };

  ThreadGroups(const KeyOps& ops, unsigned partitions)
      : ops_(&ops), table_(ops, kTable ? 1024 : 0), parts_(partitions) {}

  void add(const Key& key, std::uint32_t value) {
    const std::uint64_t hash = ops_->hash(key);
    if constexpr (kTable) {
      // A small batch whose table slots are prefetched before any is looked
      // up: when the table outgrows the cache, the misses overlap.
      batch_[batched_] = {key, hash, value};
      table_.prefetch(hash);
      if (++batched_ == kBatch) flush();
    } else {
      Part& part = parts_[partition_of(hash, partitions())];
      part.keys.push(key);
      part.records.push(value);
    }
  }

  // After the last add(): the counts by group.
  void seal() {
    if constexpr (kTable) {
      flush();
      for (Part& part : parts_) part.counts.resize(part.groups);
      table_.for_each([&](const Key& key, std::uint32_t group, std::uint32_t count) {
        parts_[partition_of(ops_->hash(key), partitions())].counts[group] = count;
      });
    }
  }

  Part& part(unsigned partition) { return parts_[partition]; }

 private:
  static constexpr unsigned kBatch = 16;
  struct Pending {
    Key key;
    std::uint64_t hash;
    std::uint32_t value;
  };
  unsigned partitions() const { return static_cast<unsigned>(parts_.size()); }
  void flush() {
    for (unsigned i = 0; i < batched_; ++i) {
      const Pending& p = batch_[i];
      Part& part = parts_[partition_of(p.hash, partitions())];
      const std::uint32_t group = table_.add(p.key, p.hash, 1, [&] {
        part.keys.push(p.key);
        return part.groups++;
      });
      part.records.push({group, p.value});
    }
    batched_ = 0;
  }

  const KeyOps* ops_;
  KeyTable<KeyOps> table_;  // unused without a thread-local table
  Pending batch_[kBatch];
  unsigned batched_ = 0;
  std::vector<Part> parts_;  // by partition
};

// The grouping as run_cpu leaves it: per partition, the keys, the offsets of
// their values' runs and the values (in input order). finish() makes the
// answer's TableOutput (sorted keys, counts, sorted ids), which compare_with
// (against a TableOutput or another GroupedOutput) and dump then use.
template <class KeyOps>
class GroupedOutput final : public Output {
 public:
  using Key = typename KeyOps::Key;
  struct Partition {
    std::vector<Key> keys;
    // keys.size() + 1 of them: key k's values are [offsets[k], offsets[k + 1]).
    std::vector<std::uint64_t> offsets;
    std::unique_ptr<std::uint32_t[]> values;
  };

  GroupedOutput(const KeyOps& ops, unsigned partitions) : ops_(ops), partitions_(partitions) {}
  Partition& partition(unsigned p) { return partitions_[p]; }

  void finish() override {
    if (table_) return;
    std::size_t rows = 0, key_bytes = 0;
    for (const Partition& part : partitions_) {
      rows += part.keys.size();
      for (const Key& k : part.keys) key_bytes += ops_.text(k).size();
    }
    constexpr bool sums = value_sums<KeyOps>();
    table_ = std::make_unique<TableOutput>(sums ? 2 : 1, 0, true);
    table_->reserve(rows, key_bytes);
    std::vector<std::int64_t> ids;
    for (const Partition& part : partitions_) {
      for (std::size_t k = 0; k < part.keys.size(); ++k) {
        const std::uint32_t* first = part.values.get() + part.offsets[k];
        const std::uint32_t* last = part.values.get() + part.offsets[k + 1];
        if constexpr (maps_values<KeyOps>()) {
          ids.clear();
          for (const std::uint32_t* v = first; v != last; ++v) ids.push_back(ops_.value(*v));
        } else {
          ids.assign(first, last);
        }
        add_group(*table_, ops_.text(part.keys[k]), ids, sums);
      }
    }
    table_->finish();
    partitions_.clear();
  }
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override {
    if (!table_) throw std::logic_error("grouped output compared before finish()");
    if (const auto* other = dynamic_cast<const GroupedOutput*>(&expected)) {
      if (!other->table_) throw std::logic_error("grouped output compared before finish()");
      return table_->compare_with(*other->table_, policy);
    }
    return table_->compare_with(expected, policy);
  }
  void dump(std::ostream& out) const override {
    if (!table_) throw std::logic_error("grouped output dumped before finish()");
    table_->dump(out);
  }
  std::uint64_t items() const override {
    if (table_) return table_->rows();
    std::uint64_t keys = 0;
    for (const Partition& part : partitions_) keys += part.keys.size();
    return keys;
  }

 private:
  KeyOps ops_;
  std::vector<Partition> partitions_;
  std::unique_ptr<TableOutput> table_;  // made by finish()
};

// Step 2 for one partition: the threads' keys numbered in one table, their
// values copied out thread by thread.
template <class KeyOps>
typename GroupedOutput<KeyOps>::Partition merge_partition(
    const KeyOps& ops, std::vector<std::unique_ptr<ThreadGroups<KeyOps>>>& threads,
    unsigned partition) {
  constexpr bool kTable = KeyOps::kThreadLocalTable;
  typename GroupedOutput<KeyOps>::Partition out;
  std::size_t thread_keys = 0;
  for (const auto& t : threads) thread_keys += t->part(partition).keys.size();
  // Without thread-local tables every record brought its key: guess a few
  // records per key (the table grows if there are more keys).
  KeyTable<KeyOps> table(ops, kTable ? thread_keys : thread_keys / 4);
  for (const auto& t : threads) {
    auto& part = t->part(partition);
    part.merged.reset(new std::uint32_t[part.keys.size()]);  // uninitialized: all written
    std::size_t i = 0;
    part.keys.for_each([&](const typename KeyOps::Key& key) {
      part.merged[i] = table.add(key, ops.hash(key), kTable ? part.counts[i] : 1, [&] {
        out.keys.push_back(key);
        return static_cast<std::uint32_t>(out.keys.size() - 1);
      });
      ++i;
    });
  }
  out.offsets.assign(out.keys.size() + 1, 0);
  table.for_each([&](const auto&, std::uint32_t group, std::uint32_t count) {
    out.offsets[group + 1] = count;
  });
  for (std::size_t k = 0; k < out.keys.size(); ++k) out.offsets[k + 1] += out.offsets[k];
  out.values.reset(new std::uint32_t[out.offsets.back()]);  // uninitialized: every slot is written
  std::vector<std::uint64_t> next(out.offsets.begin(), out.offsets.end() - 1);
  for (const auto& t : threads) {
    auto& part = t->part(partition);
    std::size_t i = 0;
    part.records.for_each([&](const typename ThreadGroups<KeyOps>::Record& r) {
      if constexpr (kTable) {
        out.values[next[part.merged[r.group]]++] = r.value;
      } else {
        out.values[next[part.merged[i++]]++] = r;
      }
    });
  }
  return out;
}

// Groups the records that scan(thread, groups) adds, thread t adding the
// records of its own piece of the input in order (pieces in input order);
// `expected_records` (an estimate) sizes the partitions.
template <class KeyOps, class Scan>
std::unique_ptr<GroupedOutput<KeyOps>> group_in_parallel(const KeyOps& ops, unsigned threads,
                                                         std::size_t expected_records,
                                                         Scan&& scan) {
  const unsigned partitions = partitions_for(threads, expected_records);
  std::vector<std::unique_ptr<ThreadGroups<KeyOps>>> local(threads);
  parallel_for(threads, [&](unsigned t) {
    local[t] = std::make_unique<ThreadGroups<KeyOps>>(ops, partitions);
    scan(t, *local[t]);
    local[t]->seal();
  });
  auto out = std::make_unique<GroupedOutput<KeyOps>>(ops, partitions);
  std::atomic<unsigned> next_partition{0};
  parallel_for(threads, [&](unsigned) {
    for (unsigned p; (p = next_partition++) < partitions;)
      out->partition(p) = merge_partition(ops, local, p);
  });
  return out;
}

// One thread's counts for count_in_parallel: add() each of its records' keys,
// then take the table().
template <class KeyOps>
class KeyCounts {
 public:
  using Key = typename KeyOps::Key;
  explicit KeyCounts(const KeyOps& ops) : ops_(&ops), table_(ops, 1024) {}
  void add(const Key& key) {
    const std::uint64_t hash = ops_->hash(key);
    batch_[batched_] = {key, hash};
    table_.prefetch(hash);
    if (++batched_ == kBatch) flush();
  }
  // After the last add().
  const KeyTable<KeyOps>& table() {
    flush();
    return table_;
  }

 private:
  static constexpr unsigned kBatch = 16;
  struct Pending {
    Key key;
    std::uint64_t hash;
  };
  // A batch's table slots were prefetched as its keys came; the keys stored
  // in them are prefetched next (KeyTable::prefetch_stored_key), then the
  // batch is added: when the table or its keys outgrow the cache (many
  // distinct words, keys pointing into the input), the misses overlap.
  void flush() {
    for (unsigned i = 0; i < batched_; ++i) table_.prefetch_stored_key(batch_[i].hash);
    for (unsigned i = 0; i < batched_; ++i)
      table_.add(batch_[i].key, batch_[i].hash, 1, [this] { return groups_++; });
    batched_ = 0;
  }

  const KeyOps* ops_;
  KeyTable<KeyOps> table_;
  Pending batch_[kBatch];
  unsigned batched_ = 0;
  std::uint32_t groups_ = 0;  // the table wants group numbers; counting needs none
};

// The number of records of each key that scan(thread, counts) adds, thread t
// adding the records of its own piece of the input: each thread counts in its
// own table; the tables' keys go to partitions by hash, each partition merged
// by one thread into rows of its own, appended into the answer: a TableOutput
// of one integer column, rows `text(key)<TAB>count` in no order (its
// finish(), untimed, sorts them).
template <class KeyOps, class Scan>
std::unique_ptr<TableOutput> count_in_parallel(const KeyOps& ops, unsigned threads, Scan&& scan) {
  using Key = typename KeyOps::Key;
  const unsigned partitions = threads == 1 ? 1 : 4 * threads;
  struct Counted {
    Key key;
    std::uint32_t count;
  };
  // by thread, then partition
  std::vector<std::vector<std::vector<Counted>>> parts(threads);
  parallel_for(threads, [&](unsigned t) {
    KeyCounts<KeyOps> counts(ops);
    scan(t, counts);
    parts[t].resize(partitions);
    counts.table().for_each([&](const Key& k, std::uint32_t, std::uint32_t count) {
      parts[t][partition_of(ops.hash(k), partitions)].push_back({k, count});
    });
  });
  // Each partition's rows on cache lines of their own (per_worker.h).
  PerWorker<TableOutput> rows(partitions, 1u, 0u, false);
  std::atomic<unsigned> next{0};
  parallel_for(threads, [&](unsigned) {
    for (unsigned p; (p = next++) < partitions;) {
      std::size_t keys = 0;
      for (unsigned t = 0; t < threads; ++t) keys += parts[t][p].size();
      KeyTable<KeyOps> merged(ops, keys);
      std::uint32_t groups = 0;
      for (unsigned t = 0; t < threads; ++t)
        for (const Counted& c : parts[t][p])
          merged.add(c.key, ops.hash(c.key), c.count, [&groups] { return groups++; });
      rows[p].reserve(merged.keys(), 0);
      merged.for_each([&](const Key& k, std::uint32_t, std::uint32_t count) {
        const std::int64_t n[1] = {count};
        rows[p].add(ops.text(k), n);
      });
    }
  });
  return std::make_unique<TableOutput>(TableOutput::concatenate(rows.take()));
}

}  // namespace harness::workloads::group_by_key
