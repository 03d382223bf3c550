#include "datasets/keys_u64.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "datasets/chunked.h"
#include "datasets/random.h"
#include "datasets/zipf_table.h"
#include "harness/core/errors.h"

namespace harness::datasets {
namespace {

constexpr const char* kName = "keys-u64";
constexpr std::uint32_t kDefaultKeys = 100000;

const char* distribution_name(KeyDistribution d) {
  switch (d) {
    case KeyDistribution::distinct:
      return "distinct";
    case KeyDistribution::uniform:
      return "uniform";
    case KeyDistribution::zipf:
      return "zipf";
  }
  return "?";
}

KeyDistribution distribution_of(const std::string& name) {
  for (KeyDistribution d :
       {KeyDistribution::distinct, KeyDistribution::uniform, KeyDistribution::zipf}) {
    if (name == distribution_name(d)) return d;
  }
  throw UsageError(fmt::format("dataset {}: unknown distribution '{}'", kName, name));
}

// UsageError for a shape without candidates to draw from, or a zipf one of
// more candidates than its table may hold.
void check_shape(const KeysU64Shape& s) {
  if (s.distribution == KeyDistribution::distinct) return;
  if (s.keys == 0)
    throw UsageError(fmt::format("dataset {}: no candidate keys to draw from (keys is 0)", kName));
  if (s.distribution == KeyDistribution::zipf && s.keys > kKeysU64MaxZipfKeys)
    throw UsageError(fmt::format("dataset {}: keys is {}, more than zipf's {} candidates", kName,
                                 s.keys, kKeysU64MaxZipfKeys));
}

std::uint64_t salt_of(std::uint64_t seed) { return mix_seed(seed, 0x6b657973); }  // "keys"

void put_u64(std::uint8_t* at, std::uint64_t word) {
  for (int b = 0; b < 8; ++b) at[b] = static_cast<std::uint8_t>(word >> (8 * b));
}

void make_chunk(const KeysU64Shape& s, const ZipfTable& zipf, std::uint64_t seed,
                std::uint64_t chunk_keys, std::uint64_t index, std::size_t size, std::string& out) {
  out.resize(size);
  auto* at = reinterpret_cast<std::uint8_t*>(out.data());
  const std::uint64_t salt = salt_of(seed);
  const std::uint64_t count = size / 8;
  switch (s.distribution) {
    case KeyDistribution::distinct: {
      const std::uint64_t first = index * chunk_keys;
      for (std::uint64_t i = 0; i < count; ++i, at += 8) put_u64(at, fmix64((first + i) ^ salt));
      break;
    }
    case KeyDistribution::uniform: {
      Rng rng(mix_seed(seed, index));
      for (std::uint64_t i = 0; i < count; ++i, at += 8)
        put_u64(at, fmix64(std::uint64_t{rng.below(s.keys)} ^ salt));
      break;
    }
    case KeyDistribution::zipf: {
      Rng rng(mix_seed(seed, index));
      for (std::uint64_t i = 0; i < count; ++i, at += 8)
        put_u64(at, fmix64(std::uint64_t{zipf.sample(rng)} ^ salt));
      break;
    }
  }
}

class KeysU64 final : public Generator {
 public:
  explicit KeysU64(KeysU64Shape shape) : shape_(shape) {}
  std::string name() const override { return kName; }
  std::string description() const override {
    return "64-bit keys for hash tables: a 16-byte header (\"keys-u64\", u64 N), then N u64 "
           "keys, distinct, or drawn uniformly or by Zipf rank from `keys` candidates";
  }
  int version() const override { return 1; }
  ParamDecls params() const override {
    return {choice_param("distribution", "distinct", {"distinct", "uniform", "zipf"},
                         "distinct: every key differs (a seeded bijection of its index); "
                         "uniform: drawn with replacement from `keys` candidates; zipf: drawn "
                         "from `keys` candidates by Zipf rank (exponent 1)"),
            unsigned_param("keys", kDefaultKeys, 1, kKeysU64MaxKeys,
                           "candidate keys of uniform and zipf (ignored by distinct)"),
            real_param("zipf_q", 0, 0, 1e9,
                       "zipf's offset q: rank r is drawn with weight 1 / (r + 1 + q)")};
  }
  std::unique_ptr<Generator> with_params(const Params& params) const override {
    KeysU64Shape s;
    s.distribution = distribution_of(param_string(params, "distribution"));
    s.keys = param_u32(params, "keys");
    s.zipf_q = param_real(params, "zipf_q");
    check_shape(s);
    return std::make_unique<KeysU64>(s);
  }
  std::uint64_t output_bytes(std::uint64_t size) const override {
    if (size < kKeysU64HeaderBytes) return 0;
    return kKeysU64HeaderBytes + (size - kKeysU64HeaderBytes) / 8 * 8;
  }
  void generate(std::uint64_t size, std::uint64_t seed, std::ostream& out) const override {
    generate_keys_u64(shape_, size, seed, out, 0);
  }

 private:
  KeysU64Shape shape_;
};

}  // namespace

std::uint64_t keys_u64_key(std::uint64_t seed, std::uint64_t i) {
  return fmix64(i ^ salt_of(seed));
}

void generate_keys_u64(const KeysU64Shape& shape, std::uint64_t size, std::uint64_t seed,
                       std::ostream& out, unsigned threads, std::uint64_t chunk_keys) {
  check_shape(shape);
  if (size < kKeysU64HeaderBytes) return;
  const std::uint64_t keys = (size - kKeysU64HeaderBytes) / 8;
  if (keys > kKeysU64MaxKeys)
    throw UsageError(
        fmt::format("dataset {}: {} bytes make {} keys, more than 2^32 - 1", kName, size, keys));
  std::uint8_t header[kKeysU64HeaderBytes];
  std::copy(std::begin(kKeysU64Magic), std::end(kKeysU64Magic), header);
  put_u64(header + 8, keys);
  out.write(reinterpret_cast<const char*>(header), kKeysU64HeaderBytes);
  const ZipfTable zipf = shape.distribution == KeyDistribution::zipf
                             ? ZipfTable(shape.keys, shape.zipf_q)
                             : ZipfTable();
  write_chunks(kName, keys * 8, chunk_keys * 8, threads, out,
               [&](std::uint64_t index, std::size_t chunk_size, std::string& buffer) {
                 make_chunk(shape, zipf, seed, chunk_keys, index, chunk_size, buffer);
               });
}

const Generator& keys_u64_generator() {
  static const KeysU64 g(KeysU64Shape{});
  return g;
}

}  // namespace harness::datasets
