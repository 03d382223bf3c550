// Similarity score, host side: the documents' feature vectors (.npy), one task
// per document pair, the side data (shape and where the vectors start), the
// CPU reference (double dot products on all host cores).
#include <cmath>

#include "datasets/npy.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {

const DialectFacts& similarity_dialect_facts();  // similarity_facts.cpp

namespace {

struct Vectors {
  std::uint64_t docs = 0, features = 0, start = 0;  // start: in floats
};

Vectors vectors(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return {};
  const auto arrays = datasets::parse_npy_arrays(data, size, "similarity input");
  if (arrays.size() != 1 || arrays[0].shape.size() != 2) {
    throw UsageError(
        "similarity input: expected one float32 .npy array of shape (documents, features)");
  }
  return {arrays[0].shape[0], arrays[0].shape[1], arrays[0].data_offset / 4};
}

struct Pair {
  std::uint32_t first, second;
};

class Similarity final : public MapReduceApp {
 public:
  std::string name() const override { return "similarity"; }
  std::string description() const override {
    return "cosine similarity of every pair of documents (float32 .npy feature vectors); "
           "map-only, emits (score, (i, j))";
  }
  std::string default_dataset() const override { return "features-f32"; }
  const DialectFacts* dialect() const override { return &similarity_dialect_facts(); }
  ValidationPolicy validation() const override { return {"tolerance", 1e-4, 1e-6}; }

  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    const Vectors v = vectors(data, size);
    const std::uint64_t pairs = v.docs < 2 ? 0 : v.docs * (v.docs - 1) / 2;
    std::vector<std::uint32_t> codes = reserve_task_records(name(), pairs, v.docs * v.docs);
    for (std::uint64_t i = 0; i < v.docs; ++i) {
      for (std::uint64_t j = i + 1; j < v.docs; ++j) {
        codes.push_back(static_cast<std::uint32_t>(i * v.docs + j));
      }
    }
    codes.push_back(static_cast<std::uint32_t>(v.docs * v.docs));
    return codes;
  }

  std::vector<std::uint8_t> side_data(const Params&, const std::uint8_t* data,
                                      std::size_t size) const override {
    const Vectors v = vectors(data, size);
    const std::uint32_t words[3] = {static_cast<std::uint32_t>(v.docs),
                                    static_cast<std::uint32_t>(v.features),
                                    static_cast<std::uint32_t>(v.start)};
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words);
    return {bytes, bytes + sizeof(words)};
  }

  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    const Vectors v = vectors(data, size);
    const auto* x = reinterpret_cast<const float*>(data) + v.start;
    std::vector<double> norm(v.docs);
    for (std::size_t i = 0; i < v.docs; ++i) {
      double s = 0;
      for (std::size_t f = 0; f < v.features; ++f)
        s += double{x[i * v.features + f]} * x[i * v.features + f];
      norm[i] = std::sqrt(s);
    }
    const std::size_t pairs = v.docs < 2 ? 0 : v.docs * (v.docs - 1) / 2;
    KeyValueList out(pairs);
    // Row i's pairs start at i * docs - i * (i + 1) / 2.
    parallel_blocks(v.docs, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        std::size_t at = i * v.docs - i * (i + 1) / 2;
        for (std::size_t j = i + 1; j < v.docs; ++j, ++at) {
          double dot = 0;
          for (std::size_t f = 0; f < v.features; ++f) {
            dot += double{x[i * v.features + f]} * x[j * v.features + f];
          }
          const double score = norm[i] > 0 && norm[j] > 0 ? dot / (norm[i] * norm[j]) : 0.0;
          auto& [key, value] = out[at];
          append_be32(key, ordered_bits(static_cast<float>(score)));
          value = raw_bytes(Pair{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
        }
      }
    });
    return out;
  }

  std::string format_key(std::string_view raw) const override {
    return format_f32(from_ordered_bits(read_be32(raw)));
  }
  std::string format_value(std::string_view raw) const override {
    const auto p = from_raw<Pair>(raw);
    return fmt::format("{}\t{}", p.first, p.second);
  }
  bool value_less(std::string_view a, std::string_view b) const override {
    const auto x = from_raw<Pair>(a), y = from_raw<Pair>(b);
    return x.first != y.first ? x.first < y.first : x.second < y.second;
  }
  std::optional<std::uint64_t> value_rank(std::string_view raw) const override {
    const auto p = from_raw<Pair>(raw);
    return (std::uint64_t{p.first} << 32) | p.second;
  }
  // The pair is the identity; its score may differ in the last bits.
  std::string tolerant_view(std::string_view key, std::string_view value,
                            std::vector<double>& numbers) const override {
    numbers.push_back(from_ordered_bits(read_be32(key)));
    return std::string(value);
  }
};

}  // namespace

const MapReduceApp& similarity_app() {
  static const Similarity app;
  return app;
}

}  // namespace harness::apps
