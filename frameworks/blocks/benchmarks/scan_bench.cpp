// blocks/scan: the device-wide exclusive prefix sum of u32, in place, on
// bytes/4 values of 0 or 1 (so the total fits 32 bits at any size). Judged
// against dram as the scan moves the data: two passes, each reading and
// writing every value (tiles scanned in local memory, then their offsets
// added; the tile sums' own levels add 1/1024 more, not counted); checked
// against std::exclusive_scan.
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "frameworks/blocks/benchmarks/benchmarks.h"
#include "frameworks/blocks/scan.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::blocks {
namespace {

class ScanBench final : public PointRunner {
 public:
  explicit ScanBench(const PointContext& ctx)
      : device_(*ctx.device),
        pool_(device_),
        scan_(pool_),
        n_(bench_items(ctx, 4, UINT32_MAX, "blocks/scan")) {}

  void prepare() override {
    input_.resize(n_);
    std::mt19937 rng(5);
    for (auto& v : input_) v = rng() & 1u;
    expected_.resize(n_);
    std::exclusive_scan(input_.begin(), input_.end(), expected_.begin(), std::uint32_t{0});
    total_expected_ = n_ ? expected_.back() + input_.back() : 0;
    pristine_ = device_.allocate(std::size_t{n_} * 4);
    data_ = device_.allocate(std::size_t{n_} * 4);
    device_.queue().write(pristine_, 0, input_.data(), std::size_t{n_} * 4);
    device_.queue().finish();
  }

  void before_repetition() override {  // the scan is in place: start from the input again
    device_.queue().copy(data_, 0, pristine_, 0, std::size_t{n_} * 4);
    device_.queue().finish();
  }

  Measurement run_once() override {
    Measurement m;
    auto& q = device_.queue();
    Stopwatch wall;
    q.begin_span("scan");
    total_ = scan_.exclusive(data_, n_);  // reads the total back, then adds the tile offsets
    q.end_span();
    q.finish();  // the last pass is still in flight when exclusive() returns
    m.total_ms = wall.elapsed_ms();
    for (const auto& s : q.take_spans()) m.phases.push_back({s.name, s.milliseconds});
    return m;
  }

  std::string validate_last() override {
    if (total_ != total_expected_)
      return "total " + std::to_string(total_) + ", expected " + std::to_string(total_expected_);
    std::vector<std::uint32_t> got(n_);
    device_.queue().read(got.data(), data_, 0, std::size_t{n_} * 4);
    device_.queue().finish();
    for (std::uint32_t i = 0; i < n_; ++i) {
      if (got[i] != expected_[i])
        return "element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
               std::to_string(expected_[i]);
    }
    return "";
  }

  Work work() const override {
    Work w;
    w.input_bytes = std::uint64_t{n_} * 4;
    w.reads(level::dram, std::uint64_t{n_} * 8, "scan")
        .writes(level::dram, std::uint64_t{n_} * 8, "scan")
        .items("elements", n_, "scan");
    return w;
  }

  void dump_output(std::ostream& out) const override {
    out << "elements\t" << n_ << "\ntotal\t" << total_ << "\n";
  }

 private:
  backend::Device& device_;
  BufferPool pool_;
  Scan scan_;
  std::uint32_t n_;
  std::vector<std::uint32_t> input_, expected_;
  std::uint64_t total_expected_ = 0, total_ = 0;
  backend::Buffer pristine_, data_;
};

}  // namespace

std::unique_ptr<PointRunner> make_scan_bench(const PointContext& ctx) {
  return std::make_unique<ScanBench>(ctx);
}

}  // namespace harness::blocks
