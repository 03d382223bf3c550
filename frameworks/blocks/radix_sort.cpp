#include "frameworks/blocks/radix_sort.h"

#include <algorithm>
#include <string>
#include <utility>

#include "frameworks/blocks/cuda_programs.h"
#include "harness/core/errors.h"

namespace harness::blocks {

namespace {
constexpr std::uint32_t kDigits = 1u << RadixSort::kDigitBits;  // RS_DIGITS
}  // namespace

RadixSort::RadixSort(BufferPool& pool) : pool_(pool), scan_(pool) {
  program_ = pool_.device().build(
      program_source("blocks/radix_sort", {"frameworks/blocks/kernels/radix_sort.cl"}));
  upsweep_ = program_->kernel("radix_upsweep");
  scatter_ = program_->kernel("radix_scatter");
}

void RadixSort::sort_pairs(backend::Buffer& keys, backend::Buffer& values, std::uint32_t n,
                           int key_bits) {
  if (key_bits < 0 || key_bits > 32) {
    throw UsageError("radix sort: key_bits must be 0-32, not " + std::to_string(key_bits));
  }
  const std::size_t bytes = std::size_t{n} * 4;
  if (keys.size() < bytes || values.size() < bytes) {
    throw UsageError("radix sort: buffers of " + std::to_string(keys.size()) + " and " +
                     std::to_string(values.size()) + " bytes cannot hold " + std::to_string(n) +
                     " pairs");
  }
  if (n < 2 || key_bits == 0) return;

  auto& q = pool_.device().queue();
  const std::uint32_t tiles = (n - 1) / kTile + 1;  // no wrap near 2^32; tiles * 256 < 2^30
  const std::uint32_t count_entries = tiles * kDigits;
  backend::Buffer& counts = pool_.get("radix.counts", std::size_t{count_entries} * 4);
  backend::Buffer* src_keys = &keys;
  backend::Buffer* src_values = &values;
  backend::Buffer* dst_keys = &pool_.get("radix.keys", bytes);
  backend::Buffer* dst_values = &pool_.get("radix.values", bytes);

  for (int shift = 0; shift < key_bits; shift += kDigitBits) {
    const int bits = std::min(kDigitBits, key_bits - shift);
    const std::uint32_t mask = (1u << bits) - 1u;
    const auto ushift = static_cast<std::uint32_t>(shift);
    q.launch(upsweep_, backend::LaunchShape{tiles, kGroup}, *src_keys, n, ushift, mask, tiles,
             counts);
    // Every pair is counted once, so the total must be n.
    const std::uint64_t total = scan_.exclusive(counts, count_entries);
    if (total != n) {
      throw RunError("radix sort: digit counts sum to " + std::to_string(total) + ", not " +
                     std::to_string(n));
    }
    q.launch(scatter_, backend::LaunchShape{tiles, kGroup}, *src_keys, *src_values, *dst_keys,
             *dst_values, n, ushift, mask, tiles, counts);
    std::swap(src_keys, dst_keys);
    std::swap(src_values, dst_values);
  }
  if (src_keys != &keys) {  // odd number of passes: the result is in the scratch pair
    q.copy(keys, 0, *src_keys, 0, bytes);
    q.copy(values, 0, *src_values, 0, bytes);
  }
}

}  // namespace harness::blocks
