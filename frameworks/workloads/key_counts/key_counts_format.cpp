#include "frameworks/workloads/key_counts/key_counts_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "harness/core/errors.h"

namespace harness::workloads::key_counts {
namespace {

static_assert(std::endian::native == std::endian::little, "keys are read in place");

std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t word = 0;
  for (int b = 7; b >= 0; --b) word = word << 8 | p[b];
  return word;
}

// "9 keys" or "9 keys and 3 bytes": what `bytes` after the header hold.
std::string keys_in(std::uint64_t bytes) {
  if (bytes % 8 == 0) return fmt::format("{} keys", bytes / 8);
  return fmt::format("{} keys and {} bytes", bytes / 8, bytes % 8);
}

}  // namespace

void check_keys(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  if (size < kHeaderBytes)
    throw RunError(fmt::format("{}: the input ({} bytes) is shorter than its {}-byte header", kApp,
                               size, kHeaderBytes));
  if (!std::equal(std::begin(datasets::kKeysU64Magic), std::end(datasets::kKeysU64Magic), data))
    throw RunError(fmt::format(
        "{}: the input does not start with \"keys-u64\" (the header: \"keys-u64\", then u64 N, "
        "the number of keys)",
        kApp));
  const std::uint64_t n = load_u64(data + 8);
  if (n > datasets::kKeysU64MaxKeys)
    throw RunError(
        fmt::format("{}: the header's N (bytes 8-15) is {} keys, more than 2^32 - 1", kApp, n));
  if (const std::uint64_t body = size - kHeaderBytes; body != 8 * n)
    throw RunError(fmt::format(
        "{}: the header's N (bytes 8-15) is {} keys, {} bytes with the header, but the input has "
        "{} bytes ({} after the header)",
        kApp, n, kHeaderBytes + 8 * n, size, keys_in(body)));
}

KeyArray read_keys(const std::uint8_t* data, std::size_t size) {
  check_keys(data, size);
  if (size == 0) return {nullptr, 0};
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(std::uint64_t) != 0)
    throw std::logic_error(std::string(kApp) + ": the input is not 8-byte aligned");
  return {reinterpret_cast<const std::uint64_t*>(data + kHeaderBytes), (size - kHeaderBytes) / 8};
}

}  // namespace harness::workloads::key_counts
