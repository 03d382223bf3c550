// Keys and values of the numeric apps as raw bytes: big-endian u32 keys (byte
// order = numeric order, so canonical output sorts by row, cluster or score),
// native float32/u32 values as the kernels write them, and their text forms.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace harness::apps {

inline void append_be32(std::string& out, std::uint32_t v) {
  const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                         static_cast<char>(v >> 8), static_cast<char>(v)};
  out.append(bytes, 4);
}

inline std::uint32_t read_be32(std::string_view raw, std::size_t at = 0) {
  std::uint32_t v = 0;
  for (std::size_t i = at; i < at + 4 && i < raw.size(); ++i) {
    v = (v << 8) | static_cast<unsigned char>(raw[i]);
  }
  return v;
}

// A trivially copyable value as the bytes a kernel writes, and back (short
// input reads as zero bytes).
template <typename T>
std::string raw_bytes(const T& v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <typename T>
T from_raw(std::string_view raw) {
  T v{};
  std::memcpy(&v, raw.data(), raw.size() < sizeof(T) ? raw.size() : sizeof(T));
  return v;
}

// Shortest text that reads back as the same float32 ("%.9g").
inline std::string format_f32(float v) { return fmt::format("{:.9g}", v); }

// Order-preserving u32 of a float (negatives: all bits flipped; others: sign
// bit set), as similarity.clh computes it; and back.
inline std::uint32_t ordered_bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
inline float from_ordered_bits(std::uint32_t o) {
  const std::uint32_t b = (o & 0x80000000u) ? (o & 0x7fffffffu) : ~o;
  float v = 0;
  std::memcpy(&v, &b, 4);
  return v;
}

}  // namespace harness::apps
