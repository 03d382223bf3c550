// blocks/radix-sort: the device-wide stable LSD radix sort of (u32 key, u32
// value) pairs on bytes/8 pairs of random 32-bit keys, values their index.
// Rate: keys per second; bytes judged against dram as each of the four passes
// moves them (upsweep reads the keys, scatter reads and writes keys and
// values: 20 bytes a pair a pass). Checked against std::stable_sort.
#include <algorithm>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "frameworks/blocks/benchmarks/benchmarks.h"
#include "frameworks/blocks/radix_sort.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::blocks {
namespace {

constexpr std::uint64_t kPasses = 4;  // 32 key bits, 8 a pass

class RadixSortBench final : public PointRunner {
 public:
  explicit RadixSortBench(const PointContext& ctx)
      : device_(*ctx.device),
        pool_(device_),
        sort_(pool_),
        n_(bench_items(ctx, 8, std::uint64_t{1} << 28, "blocks/radix-sort")) {}

  void prepare() override {
    keys_.resize(n_);
    std::mt19937 rng(7);
    for (auto& k : keys_) k = static_cast<std::uint32_t>(rng());
    order_.resize(n_);
    std::iota(order_.begin(), order_.end(), 0u);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys_[a] < keys_[b]; });
    const std::size_t bytes = std::size_t{n_} * 4;
    d_keys0_ = device_.allocate(bytes);
    d_keys_ = device_.allocate(bytes);
    d_values_ = device_.allocate(bytes);
    device_.queue().write(d_keys0_, 0, keys_.data(), bytes);
    std::vector<std::uint32_t> index(n_);
    std::iota(index.begin(), index.end(), 0u);
    d_values0_ = device_.allocate(bytes);
    device_.queue().write(d_values0_, 0, index.data(), bytes);
    device_.queue().finish();
  }

  void before_repetition() override {  // the sort is in place: unsorted pairs again
    const std::size_t bytes = std::size_t{n_} * 4;
    device_.queue().copy(d_keys_, 0, d_keys0_, 0, bytes);
    device_.queue().copy(d_values_, 0, d_values0_, 0, bytes);
    device_.queue().finish();
  }

  Measurement run_once() override {
    Measurement m;
    auto& q = device_.queue();
    Stopwatch wall;
    q.begin_span("sort");
    sort_.sort_pairs(d_keys_, d_values_, n_, 32);
    q.end_span();
    q.finish();  // the last pass's scatter may still be in flight
    for (const auto& s : q.take_spans()) m.phases.push_back({s.name, s.milliseconds});
    m.total_ms = wall.elapsed_ms();
    return m;
  }

  std::string validate_last() override {
    std::vector<std::uint32_t> keys(n_), values(n_);
    device_.queue().read(keys.data(), d_keys_, 0, std::size_t{n_} * 4);
    device_.queue().read(values.data(), d_values_, 0, std::size_t{n_} * 4);
    device_.queue().finish();
    for (std::uint32_t i = 0; i < n_; ++i) {
      if (values[i] != order_[i] || keys[i] != keys_[order_[i]])
        return "pair " + std::to_string(i) + " is (" + std::to_string(keys[i]) + ", " +
               std::to_string(values[i]) + "), expected (" + std::to_string(keys_[order_[i]]) +
               ", " + std::to_string(order_[i]) + ")";
    }
    return "";
  }

  Work work() const override {
    Work w;
    const std::uint64_t n = n_;
    w.input_bytes = n * 8;
    w.items("keys", n, "sort")
        .reads(level::dram, kPasses * n * 12, "sort")
        .writes(level::dram, kPasses * n * 8, "sort");
    return w;
  }

  void dump_output(std::ostream& out) const override { out << "pairs\t" << n_ << "\n"; }

 private:
  backend::Device& device_;
  BufferPool pool_;
  RadixSort sort_;
  std::uint32_t n_;
  std::vector<std::uint32_t> keys_, order_;
  backend::Buffer d_keys0_, d_values0_, d_keys_, d_values_;
};

}  // namespace

std::unique_ptr<PointRunner> make_radix_sort_bench(const PointContext& ctx) {
  return std::make_unique<RadixSortBench>(ctx);
}

}  // namespace harness::blocks
