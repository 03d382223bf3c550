#include "datasets/kv_pairs.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{4} << 20;
// The parameters' defaults (the registered instance's data).
constexpr std::uint32_t kDefaultFieldBytes = 16, kDefaultDuplicates = 2;

void put_u32(std::uint8_t* at, std::uint32_t word) {
  for (int b = 0; b < 4; ++b) at[b] = static_cast<std::uint8_t>(word >> (8 * b));
}

struct Shape {
  std::uint32_t key_bytes, value_bytes, duplicates;
  std::uint32_t record_bytes() const { return key_bytes + value_bytes; }
};

// Key j's words: its first a bijection of j, the others hashes of (j, word).
class KeySpace {
 public:
  KeySpace(std::uint64_t seed, std::uint64_t keys)
      : keys_(keys),
        salt_(static_cast<std::uint32_t>(mix_seed(seed, 0x6b6579))),
        seed_(mix_seed(seed, 0x776f7264)) {}
  std::uint64_t keys() const { return keys_; }
  std::uint32_t word(std::uint32_t j, std::uint32_t w) const {
    if (w == 0) return (j * 0x9E3779B1u) ^ salt_;
    return static_cast<std::uint32_t>(mix_seed(seed_ ^ (std::uint64_t{j} << 16), w) >> 32);
  }

 private:
  std::uint64_t keys_;
  std::uint32_t salt_;
  std::uint64_t seed_;
};

void make_chunk(const Shape& s, const KeySpace& keys, std::uint64_t seed, std::uint64_t index,
                std::size_t size, std::string& out) {
  Rng rng(mix_seed(seed, index));
  out.resize(size);
  auto* r = reinterpret_cast<std::uint8_t*>(out.data());
  const auto key_space = static_cast<std::uint32_t>(keys.keys());
  for (std::size_t n = size / s.record_bytes(); n > 0; --n) {
    const std::uint32_t j = rng.below(key_space);
    for (std::uint32_t w = 0; w < s.key_bytes / 4; ++w, r += 4) put_u32(r, keys.word(j, w));
    for (std::uint32_t w = 0; w < s.value_bytes / 4; ++w, r += 4)
      put_u32(r, static_cast<std::uint32_t>(rng.next() >> 32));
  }
}

ParamDecl field_param(const char* name, const char* what) {
  return unsigned_param(name, kDefaultFieldBytes, 4, kKvMaxFieldBytes,
                        fmt::format("bytes of a record's {} (a multiple of 4)", what));
}

class KvPairs final : public Generator {
 public:
  explicit KvPairs(Shape shape) : shape_(shape) {}
  std::string name() const override { return "kv-pairs"; }
  std::string description() const override {
    return "key-value pairs: a 16-byte header, then records of key_bytes key bytes and "
           "value_bytes value bytes, keys drawn uniformly from records / duplicates distinct ones";
  }
  int version() const override { return 1; }
  ParamDecls params() const override {
    return {field_param("key_bytes", "key"), field_param("value_bytes", "value"),
            unsigned_param("duplicates", kDefaultDuplicates, 1, std::uint64_t{1} << 20,
                           "records per distinct key on average: keys are drawn from records / "
                           "duplicates candidates")};
  }
  std::unique_ptr<Generator> with_params(const Params& params) const override {
    Shape s{param_u32(params, "key_bytes"), param_u32(params, "value_bytes"),
            param_u32(params, "duplicates")};
    for (const auto& [field, bytes] :
         {std::pair{"key_bytes", s.key_bytes}, std::pair{"value_bytes", s.value_bytes}}) {
      if (bytes % 4 != 0)
        throw UsageError(
            fmt::format("dataset kv-pairs: {} is {}, not a multiple of 4 (keys and "
                        "values are whole 32-bit words)",
                        field, bytes));
    }
    return std::make_unique<KvPairs>(s);
  }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    if (size < kKvHeaderBytes) return 0;
    return kKvHeaderBytes + (size - kKvHeaderBytes) / shape_.record_bytes() * shape_.record_bytes();
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    const std::uint64_t bytes = output_bytes(size);
    if (bytes == 0) return;
    const std::uint64_t records = (bytes - kKvHeaderBytes) / shape_.record_bytes();
    if (records > 0xFFFF'FFFFull)
      throw UsageError(
          fmt::format("dataset kv-pairs: {} bytes make {} records of {} bytes, more than 2^32 - 1",
                      size, records, shape_.record_bytes()));
    std::uint8_t header[kKvHeaderBytes];
    std::copy(std::begin(kKvMagic), std::end(kKvMagic), header);
    put_u32(header + 8, shape_.key_bytes);
    put_u32(header + 12, shape_.value_bytes);
    out.write(reinterpret_cast<const char*>(header), kKvHeaderBytes);
    const KeySpace keys(seed, std::max<std::uint64_t>(1, records / shape_.duplicates));
    const std::uint64_t chunk =
        std::max<std::uint64_t>(1, kChunkBytes / shape_.record_bytes()) * shape_.record_bytes();
    write_chunks("kv-pairs", bytes - kKvHeaderBytes, chunk, 0, out,
                 [&](std::uint64_t index, std::size_t size_of_chunk, std::string& buffer) {
                   make_chunk(shape_, keys, seed, index, size_of_chunk, buffer);
                 });
  }

 private:
  Shape shape_;
};

}  // namespace

const Generator& kv_pairs_generator() {
  static const KvPairs g(Shape{kDefaultFieldBytes, kDefaultFieldBytes, kDefaultDuplicates});
  return g;
}

}  // namespace harness::datasets
