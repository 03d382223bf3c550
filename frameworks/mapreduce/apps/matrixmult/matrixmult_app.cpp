// Matrix multiplication, host side: the input's two matrices (.npy), one task
// per output cell, the side data (shape and where the matrices start), the
// CPU reference (double accumulation, row by row on all host cores).
#include "datasets/npy.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {

const DialectFacts& matrixmult_dialect_facts();  // matrixmult_facts.cpp

namespace {

// A (n x k) and B (k x m), in floats from the start of the input.
struct Operands {
  std::uint64_t n = 0, k = 0, m = 0, a = 0, b = 0;
};

Operands operands(const std::uint8_t* data, std::size_t size) {
  const std::string what = "matrixmult input";
  if (size == 0) return {};  // empty input: no cells
  const auto arrays = datasets::parse_npy_arrays(data, size, what);
  Operands o;
  if (arrays.size() == 1 && arrays[0].shape.size() == 3 && arrays[0].shape[0] == 2 &&
      arrays[0].shape[1] == arrays[0].shape[2]) {
    o.n = o.k = o.m = arrays[0].shape[1];
    o.a = arrays[0].data_offset / 4;
    o.b = o.a + o.n * o.n;
  } else if (arrays.size() == 2 && arrays[0].shape.size() == 2 && arrays[1].shape.size() == 2 &&
             arrays[0].shape[1] == arrays[1].shape[0]) {
    o.n = arrays[0].shape[0];
    o.k = arrays[0].shape[1];
    o.m = arrays[1].shape[1];
    o.a = arrays[0].data_offset / 4;
    o.b = arrays[1].data_offset / 4;
  } else {
    throw UsageError(what +
                     ": expected two float32 .npy arrays A (n x k) then B (k x m) in one file "
                     "(numpy.save twice on one open file), or one array of shape (2, n, n)");
  }
  return o;
}

class MatrixMult final : public MapReduceApp {
 public:
  std::string name() const override { return "matrixmult"; }
  std::string description() const override {
    return "C = A B for two float32 .npy matrices; map-only, one task per cell, emits "
           "((row, column), value)";
  }
  std::string default_dataset() const override { return "matrix-f32"; }
  const DialectFacts* dialect() const override { return &matrixmult_dialect_facts(); }
  // float32 dot products of uniform [0, 1) entries, summed in another order
  // than the double reference: relative error about sqrt(k) 2^-24.
  ValidationPolicy validation() const override { return {"tolerance", 1e-4, 1e-5}; }

  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    const Operands o = operands(data, size);
    const std::uint64_t cells = o.n * o.m;
    std::vector<std::uint32_t> codes = reserve_task_records(name(), cells, cells);
    for (std::uint64_t c = 0; c <= cells; ++c) codes.push_back(static_cast<std::uint32_t>(c));
    return codes;
  }

  std::vector<std::uint8_t> side_data(const Params&, const std::uint8_t* data,
                                      std::size_t size) const override {
    const Operands o = operands(data, size);
    const std::uint32_t words[5] = {
        static_cast<std::uint32_t>(o.n), static_cast<std::uint32_t>(o.k),
        static_cast<std::uint32_t>(o.m), static_cast<std::uint32_t>(o.a),
        static_cast<std::uint32_t>(o.b)};
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words);
    return {bytes, bytes + sizeof(words)};
  }

  // A as a k-wide, n-high image; B as an m-wide, k-high one (app_map_image).
  std::vector<ImageInput> image_inputs(const std::uint8_t* data, std::size_t size) const override {
    const Operands o = operands(data, size);
    if (o.n == 0) return {};
    const auto* floats = reinterpret_cast<const float*>(data);
    return {{o.k, o.n, floats + o.a}, {o.m, o.k, floats + o.b}};
  }

  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    const Operands o = operands(data, size);
    const auto* f = reinterpret_cast<const float*>(data);  // offsets are 4-byte aligned
    KeyValueList out(o.n * o.m);
    parallel_blocks(o.n, [&](std::size_t begin, std::size_t end) {
      std::vector<double> row(o.m);
      for (std::size_t i = begin; i < end; ++i) {
        std::fill(row.begin(), row.end(), 0.0);
        for (std::size_t x = 0; x < o.k; ++x) {
          const double a = f[o.a + i * o.k + x];
          const float* b = f + o.b + x * o.m;
          for (std::size_t j = 0; j < o.m; ++j) row[j] += a * b[j];
        }
        for (std::size_t j = 0; j < o.m; ++j) {
          auto& [key, value] = out[i * o.m + j];
          append_be32(key, static_cast<std::uint32_t>(i));
          append_be32(key, static_cast<std::uint32_t>(j));
          value = raw_bytes(static_cast<float>(row[j]));
        }
      }
    });
    return out;
  }

  std::string format_key(std::string_view raw) const override {
    return fmt::format("{}\t{}", read_be32(raw, 0), read_be32(raw, 4));
  }
  std::string format_value(std::string_view raw) const override {
    return format_f32(from_raw<float>(raw));
  }
  std::string tolerant_view(std::string_view key, std::string_view value,
                            std::vector<double>& numbers) const override {
    numbers.push_back(from_raw<float>(value));
    return std::string(key);
  }
};

}  // namespace

const MapReduceApp& matrixmult_app() {
  static const MatrixMult app;
  return app;
}

}  // namespace harness::apps
