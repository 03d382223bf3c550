#include "frameworks/workloads/kv_pairs/kv_pairs_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"

namespace harness::workloads::kv_pairs {
namespace {

void check_field(const char* what, std::uint32_t bytes, std::size_t at) {
  if (bytes < 4 || bytes > datasets::kKvMaxFieldBytes || bytes % 4 != 0)
    throw RunError(fmt::format(
        "kv-pairs: the header's {} size (bytes {}-{}) is {}: keys and values are multiples of 4 "
        "bytes from 4 to {}",
        what, at, at + 3, bytes, datasets::kKvMaxFieldBytes));
}

}  // namespace

Layout read_layout(const std::uint8_t* data, std::size_t size) {
  Layout l;
  if (size == 0) return l;
  if (size < datasets::kKvHeaderBytes)
    throw RunError(fmt::format("kv-pairs: the input ({} bytes) is shorter than its {}-byte header",
                               size, datasets::kKvHeaderBytes));
  if (!std::equal(std::begin(datasets::kKvMagic), std::end(datasets::kKvMagic), data))
    throw RunError(
        "kv-pairs: the input does not start with \"kv-pairs\" (the header: \"kv-pairs\", u32 key "
        "bytes, u32 value bytes)");
  l.key_bytes = load_word(data + 8);
  l.value_bytes = load_word(data + 12);
  check_field("key", l.key_bytes, 8);
  check_field("value", l.value_bytes, 12);
  const std::size_t body = size - datasets::kKvHeaderBytes;
  l.records = body / l.record_bytes();
  if (const std::size_t cut = body % l.record_bytes(); cut != 0)
    throw RunError(fmt::format(
        "kv-pairs: the input ({} bytes) is not a whole number of {}-byte records after its "
        "header: the last {} bytes, from byte offset {}, are a cut record {}",
        size, l.record_bytes(), cut, size - cut, l.records));
  return l;
}

void assign_key_text(std::string& text, const std::uint8_t* key, std::size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  text.resize(2 * bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    text[2 * i] = kHex[key[i] >> 4];
    text[2 * i + 1] = kHex[key[i] & 15];
  }
}

std::string key_text(const std::uint8_t* key, std::size_t bytes) {
  std::string text;
  assign_key_text(text, key, bytes);
  return text;
}

}  // namespace harness::workloads::kv_pairs
