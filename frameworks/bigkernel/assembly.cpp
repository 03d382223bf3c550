#include "frameworks/bigkernel/assembly.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "harness/core/errors.h"

namespace harness::bigkernel {
namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

// One value, copied at a width the compiler sees (a plain load and store).
// Non-temporal 8- and 4-byte stores were tried (they skip the read for
// ownership of the prefetch buffer's lines): the assembly of K-means at 2 GiB
// on the H200 host went from 56.6 to 72.5 ms (scattered partial-line
// streaming stores), so plain stores stay.
inline void copy_value(std::uint8_t* dst, const std::uint8_t* src, std::uint32_t width) {
  switch (width) {
    case 8:
      std::memcpy(dst, src, 8);
      break;
    case 4:
      std::memcpy(dst, src, 4);
      break;
    case 1:
      *dst = *src;
      break;
    default:
      std::memcpy(dst, src, width);
  }
}

// `count` values of `W` bytes from `from` (every `from_stride` bytes) to
// `to` (every `to_stride`): a loop of fixed-size copies the compiler unrolls.
template <std::uint32_t W>
void copy_strided(std::uint8_t* to, std::uint64_t to_stride, const std::uint8_t* from,
                  std::uint64_t from_stride, std::uint32_t count) {
  if (to_stride == W) {  // the coalesced layout: one read's values side by side
    for (std::uint32_t i = 0; i < count; ++i) std::memcpy(to + i * W, from + i * from_stride, W);
  } else {
    for (std::uint32_t i = 0; i < count; ++i)
      std::memcpy(to + i * to_stride, from + i * from_stride, W);
  }
}

void copy_run(std::uint8_t* to, std::uint64_t to_stride, const std::uint8_t* from,
              std::uint64_t from_stride, std::uint32_t count, std::uint32_t bytes) {
  switch (bytes) {
    case 1:
      return copy_strided<1>(to, to_stride, from, from_stride, count);
    case 2:
      return copy_strided<2>(to, to_stride, from, from_stride, count);
    case 4:
      return copy_strided<4>(to, to_stride, from, from_stride, count);
    case 8:
      return copy_strided<8>(to, to_stride, from, from_stride, count);
    default:
      for (std::uint32_t i = 0; i < count; ++i)
        std::memcpy(to + i * to_stride, from + i * from_stride, bytes);
  }
}

// Eight threads' eight adjacent single-byte reads (`from[i]`: thread i's
// first byte) into eight coalesced segments (`to[k]`: read k's values, eight
// threads side by side): eight 8-byte loads, an 8 x 8 byte transpose in
// registers, eight 8-byte stores. The strided form: the first thread's first
// byte, the next thread `from_stride` bytes on.
void transpose_8x8(const std::uint8_t* const* from, std::uint8_t* const* to) {
  std::uint64_t w[8];  // w[i]: thread i's bytes; after the transpose, read i's
  for (int i = 0; i < 8; ++i) std::memcpy(&w[i], from[i], 8);
  // Swap the off-diagonal blocks of 4, then 2, then 1 bytes.
  constexpr std::uint64_t kLow[] = {0x00000000FFFFFFFFULL, 0x0000FFFF0000FFFFULL,
                                    0x00FF00FF00FF00FFULL};
  for (int level = 0; level < 3; ++level) {
    const int span = 4 >> level, shift = 8 * span;
    for (int i = 0; i < 8; ++i) {
      if (i & span) continue;
      const std::uint64_t t = ((w[i] >> shift) ^ w[i + span]) & kLow[level];
      w[i + span] ^= t;
      w[i] ^= t << shift;
    }
  }
  for (int k = 0; k < 8; ++k) std::memcpy(to[k], &w[k], 8);
}
void transpose_8x8(const std::uint8_t* from, std::uint64_t from_stride, std::uint8_t* const* to) {
  const std::uint8_t* rows[8];
  for (int i = 0; i < 8; ++i) rows[i] = from + i * from_stride;
  transpose_8x8(rows, to);
}

void check_read(std::uint64_t offset, std::uint32_t width, std::uint64_t mapped_size,
                std::uint32_t thread, std::uint32_t n) {
  if (offset + width > mapped_size) {
    throw RunError(fmt::format(
        "bigkernel: thread {} read {} B at mapped byte {} (read {}), past the array's {} B", thread,
        width, offset, n, mapped_size));
  }
}

}  // namespace

AddressPattern read_descriptor(const std::uint64_t* words, std::uint32_t max_entries) {
  AddressPattern p;
  p.holds = (words[0] & 0xffffffffu) == 0;
  p.count = static_cast<std::uint32_t>(words[1]);
  p.stride = words[2];
  if (p.count > max_entries) p.holds = false;
  if (p.holds) p.first.assign(words + 3, words + 3 + p.count);
  return p;
}

ValueLayout value_layout(Layout layout, std::uint32_t threads,
                         const std::vector<std::uint32_t>& widths) {
  ValueLayout v;
  v.layout = layout;
  v.threads = threads;
  v.widths = widths;
  std::uint64_t at = 0;
  for (std::uint32_t w : widths) {
    if (layout == Layout::coalesced) {
      v.offset.push_back(at);
      at = round_up(at + std::uint64_t{threads} * w, 8);
    } else {
      at = round_up(at, w);
      v.offset.push_back(at);
      at += w;
    }
  }
  if (layout == Layout::coalesced) {
    v.bytes = at;
  } else {
    std::uint32_t widest = 1;
    for (std::uint32_t w : widths) widest = std::max(widest, w);
    v.thread_bytes = static_cast<std::uint32_t>(round_up(at, widest));
    v.bytes = std::uint64_t{threads} * v.thread_bytes;
  }
  return v;
}

std::vector<std::uint32_t> widths_of(const std::uint64_t* list, const std::uint32_t* counts,
                                     std::uint32_t threads, std::uint32_t list_threads) {
  std::vector<std::uint32_t> widths;
  for (std::uint32_t t = 0; t < threads; ++t) {
    for (std::uint32_t n = static_cast<std::uint32_t>(widths.size()); n < counts[t]; ++n) {
      widths.push_back(entry_width(list[std::uint64_t{n} * list_threads + t]));
    }
  }
  return widths;
}

void assemble_by_pattern(const std::uint8_t* mapped, std::uint64_t mapped_size,
                         const AddressPattern& pattern, const ValueLayout& layout, std::uint32_t t0,
                         std::uint32_t t1, std::uint8_t* values) {
  if (t0 >= t1 || pattern.count == 0) return;
  // The pattern is affine in t: checking both ends checks every thread.
  for (std::uint32_t n = 0; n < pattern.count; ++n) {
    const std::uint32_t w = entry_width(pattern.first[n]);
    if (w != layout.widths.at(n)) {
      throw RunError(fmt::format("bigkernel: read {} is {} B wide, the layout's is {} B", n, w,
                                 layout.widths[n]));
    }
    for (std::uint32_t t : {t0, t1 - 1}) {
      check_read(entry_offset(pattern.first[n]) + std::uint64_t{t} * pattern.stride, w, mapped_size,
                 t, n);
    }
  }
  // Reads whose bytes follow each other both in the record and in a thread's
  // values (the thread layout) are copied as one run: opinion-finder's 146
  // single-byte reads are one 146-byte copy a thread, K-means' four doubles
  // one of 32 bytes. In the coalesced layout a thread's values lie in
  // different segments: a run a read.
  struct Run {
    std::uint64_t from, to, to_stride;  // to + t * to_stride: thread t's destination
    std::uint32_t bytes;
  };
  std::vector<Run> runs;
  for (std::uint32_t n = 0; n < pattern.count; ++n) {
    const std::uint64_t from = entry_offset(pattern.first[n]);
    const std::uint32_t w = layout.widths[n];
    if (layout.layout == Layout::thread && !runs.empty() &&
        runs.back().from + runs.back().bytes == from &&
        runs.back().to + runs.back().bytes == layout.offset[n]) {
      runs.back().bytes += w;
    } else {
      runs.push_back({from, layout.at(0, n), layout.at(1, n) - layout.at(0, n), w});
    }
  }
  // In the coalesced layout, eight single-byte reads of adjacent bytes (a
  // tweet's text, DNA's bases) are transposed eight threads at a time: runs
  // [octet, octet + 8) of `runs` when octets holds `octet`.
  std::vector<std::size_t> octets;
  if (layout.layout == Layout::coalesced) {
    for (std::size_t i = 0; i + 8 <= runs.size();) {
      bool adjacent = true;
      for (std::size_t k = 0; k < 8 && adjacent; ++k)
        adjacent = runs[i + k].bytes == 1 && runs[i + k].from == runs[i].from + k;
      if (adjacent) {
        octets.push_back(i);
        i += 8;
      } else {
        ++i;
      }
    }
  }
  // A block of threads at a time, read after read: the block's records stay
  // in the L1 cache while each read's values are written side by side. Thread
  // after thread, a coalesced layout's values went to as many pages as reads
  // (146 for opinion-finder): 30x slower for single-byte reads.
  constexpr std::uint32_t kBlock = 64;
  for (std::uint32_t b = t0; b < t1; b += kBlock) {
    const std::uint32_t e = std::min(t1, b + kBlock);
    const std::uint32_t whole = (e - b) / 8 * 8;  // threads the transposes take
    std::size_t next_octet = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::uint8_t* from = mapped + runs[i].from + std::uint64_t{b} * pattern.stride;
      if (next_octet < octets.size() && octets[next_octet] == i) {
        ++next_octet;
        for (std::uint32_t t = 0; t < whole; t += 8) {
          std::uint8_t* to[8];
          for (std::size_t k = 0; k < 8; ++k) to[k] = values + runs[i + k].to + b + t;
          transpose_8x8(from + t * pattern.stride, pattern.stride, to);
        }
        for (std::size_t k = 0; k < 8; ++k) {  // the block's last threads
          copy_run(values + runs[i + k].to + b + whole, 1,
                   from + k + std::uint64_t{whole} * pattern.stride, pattern.stride, e - b - whole,
                   1);
        }
        i += 7;
        continue;
      }
      copy_run(values + runs[i].to + b * runs[i].to_stride, runs[i].to_stride, from, pattern.stride,
               e - b, runs[i].bytes);
    }
  }
}

void assemble_by_record_pattern(const std::uint8_t* mapped, std::uint64_t mapped_size,
                                const AddressPattern& pattern, const ValueLayout& layout,
                                const std::uint64_t* bases, std::uint32_t base_stride,
                                const std::uint32_t* counts, std::uint32_t t0, std::uint32_t t1,
                                std::uint8_t* values) {
  if (t0 >= t1) return;
  const std::uint32_t reads = pattern.count;
  std::vector<std::uint64_t> rel(reads);
  for (std::uint32_t n = 0; n < reads; ++n) {
    rel[n] = entry_offset(pattern.first[n]);
    const std::uint32_t w = entry_width(pattern.first[n]);
    if (n >= layout.widths.size() || w != layout.widths[n]) {
      throw RunError(fmt::format("bigkernel: read {} is {} B wide, the layout's is {} B", n, w,
                                 n < layout.widths.size() ? layout.widths[n] : 0));
    }
  }
  const std::vector<std::uint32_t>& width = layout.widths;
  // Runs of reads adjacent in the record: [run_start[i], run_start[i + 1]).
  std::vector<std::uint32_t> run_start;
  for (std::uint32_t n = 0; n < reads; ++n) {
    if (n == 0 || rel[n - 1] + width[n - 1] != rel[n]) run_start.push_back(n);
  }
  run_start.push_back(reads);
  // Every thread's count, and each run's bytes it reads, checked before any copy.
  for (std::uint32_t t = t0; t < t1; ++t) {
    const std::uint32_t c = counts[t];
    if (c > reads) {
      throw RunError(fmt::format(
          "bigkernel: thread {} made {} reads, more than the {} of the round's record pattern", t,
          c, reads));
    }
    const std::uint64_t base = bases[std::uint64_t{t} * base_stride];
    for (std::size_t i = 0; i + 1 < run_start.size() && run_start[i] < c; ++i) {
      const std::uint32_t n0 = run_start[i], n1 = std::min(run_start[i + 1], c);
      const std::uint64_t from = (base + rel[n0]) & kAddressMask;
      const std::uint64_t end = rel[n1 - 1] + width[n1 - 1] - rel[n0];
      check_read(from, static_cast<std::uint32_t>(end), mapped_size, t, n0);
    }
  }
  auto from_of = [&](std::uint32_t t, std::uint32_t n) {
    return mapped + ((bases[std::uint64_t{t} * base_stride] + rel[n]) & kAddressMask);
  };
  if (layout.layout == Layout::thread) {
    // Reads adjacent in the record and in a thread's values: one copy, cut
    // at the thread's count. The runs are the pattern's, found once (found
    // thread by thread, the scan cost more than the copy: 1.0 GB/s on one
    // core for wc's pieces, bench_bigkernel_assembly).
    std::vector<std::uint32_t> copy_start;  // runs [copy_start[i], copy_start[i + 1])
    for (std::uint32_t n = 0; n < reads; ++n) {
      if (n == 0 || rel[n - 1] + width[n - 1] != rel[n] ||
          layout.offset[n - 1] + width[n - 1] != layout.offset[n])
        copy_start.push_back(n);
    }
    copy_start.push_back(reads);
    for (std::uint32_t t = t0; t < t1; ++t) {
      const std::uint32_t c = counts[t];
      std::uint8_t* to = values + std::uint64_t{t} * layout.thread_bytes;
      for (std::size_t i = 0; i + 1 < copy_start.size() && copy_start[i] < c; ++i) {
        const std::uint32_t n0 = copy_start[i], n1 = std::min(copy_start[i + 1], c);
        std::memcpy(to + layout.offset[n0], from_of(t, n0),
                    layout.offset[n1 - 1] + width[n1 - 1] - layout.offset[n0]);
      }
    }
    return;
  }
  // Coalesced: a block of threads at a time, read after read. Eight adjacent
  // single-byte reads that all of eight threads made are transposed (wc's and
  // mastercard's text); the rest, value by value.
  std::vector<std::uint32_t> single_run(reads + 1, 0);  // adjacent 1-byte reads from n on
  for (std::uint32_t n = reads; n-- > 0;) {
    single_run[n] = width[n] != 1 ? 0
                    : n + 1 < reads && width[n + 1] == 1 && rel[n] + 1 == rel[n + 1]
                        ? single_run[n + 1] + 1
                        : 1;
  }
  // 512 threads a block: a read's values land in 512-byte runs of its
  // segment, so a block touches a page per 512 B written rather than per 64
  // (a segment is a round's threads wide: wc's 1,000 reads a piece write to
  // as many pages a block). One thread, a synthetic round of 5,888 pieces of
  // 928-1,119 B (wc's rounds at the gpu preset), median of 10 on this 2-core
  // VM: 0.56 GB/s with blocks of 64, 0.86 with 512; the block's pieces (512
  // KiB) are read from L2.
  constexpr std::uint32_t kBlock = 512;
  for (std::uint32_t b = t0; b < t1; b += kBlock) {
    const std::uint32_t e = std::min(t1, b + kBlock);
    std::uint32_t most = 0;
    for (std::uint32_t t = b; t < e; ++t) most = std::max(most, counts[t]);
    for (std::uint32_t n = 0; n < most;) {
      if (single_run[n] >= 8) {
        std::uint8_t* to[8];
        for (std::uint32_t k = 0; k < 8; ++k) to[k] = values + layout.offset[n + k];
        std::uint32_t t = b;
        while (t < e) {
          bool eight = t + 8 <= e;
          for (std::uint32_t i = 0; i < 8 && eight; ++i) eight = counts[t + i] >= n + 8;
          if (eight) {
            const std::uint8_t* rows[8];
            std::uint8_t* dst[8];
            for (std::uint32_t i = 0; i < 8; ++i) {
              rows[i] = from_of(t + i, n);
              dst[i] = to[i] + t;
            }
            transpose_8x8(rows, dst);
            t += 8;
            continue;
          }
          const std::uint32_t k = std::min<std::uint32_t>(8, counts[t] > n ? counts[t] - n : 0);
          const std::uint8_t* row = k ? from_of(t, n) : nullptr;
          for (std::uint32_t i = 0; i < k; ++i) to[i][t] = row[i];
          ++t;
        }
        n += 8;
        continue;
      }
      const std::uint32_t w = width[n];
      for (std::uint32_t t = b; t < e; ++t) {
        if (counts[t] > n)
          copy_value(values + layout.offset[n] + std::uint64_t{t} * w, from_of(t, n), w);
      }
      ++n;
    }
  }
}

void assemble_raw(const std::uint8_t* mapped, std::uint64_t mapped_size, const std::uint64_t* list,
                  const std::uint32_t* counts, std::uint32_t list_threads,
                  const ValueLayout& layout, std::uint32_t t0, std::uint32_t t1,
                  std::uint8_t* values) {
  for (std::uint32_t t = t0; t < t1; ++t) {
    for (std::uint32_t n = 0; n < counts[t]; ++n) {
      const std::uint64_t e = list[std::uint64_t{n} * list_threads + t];
      const std::uint32_t w = entry_width(e);
      if (n >= layout.widths.size() || w != layout.widths[n]) {
        throw RunError(fmt::format(
            "bigkernel: thread {}'s read {} is {} B wide where another thread's is {} B: the "
            "packed layouts need one width per read",
            t, n, w, n < layout.widths.size() ? layout.widths[n] : 0));
      }
      check_read(entry_offset(e), w, mapped_size, t, n);
      copy_value(values + layout.at(t, n), mapped + entry_offset(e), w);
    }
  }
}

void check_read_counts(const std::string& variant, const RoundAddresses& round,
                       std::uint64_t first_record, std::uint32_t capacity) {
  if (!round.has_counts()) return;
  for (std::uint32_t t = 0; t < round.threads; ++t) {
    if (round.counts[t] > capacity) {
      throw RunError(fmt::format(
          "bigkernel/{}: record {} made {} mapped reads, more than the {} the app declared",
          variant, first_record + t, round.counts[t], capacity));
    }
  }
}

std::vector<std::uint32_t> round_widths(const RoundAddresses& round) {
  if (!round.pattern.holds)
    return widths_of(round.list, round.counts, round.threads, round.threads);
  std::vector<std::uint32_t> widths;
  for (std::uint64_t e : round.pattern.first) widths.push_back(entry_width(e));
  return widths;
}

void assemble_round(const std::uint8_t* mapped, std::uint64_t mapped_size,
                    const RoundAddresses& round, const ValueLayout& layout, std::uint32_t t0,
                    std::uint32_t t1, std::uint8_t* values) {
  if (round.pattern.holds && round.bases) {
    assemble_by_record_pattern(mapped, mapped_size, round.pattern, layout, round.bases,
                               round.base_stride, round.counts, t0, t1, values);
  } else if (round.pattern.holds) {
    assemble_by_pattern(mapped, mapped_size, round.pattern, layout, t0, t1, values);
  } else {
    assemble_raw(mapped, mapped_size, round.list, round.counts, round.threads, layout, t0, t1,
                 values);
  }
}

}  // namespace harness::bigkernel
