// A key as the CPU runtime's hash tables see it: keys of up to 16 bytes are
// packed into two 64-bit words (zero padded), so that comparing two of them is
// two integer compares and needs no second memory access; longer keys keep a
// pointer to their bytes. Each key carries its 64-bit hash, whose top bits
// pick a table slot and whose low bits pick a partition (independent bits).
#pragma once

#include <cstdint>
#include <cstring>

namespace harness::cpu {

struct PackedKey {
  static constexpr std::uint32_t kInlineBytes = 16;
  std::uint64_t w0 = 0, w1 = 0;  // the bytes of a short key, zero padded
  std::uint64_t hash = 0;
  std::uint32_t len = 0;
  const char* bytes = nullptr;  // a long key's bytes (len > kInlineBytes), valid while in use

  bool is_inline() const { return len <= kInlineBytes; }
};

// Hash of a short key's words. Two independent multiplies fill the top bits
// (the slot); folding the top half down fills the low bits (the partition).
// The length is mixed in: keys may hold zero bytes (a big-endian cluster id).
inline std::uint64_t hash_words(std::uint64_t w0, std::uint64_t w1, std::uint32_t len) {
  std::uint64_t h = w0 * 0x9e3779b97f4a7c15ULL ^ (w1 + len) * 0xd6e8feb86659fd93ULL;
  return h ^ (h >> 32);
}

// Hash of a long key's bytes, 8 at a time (multiply-xorshift).
inline std::uint64_t hash_bytes(const char* p, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
  }
  h ^= h >> 32;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 29);
}

// A short key from its two words (bytes past `len` must be zero).
inline PackedKey pack_words(std::uint64_t w0, std::uint64_t w1, std::uint32_t len) {
  PackedKey k;
  k.w0 = w0;
  k.w1 = w1;
  k.len = len;
  k.hash = hash_words(w0, w1, len);
  return k;
}

// A key longer than kInlineBytes: it keeps pointing at `p`.
inline PackedKey pack_long_key(const char* p, std::uint32_t len) {
  PackedKey k;
  k.len = len;
  k.bytes = p;
  k.hash = hash_bytes(p, len);
  return k;
}

// Any key from its bytes; a long key keeps pointing at `p`.
inline PackedKey pack_key(const char* p, std::uint32_t len) {
  if (len > PackedKey::kInlineBytes) return pack_long_key(p, len);
  char buf[PackedKey::kInlineBytes] = {};
  std::memcpy(buf, p, len);
  std::uint64_t w0, w1;
  std::memcpy(&w0, buf, 8);
  std::memcpy(&w1, buf + 8, 8);
  return pack_words(w0, w1, len);
}

}  // namespace harness::cpu
