// Host-side parallel sort for the harness' own bookkeeping: putting millions
// of output pairs in canonical order and comparing them with a reference,
// after every measured run (outside the timed region, but inside the time a
// reproduction takes).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "harness/core/host_cores.h"
#include "harness/core/parallel.h"

namespace harness {

// Sorts v with cmp (not stable): 2^k equal runs sorted on as many threads,
// then merged pairwise, each round's merges in parallel. Small inputs, or a
// single core, sort on the calling thread.
template <class T, class Cmp>
void parallel_sort(std::vector<T>& v, Cmp cmp) {
  constexpr std::size_t kSerialBelow = std::size_t{1} << 16;
  const unsigned cores = harness::usable_cores();
  unsigned runs = 1;
  while (runs * 2 <= cores && runs < 64) runs *= 2;
  if (v.size() < kSerialBelow || runs == 1) {
    std::sort(v.begin(), v.end(), cmp);
    return;
  }
  std::vector<std::size_t> bound(runs + 1);
  for (unsigned r = 0; r <= runs; ++r) bound[r] = v.size() * r / runs;
  auto at = [&v](std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  parallel_for(runs, [&](unsigned r) { std::sort(at(bound[r]), at(bound[r + 1]), cmp); });
  for (unsigned width = 1; width < runs; width *= 2) {
    parallel_for(runs / (2 * width), [&](unsigned m) {
      const unsigned lo = 2 * width * m;
      std::inplace_merge(at(bound[lo]), at(bound[lo + width]), at(bound[lo + 2 * width]), cmp);
    });
  }
}

template <class T>
void parallel_sort(std::vector<T>& v) {
  parallel_sort(v, [](const T& a, const T& b) { return a < b; });
}

// The rows of `pieces` gathered into `out` (replacing it), sorted by
// key(row), a u64, on all cores: each row goes to a bucket by its key's
// place in the keys' range (the high bits of key - smallest key), the
// buckets laid out in order, and each bucket is then sorted on its own
// (handed out dynamically, so uneven buckets still balance). About three
// passes over the rows (range, counts, scatter) and sorts of small buckets,
// where parallel_sort's merges end on one thread. Few rows, or one core,
// sort on the calling thread. Not stable.
template <class T, class KeyFn>
void gather_sorted_by_key(const std::vector<std::span<const T>>& pieces, std::vector<T>& out,
                          KeyFn key) {
  std::size_t n = 0;
  for (const auto& piece : pieces) n += piece.size();
  const auto by_key = [&key](const T& a, const T& b) { return key(a) < key(b); };
  const unsigned cores = harness::usable_cores();
  out.clear();
  if (n < (std::size_t{1} << 16) || cores == 1) {
    out.reserve(n);
    for (const auto& piece : pieces) out.insert(out.end(), piece.begin(), piece.end());
    std::sort(out.begin(), out.end(), by_key);
    return;
  }
  // Chunks of about equal rows, each a list of piece segments.
  const unsigned chunks = 4 * cores;
  std::vector<std::vector<std::span<const T>>> chunk(chunks);
  {
    const std::size_t per = (n + chunks - 1) / chunks;
    unsigned c = 0;
    std::size_t room = per;
    for (const auto& piece : pieces) {
      for (std::size_t at = 0; at < piece.size();) {
        const std::size_t take = std::min(room, piece.size() - at);
        chunk[c].push_back(piece.subspan(at, take));
        at += take;
        room -= take;
        if (room == 0 && c + 1 < chunks) {
          ++c;
          room = per;
        }
      }
    }
  }
  std::vector<std::uint64_t> lo(chunks, ~std::uint64_t{0}), hi(chunks, 0);
  parallel_for(cores, [&](unsigned w) {
    for (unsigned c = w; c < chunks; c += cores) {
      // Kept in locals, written once: the neighbouring chunks' bounds share
      // cache lines with these and are other workers'.
      std::uint64_t chunk_lo = lo[c], chunk_hi = hi[c];
      for (const auto& seg : chunk[c])
        for (const T& row : seg) {
          chunk_lo = std::min(chunk_lo, key(row));
          chunk_hi = std::max(chunk_hi, key(row));
        }
      lo[c] = chunk_lo;
      hi[c] = chunk_hi;
    }
  });
  const std::uint64_t first = *std::min_element(lo.begin(), lo.end());
  const std::uint64_t last = *std::max_element(hi.begin(), hi.end());
  // About 2048 rows a bucket, at most 2^16 buckets.
  const std::size_t buckets =
      std::bit_ceil(std::clamp<std::size_t>(n / 2048, 2 * std::size_t{cores}, 65536));
  const unsigned bits = static_cast<unsigned>(std::countr_zero(buckets));
  const unsigned span_bits = static_cast<unsigned>(std::bit_width(last - first));
  const unsigned shift = span_bits > bits ? span_bits - bits : 0;
  const auto bucket_of = [&](const T& row) { return (key(row) - first) >> shift; };
  std::vector<std::size_t> count(std::size_t{chunks} * buckets, 0);
  parallel_for(cores, [&](unsigned w) {
    for (unsigned c = w; c < chunks; c += cores) {
      std::size_t* mine = count.data() + std::size_t{c} * buckets;
      for (const auto& seg : chunk[c])
        for (const T& row : seg) ++mine[bucket_of(row)];
    }
  });
  // Each chunk's place in each bucket: buckets in order, chunks within.
  std::vector<std::size_t> bucket_start(buckets + 1, 0);
  std::size_t at = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    bucket_start[b] = at;
    for (unsigned c = 0; c < chunks; ++c) {
      const std::size_t k = count[std::size_t{c} * buckets + b];
      count[std::size_t{c} * buckets + b] = at;
      at += k;
    }
  }
  bucket_start[buckets] = at;
  out.resize(n);
  parallel_for(cores, [&](unsigned w) {
    for (unsigned c = w; c < chunks; c += cores) {
      std::size_t* next = count.data() + std::size_t{c} * buckets;
      for (const auto& seg : chunk[c])
        for (const T& row : seg) out[next[bucket_of(row)]++] = row;
    }
  });
  std::atomic<std::size_t> next_bucket{0};
  parallel_for(cores, [&](unsigned) {
    for (std::size_t b; (b = next_bucket.fetch_add(1)) < buckets;)
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(bucket_start[b]),
                out.begin() + static_cast<std::ptrdiff_t>(bucket_start[b + 1]), by_key);
  });
}

}  // namespace harness
