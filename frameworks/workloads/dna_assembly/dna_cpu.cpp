// DNA Assembly on host threads, in two parallel phases, neither of which
// reaches memory at random:
//  1. each thread packs the parts of an even range of records (dna_part_table.h)
//     and appends each, with its edge masks, to its own buffer for the part's
//     partition of the hash space: sequential reads and appends (or, to
//     combine partial counts such as a GPU's per-chunk tables, takes an even
//     range of their slots);
//  2. each thread merges whole partitions: the partition's buffers of every
//     thread into one open-addressing table small enough for the core's
//     cache, summing counts and OR-ing edge masks, each slot prefetched
//     kAhead parts before its insertion.
// Buffers and tables are allocated (and first touched) by the thread that
// fills them.
#include "frameworks/workloads/dna_assembly/dna_cpu.h"

#include <algorithm>

#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads::dna {
namespace {

constexpr std::size_t kAhead = 16;

std::size_t partition_of(std::uint64_t hash) {
  return static_cast<std::size_t>(hash >> (64 - kPartitionBits));
}

// A thread's parts by partition.
using PartitionBuffers = std::vector<std::vector<PartSlot>>;

// Phase 1 over one thread's share: `for_each(emit)` emits its parts, about
// `expected` of them, each appended to the buffer of its partition.
template <class ForEachPart>
PartitionBuffers partition_parts(std::size_t expected, ForEachPart&& for_each) {
  PartitionBuffers buffers(kPartitions);
  const std::size_t per_partition = expected / kPartitions;
  for (auto& b : buffers) b.reserve(per_partition + per_partition / 8 + 8);  // grows if hot
  for_each([&buffers](const PartSlot& part) {
    buffers[partition_of(part_hash(part.key))].push_back(part);
  });
  return buffers;
}

// Phase 2 for partition p: every thread's buffer of it, released as merged.
PartTable merge_partition(std::vector<PartitionBuffers>& threads, std::size_t p) {
  std::size_t parts = 0;
  for (const PartitionBuffers& t : threads) parts += t[p].size();
  PartTable table(parts);  // room for all of them distinct: never grows
  for (PartitionBuffers& t : threads) {
    const std::vector<PartSlot>& buffer = t[p];
    for (std::size_t i = 0; i < buffer.size(); ++i) {
      if (i + kAhead < buffer.size())
        __builtin_prefetch(table.home_slot(part_hash(buffer[i + kAhead].key)), 1);
      table.add(buffer[i], part_hash(buffer[i].key));
    }
    std::vector<PartSlot>().swap(t[p]);
  }
  return table;
}

// Phase 2 for every partition, whole partitions a thread.
std::vector<PartTable> merge_partitions(std::vector<PartitionBuffers>& buffers, unsigned threads) {
  std::vector<PartTable> tables(kPartitions);
  parallel_for(threads, [&](unsigned t) {
    for (std::size_t p = t; p < kPartitions; p += threads) tables[p] = merge_partition(buffers, p);
  });
  return tables;
}

}  // namespace

std::vector<PartTable> count_parts_parallel(const std::uint8_t* data, std::size_t size,
                                            unsigned threads) {
  const std::size_t records = size / kRecordBytes;
  const auto cuts = even_cuts(records, threads);
  std::vector<PartitionBuffers> buffers(threads);
  parallel_for(threads, [&](unsigned t) {
    buffers[t] = partition_parts(cuts[t + 1] - cuts[t], [&](const auto& emit) {
      for (std::size_t r = cuts[t]; r < cuts[t + 1]; ++r) {
        const std::uint8_t* record = data + r * kRecordBytes;
        PartSlot part;
        part.key = pack_part(record + kPartAt);
        part.count = 1;
        part.left = edge_mask(record + kFragmentAt);
        part.right = edge_mask(record + kRightEdgeAt);
        emit(part);
      }
    });
  });
  return merge_partitions(buffers, threads);
}

std::vector<PartTable> combine_parts_parallel(const std::vector<std::span<const PartSlot>>& tables,
                                              unsigned threads) {
  std::vector<std::size_t> first(tables.size() + 1, 0);
  for (std::size_t i = 0; i < tables.size(); ++i) first[i + 1] = first[i] + tables[i].size();
  const auto cuts = even_cuts(first.back(), threads);
  std::vector<PartitionBuffers> buffers(threads);
  parallel_for(threads, [&](unsigned t) {
    buffers[t] = partition_parts(cuts[t + 1] - cuts[t], [&](const auto& emit) {
      // Slots [cuts[t], cuts[t + 1]) of the tables laid end to end.
      for (std::size_t i = 0; i < tables.size(); ++i) {
        const std::size_t lo = std::max(cuts[t], first[i]),
                          hi = std::min(cuts[t + 1], first[i + 1]);
        for (std::size_t s = lo; s < hi; ++s) {
          const PartSlot& slot = tables[i][s - first[i]];
          if (slot.count != 0) emit(slot);
        }
      }
    });
  });
  return merge_partitions(buffers, threads);
}

}  // namespace harness::workloads::dna
