// Matrix multiplication, host side: the input's two matrices (.npy), one task
// per output cell, the side data (shape and where the matrices start), the
// CPU reference (double accumulation, row by row on all host cores).
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/workloads/matrix_multiply/matrix_operands.h"
#include "harness/core/errors.h"

namespace harness::apps {

const DialectFacts& matrixmult_dialect_facts();  // matrixmult_facts.cpp

namespace {

using workloads::matrix_multiply::MatrixOperands;

MatrixOperands operands(const std::uint8_t* data, std::size_t size) {
  return workloads::matrix_multiply::matrix_operands(data, size, "matrixmult input");
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
    const MatrixOperands o = operands(data, size);
    const std::uint64_t cells = o.n * o.m;
    std::vector<std::uint32_t> codes = reserve_task_records(name(), cells, cells);
    for (std::uint64_t c = 0; c <= cells; ++c) codes.push_back(static_cast<std::uint32_t>(c));
    return codes;
  }

  std::vector<std::uint8_t> side_data(const Params&, const std::uint8_t* data,
                                      std::size_t size) const override {
    const MatrixOperands o = operands(data, size);
    const std::uint32_t words[5] = {
        static_cast<std::uint32_t>(o.n), static_cast<std::uint32_t>(o.k),
        static_cast<std::uint32_t>(o.m), static_cast<std::uint32_t>(o.a),
        static_cast<std::uint32_t>(o.b)};
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words);
    return {bytes, bytes + sizeof(words)};
  }

  // A as a k-wide, n-high image; B as an m-wide, k-high one (app_map_image).
  std::vector<ImageInput> image_inputs(const std::uint8_t* data, std::size_t size) const override {
    const MatrixOperands o = operands(data, size);
    if (o.n == 0) return {};
    const auto* floats = reinterpret_cast<const float*>(data);
    return {{o.k, o.n, floats + o.a}, {o.m, o.k, floats + o.b}};
  }

  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    const MatrixOperands o = operands(data, size);
    KeyValueList out(o.n * o.m);
    parallel_blocks(o.n, [&](std::size_t begin, std::size_t end) {
      workloads::matrix_multiply::product_rows_f64(
          o, data, begin, end, [&](std::uint64_t i, const std::vector<double>& row) {
            for (std::size_t j = 0; j < o.m; ++j) {
              auto& [key, value] = out[i * o.m + j];
              append_be32(key, static_cast<std::uint32_t>(i));
              append_be32(key, static_cast<std::uint32_t>(j));
              value = raw_bytes(static_cast<float>(row[j]));
            }
          });
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
