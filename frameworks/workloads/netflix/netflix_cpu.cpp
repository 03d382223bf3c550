#include "frameworks/workloads/netflix/netflix_cpu.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <vector>

#include "frameworks/workloads/netflix/netflix_format.h"
#include "harness/core/cuts.h"
#include "harness/core/huge_page_array.h"
#include "harness/core/parallel.h"

namespace harness::workloads::netflix {
namespace {

// user_a == user_b: never a valid pair, so it marks an empty table slot.
constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};
// Partitions of about this many records keep a partition's table (16 bytes
// a slot, at most 2/3 full) within a core's L2 cache, up to the scatter's
// fan-out of 2048 partitions (the paper's 6.4 GB then gets 2 MiB tables;
// 1024 or 4096 partitions measured the same there).
constexpr std::size_t kRecordsPerPartition = 32768;
constexpr unsigned kMaxPartitionBits = 11;
constexpr std::size_t kBlockTallies = 256;  // 4 KiB blocks of a partition's buffer

// MurmurHash3's 64-bit finalizer: every key bit reaches the top bits (the
// partition) and the low bits (the table slot).
std::uint64_t mix(std::uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ULL;
  key ^= key >> 33;
  return key;
}

// One thread's tallies, one buffer per partition: chains of fixed-size
// blocks handed out in order from one region the thread allocates (and so
// first touches) itself, sized for its records: each record adds one tally,
// and each partition leaves at most one block partly filled.
class PartitionBuffers {
 public:
  PartitionBuffers(std::size_t records, unsigned partitions)
      : region_((records / kBlockTallies + partitions + 1) * kBlockTallies),
        next_block_(region_.data()),
        tail_(partitions),
        blocks_(partitions) {}

  void append(unsigned partition, const PairTally& tally) {
    Tail& t = tail_[partition];
    if (t.next == t.end) new_block(partition);
    *t.next++ = tally;
  }

  // fn(first, count) for each block of `partition`, in order.
  template <typename Fn>
  void for_each_block(unsigned partition, Fn&& fn) const {
    const auto& blocks = blocks_[partition];
    for (std::size_t b = 0; b < blocks.size(); ++b)
      fn(blocks[b], b + 1 < blocks.size()
                        ? kBlockTallies
                        : static_cast<std::size_t>(tail_[partition].next - blocks[b]));
  }

  std::size_t tallies(unsigned partition) const {
    const auto& blocks = blocks_[partition];
    if (blocks.empty()) return 0;
    return (blocks.size() - 1) * kBlockTallies +
           static_cast<std::size_t>(tail_[partition].next - blocks.back());
  }

 private:
  struct Tail {
    PairTally* next = nullptr;
    PairTally* end = nullptr;
  };

  void new_block(unsigned partition) {
    blocks_[partition].push_back(next_block_);
    tail_[partition] = {next_block_, next_block_ + kBlockTallies};
    next_block_ += kBlockTallies;
  }

  HugePageArray<PairTally> region_;
  PairTally* next_block_;
  std::vector<Tail> tail_;
  std::vector<std::vector<PairTally*>> blocks_;
};

// Open addressing with linear probing, power-of-two slots; one per worker,
// reused for every partition it aggregates. It lists the slots it fills, so
// handing the rows over and emptying the table cost the rows, not the slots.
class TallyTable {
 public:
  // Sizes the table, empty, for up to `tallies` distinct pairs.
  void prepare(std::size_t tallies) {
    const std::size_t slots = std::bit_ceil(std::max<std::size_t>(16, tallies + tallies / 2));
    if (slots > slots_.size()) {
      slots_ = HugePageArray<PairTally>(slots);
      for (std::size_t i = 0; i < slots; ++i) slots_[i].pair = kEmptySlot;
    }
    mask_ = slots - 1;
  }

  void add(const PairTally& tally, std::uint64_t hash) {
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      PairTally& slot = slots_[i];
      if (slot.pair == tally.pair) {
        slot.similarity += tally.similarity;
        slot.movies += tally.movies;
        return;
      }
      if (slot.pair == kEmptySlot) {
        slot = tally;
        filled_.push_back(static_cast<std::uint32_t>(i));
        return;
      }
    }
  }

  // Copies the rows to `out` and empties the table; returns the rows.
  std::size_t drain_into(PairTally* out) {
    for (std::size_t r = 0; r < filled_.size(); ++r) {
      out[r] = slots_[filled_[r]];
      slots_[filled_[r]].pair = kEmptySlot;
    }
    const std::size_t rows = filled_.size();
    filled_.clear();
    return rows;
  }

 private:
  HugePageArray<PairTally> slots_;
  std::size_t mask_ = 0;
  std::vector<std::uint32_t> filled_;
};

unsigned partition_bits(std::size_t records, unsigned threads) {
  // At least 4 partitions a thread, so the aggregation balances its load.
  const std::size_t wanted = std::max<std::size_t>(records / kRecordsPerPartition, 4 * threads);
  return std::min<unsigned>(static_cast<unsigned>(std::bit_width(wanted - 1)), kMaxPartitionBits);
}

// Aggregates tallies in parallel: scan(t, emit) calls emit(tally) for each of
// thread t's tallies (at most bound[t] of them); the rows land in `out`.
template <typename Scan>
void aggregate(const std::vector<std::size_t>& bound, const Scan& scan, PairScoresOutput& out) {
  const unsigned threads = static_cast<unsigned>(bound.size());
  std::size_t total = 0;
  for (std::size_t b : bound) total += b;
  const unsigned bits = partition_bits(total, threads);
  const unsigned partitions = 1u << bits;
  // The top `bits` bits of the mixed key (a shift by 64 would be undefined).
  auto partition_of = [bits](std::uint64_t hash) {
    return bits == 0 ? 0u : static_cast<unsigned>(hash >> (64 - bits));
  };

  std::vector<std::unique_ptr<PartitionBuffers>> buffers(threads);
  parallel_for(threads, [&](unsigned t) {
    buffers[t] = std::make_unique<PartitionBuffers>(bound[t], partitions);
    PartitionBuffers& mine = *buffers[t];
    scan(t, [&](const PairTally& tally) { mine.append(partition_of(mix(tally.pair)), tally); });
  });

  // Partition p's rows go to its own range of the storage, as long as its
  // tallies (an upper bound on its pairs).
  std::vector<std::size_t> tallies(partitions), first_row(partitions + 1, 0);
  for (unsigned p = 0; p < partitions; ++p) {
    for (const auto& b : buffers) tallies[p] += b->tallies(p);
    first_row[p + 1] = first_row[p] + tallies[p];
  }
  PairTally* rows = out.storage(first_row[partitions]);
  std::vector<std::size_t> row_count(partitions);
  std::atomic<unsigned> next_partition{0};
  parallel_for(threads, [&](unsigned) {
    TallyTable table;
    for (unsigned p; (p = next_partition.fetch_add(1)) < partitions;) {
      table.prepare(tallies[p]);
      for (const auto& b : buffers) {
        b->for_each_block(p, [&](const PairTally* block, std::size_t count) {
          for (std::size_t i = 0; i < count; ++i) table.add(block[i], mix(block[i].pair));
        });
      }
      row_count[p] = table.drain_into(rows + first_row[p]);
    }
  });
  for (unsigned p = 0; p < partitions; ++p) out.add_piece(rows + first_row[p], row_count[p]);
}

}  // namespace

void tally_pairs_parallel(const std::uint8_t* data, std::size_t records, unsigned threads,
                          PairScoresOutput& out) {
  const auto cuts = even_cuts(records, threads);
  std::vector<std::size_t> bound(threads);
  for (unsigned t = 0; t < threads; ++t) bound[t] = cuts[t + 1] - cuts[t];
  aggregate(
      bound,
      [&](unsigned t, const auto& emit) {
        for (std::size_t i = cuts[t]; i < cuts[t + 1]; ++i) {
          const RatingPair r = load_rating_pair(data + i * kRecordBytes);
          emit(PairTally{pair_key(r.user_a, r.user_b), similarity_term(r.rating_a, r.rating_b), 1});
        }
      },
      out);
}

void combine_slots_parallel(const std::vector<TallySlots>& tables, unsigned threads,
                            PairScoresOutput& out) {
  std::vector<std::size_t> first(tables.size() + 1, 0);
  for (std::size_t i = 0; i < tables.size(); ++i) first[i + 1] = first[i] + tables[i].count;
  const auto cuts = even_cuts(first.back(), threads);
  std::vector<std::size_t> bound(threads);
  for (unsigned t = 0; t < threads; ++t) bound[t] = cuts[t + 1] - cuts[t];
  aggregate(
      bound,
      [&](unsigned t, const auto& emit) {
        // Slots [cuts[t], cuts[t + 1]) of the tables laid end to end.
        for (std::size_t i = 0; i < tables.size(); ++i) {
          const std::size_t lo = std::max(cuts[t], first[i]),
                            hi = std::min(cuts[t + 1], first[i + 1]);
          for (std::size_t s = lo; s < hi; ++s) {
            const PairTally& slot = tables[i].slots[s - first[i]];
            if (slot.pair != 0) emit(slot);
          }
        }
      },
      out);
}

}  // namespace harness::workloads::netflix
