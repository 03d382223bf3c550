#include "datasets/xxhash.h"

#include <bit>
#include <cstring>

#include "datasets/dataset.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

// The input is read as little-endian words on every platform (compilers turn
// this into a single load on little-endian machines).
std::uint64_t read64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint32_t read32(const unsigned char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kPrime2;
  acc = std::rotl(acc, 31);
  return acc * kPrime1;
}

std::uint64_t merge_round(std::uint64_t acc, std::uint64_t value) {
  acc ^= round(0, value);
  return acc * kPrime1 + kPrime4;
}

}  // namespace

Xxh64Stream::Xxh64Stream(std::uint64_t seed)
    : seed_(seed), acc_{seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1} {}

void Xxh64Stream::update(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_ += size;
  if (buffered_ > 0) {
    const std::size_t take = size < 32 - buffered_ ? size : 32 - buffered_;
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < 32) return;
    for (int lane = 0; lane < 4; ++lane) acc_[lane] = round(acc_[lane], read64(buffer_ + 8 * lane));
    buffered_ = 0;
  }
  std::uint64_t a0 = acc_[0], a1 = acc_[1], a2 = acc_[2], a3 = acc_[3];
  while (size >= 32) {
    a0 = round(a0, read64(p));
    a1 = round(a1, read64(p + 8));
    a2 = round(a2, read64(p + 16));
    a3 = round(a3, read64(p + 24));
    p += 32;
    size -= 32;
  }
  acc_[0] = a0;
  acc_[1] = a1;
  acc_[2] = a2;
  acc_[3] = a3;
  if (size > 0) {
    std::memcpy(buffer_, p, size);
    buffered_ = size;
  }
}

std::uint64_t Xxh64Stream::digest() const {
  std::uint64_t h;
  if (total_ >= 32) {
    h = std::rotl(acc_[0], 1) + std::rotl(acc_[1], 7) + std::rotl(acc_[2], 12) +
        std::rotl(acc_[3], 18);
    for (std::uint64_t a : acc_) h = merge_round(h, a);
  } else {
    h = seed_ + kPrime5;
  }
  h += total_;
  // The buffered bytes are exactly the last total_ % 32 bytes of the input.
  const unsigned char* p = buffer_;
  std::size_t left = buffered_;
  while (left >= 8) {
    h ^= round(0, read64(p));
    h = std::rotl(h, 27) * kPrime1 + kPrime4;
    p += 8;
    left -= 8;
  }
  if (left >= 4) {
    h ^= static_cast<std::uint64_t>(read32(p)) * kPrime1;
    h = std::rotl(h, 23) * kPrime2 + kPrime3;
    p += 4;
    left -= 4;
  }
  while (left > 0) {
    h ^= *p * kPrime5;
    h = std::rotl(h, 11) * kPrime1;
    ++p;
    --left;
  }
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

std::uint64_t xxh64(const void* data, std::size_t size, std::uint64_t seed) {
  Xxh64Stream stream(seed);
  stream.update(data, size);
  return stream.digest();
}

}  // namespace harness::datasets
