// Radix-partitioned hash aggregation on host threads, the CPU-MT baselines of
// the apps whose answer is one numeric row per 64-bit key (netflix,
// key-counts; their outputs are KeyedRowsOutputs):
//  1. each thread scans its own contiguous range of the input and appends one
//     item per record to its buffer of the item's hash partition (the top
//     bits of the item's 64-bit hash; up to 2048 partitions of about 32K
//     items). The buffers are chains of fixed-size blocks carved from one
//     region per thread, sized for its items, which the thread first touches;
//  2. the partitions are handed out dynamically; one thread adds every
//     thread's items of a partition into a table sized for the partition (so
//     it stays in a core's L2 cache), then drains its rows into the
//     partition's own range of the output's storage.
// A key lives in one partition, so the threads' items merge without locks,
// and no table outgrows a partition's share of the data: tables per thread
// over whole ranges, merged afterwards, would miss the cache on every record
// once the distinct keys are many (netflix's 10^8 pairs, distinct keys).
//
// The table, a class of the app's:
//   using Item = ...;  // what a record scatters (trivially copyable)
//   using Row = ...;   // the output's row
//   static std::uint64_t hash(const Item&);   // all 64 bits well mixed
//   void prepare(std::size_t items);  // empty, room for up to `items` keys
//   void add(const Item&, std::uint64_t hash);
//   std::size_t drain_into(Row* out);  // writes the rows, empties the table
// one per worker, reused for every partition the worker aggregates.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/core/cuts.h"
#include "harness/core/huge_page_array.h"
#include "harness/core/mix64.h"
#include "harness/core/parallel.h"

namespace harness::workloads::radix {

using harness::mix64;  // harness/core/mix64.h: every key bit reaches the partition and the slot

// Partitions of about this many items keep a partition's table (16 bytes a
// slot, at most 2/3 full) within a core's L2 cache, up to the scatter's
// fan-out of 2048 partitions (netflix's 6.4 GB then gets 2 MiB tables; 1024
// or 4096 partitions measured the same there).
inline constexpr std::size_t kItemsPerPartition = 32768;
inline constexpr unsigned kMaxPartitionBits = 11;
inline constexpr std::size_t kBlockBytes = 4096;  // a partition buffer's blocks

inline unsigned partition_bits(std::size_t items, unsigned threads) {
  // At least 4 partitions a thread, so the aggregation balances its load.
  const std::size_t wanted = std::max<std::size_t>(items / kItemsPerPartition, 4 * threads);
  return std::min<unsigned>(static_cast<unsigned>(std::bit_width(wanted - 1)), kMaxPartitionBits);
}

// One thread's items, one buffer per partition: chains of fixed-size blocks
// handed out in order from one region the thread allocates (and so first
// touches) itself, sized for its items: each adds one item, and each
// partition leaves at most one block partly filled.
template <class Item>
class PartitionBuffers {
 public:
  static constexpr std::size_t kBlockItems = std::max<std::size_t>(1, kBlockBytes / sizeof(Item));

  PartitionBuffers(std::size_t items, unsigned partitions)
      : region_((items / kBlockItems + partitions + 1) * kBlockItems),
        next_block_(region_.data()),
        tail_(partitions),
        blocks_(partitions) {}

  void append(unsigned partition, const Item& item) {
    Tail& t = tail_[partition];
    if (t.next == t.end) new_block(partition);
    *t.next++ = item;
  }

  // fn(first, count) for each block of `partition`, in order.
  template <typename Fn>
  void for_each_block(unsigned partition, Fn&& fn) const {
    const auto& blocks = blocks_[partition];
    for (std::size_t b = 0; b < blocks.size(); ++b)
      fn(blocks[b], b + 1 < blocks.size()
                        ? kBlockItems
                        : static_cast<std::size_t>(tail_[partition].next - blocks[b]));
  }

  std::size_t items(unsigned partition) const {
    const auto& blocks = blocks_[partition];
    if (blocks.empty()) return 0;
    return (blocks.size() - 1) * kBlockItems +
           static_cast<std::size_t>(tail_[partition].next - blocks.back());
  }

 private:
  struct Tail {
    Item* next = nullptr;
    Item* end = nullptr;
  };

  void new_block(unsigned partition) {
    blocks_[partition].push_back(next_block_);
    tail_[partition] = {next_block_, next_block_ + kBlockItems};
    next_block_ += kBlockItems;
  }

  HugePageArray<Item> region_;
  Item* next_block_;
  std::vector<Tail> tail_;
  std::vector<std::vector<Item*>> blocks_;
};

// Aggregates items in parallel on bound.size() threads: scan(t, emit) calls
// emit(item) for each of thread t's items (at most bound[t] of them); the
// rows land in `out` (storage(capacity) and add_piece(first, count), a
// KeyedRowsOutput), one piece per partition.
template <class Table, class Out, class Scan>
void aggregate(const std::vector<std::size_t>& bound, const Scan& scan, Out& out) {
  using Item = typename Table::Item;
  using Row = typename Table::Row;
  const unsigned threads = static_cast<unsigned>(bound.size());
  std::size_t total = 0;
  for (std::size_t b : bound) total += b;
  const unsigned bits = partition_bits(total, threads);
  const unsigned partitions = 1u << bits;
  // The top `bits` bits of the hash (a shift by 64 would be undefined).
  auto partition_of = [bits](std::uint64_t hash) {
    return bits == 0 ? 0u : static_cast<unsigned>(hash >> (64 - bits));
  };

  std::vector<std::unique_ptr<PartitionBuffers<Item>>> buffers(threads);
  parallel_for(threads, [&](unsigned t) {
    buffers[t] = std::make_unique<PartitionBuffers<Item>>(bound[t], partitions);
    PartitionBuffers<Item>& mine = *buffers[t];
    scan(t, [&](const Item& item) { mine.append(partition_of(Table::hash(item)), item); });
  });

  // Partition p's rows go to its own range of the storage, as long as its
  // items (an upper bound on its keys).
  std::vector<std::size_t> items(partitions), first_row(partitions + 1, 0);
  for (unsigned p = 0; p < partitions; ++p) {
    for (const auto& b : buffers) items[p] += b->items(p);
    first_row[p + 1] = first_row[p] + items[p];
  }
  Row* rows = out.storage(first_row[partitions]);
  std::vector<std::size_t> row_count(partitions);
  std::atomic<unsigned> next_partition{0};
  parallel_for(threads, [&](unsigned) {
    Table table;
    for (unsigned p; (p = next_partition.fetch_add(1)) < partitions;) {
      table.prepare(items[p]);
      for (const auto& b : buffers) {
        b->for_each_block(p, [&](const Item* block, std::size_t count) {
          for (std::size_t i = 0; i < count; ++i) table.add(block[i], Table::hash(block[i]));
        });
      }
      row_count[p] = table.drain_into(rows + first_row[p]);
    }
  });
  for (unsigned p = 0; p < partitions; ++p) out.add_piece(rows + first_row[p], row_count[p]);
}

// aggregate() over items [0, count) cut into `threads` even ranges:
// scan(lo, hi, emit) emits the items of [lo, hi) (at most hi - lo of them).
template <class Table, class Out, class ScanRange>
void aggregate_ranges(std::size_t count, unsigned threads, const ScanRange& scan, Out& out) {
  const auto cuts = even_cuts(count, threads);
  std::vector<std::size_t> bound(threads);
  for (unsigned t = 0; t < threads; ++t) bound[t] = cuts[t + 1] - cuts[t];
  aggregate<Table>(
      bound, [&](unsigned t, const auto& emit) { scan(cuts[t], cuts[t + 1], emit); }, out);
}

}  // namespace harness::workloads::radix
