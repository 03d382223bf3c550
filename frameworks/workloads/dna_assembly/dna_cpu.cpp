// DNA Assembly on host threads, in two parallel phases:
//  1. each thread packs the parts of an even range of records (dna_part_table.h)
//     into its own tables, one per partition of the hash space, prefetching
//     each part's slot kAhead records before inserting it;
//  2. each thread merges one partition at a time: that partition's tables
//     of every thread into one table, summing counts and OR-ing edge masks.
// Every table is allocated (and first touched) by the thread that fills it.
#include "frameworks/workloads/dna_assembly/dna_cpu.h"

#include <algorithm>

#include "frameworks/workloads/text_chunks.h"
#include "harness/core/parallel.h"

namespace harness::workloads::dna {
namespace {

// Parts decoded ahead of their insertion, their slots prefetched meanwhile,
// so that about this many cache misses are in flight.
constexpr std::size_t kAhead = 16;

std::size_t partition_of(std::uint64_t hash) {
  return static_cast<std::size_t>(hash >> (64 - kPartitionBits));
}

struct DecodedPart {
  PartSlot part;
  std::uint64_t hash;
};

DecodedPart decode(const std::uint8_t* record) {
  DecodedPart d;
  d.part.key = pack_part(record + kPartAt);
  d.part.count = 1;
  d.part.left = edge_mask(record + kFragmentAt);
  d.part.right = edge_mask(record + kRightEdgeAt);
  d.hash = part_hash(d.part.key);
  return d;
}

// Phase 1 for records [first, last).
std::vector<PartTable> count_range(const std::uint8_t* data, std::size_t first, std::size_t last) {
  std::vector<PartTable> tables;
  tables.reserve(kPartitions);
  // Sized for all-distinct parts spread evenly; a table grows past that.
  for (std::size_t p = 0; p < kPartitions; ++p) tables.emplace_back((last - first) / kPartitions);
  DecodedPart ahead[kAhead];
  auto fetch = [&](std::size_t r) {
    DecodedPart& d = ahead[r % kAhead];
    d = decode(data + r * kRecordBytes);
    __builtin_prefetch(tables[partition_of(d.hash)].home_slot(d.hash), 1);
  };
  for (std::size_t r = first; r < std::min(last, first + kAhead); ++r) fetch(r);
  for (std::size_t r = first; r < last; ++r) {
    const DecodedPart d = ahead[r % kAhead];
    tables[partition_of(d.hash)].add(d.part, d.hash);
    if (r + kAhead < last) fetch(r + kAhead);
  }
  return tables;
}

}  // namespace

std::vector<PartTable> count_parts_parallel(const std::uint8_t* data, std::size_t size,
                                            unsigned threads) {
  const std::size_t records = size / kRecordBytes;
  const auto cuts = even_cuts(records, threads);
  std::vector<std::vector<PartTable>> local(threads);
  parallel_for(threads, [&](unsigned t) { local[t] = count_range(data, cuts[t], cuts[t + 1]); });
  if (threads == 1) return std::move(local[0]);

  std::vector<PartTable> merged(kPartitions);
  parallel_for(threads, [&](unsigned t) {
    for (std::size_t p = t; p < kPartitions; p += threads) {
      std::size_t parts = 0;
      for (const auto& tables : local) parts += tables[p].size();
      PartTable table(parts);  // the most distinct parts there can be: never grows
      for (auto& tables : local) {
        for (const PartSlot& s : tables[p].slots()) {
          if (s.count != 0) table.add(s, part_hash(s.key));
        }
        tables[p].release();
      }
      merged[p] = std::move(table);
    }
  });
  return merged;
}

}  // namespace harness::workloads::dna
