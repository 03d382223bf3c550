// blocks/pipeline: the copy/compute pipeline streaming a pinned host array to
// the device with a trivial compute stage (each piece copied from its lane's
// buffer to its place in a device array: about 2% of the link's time at
// device-to-device speed). Judged against h2d_pinned; checked by reading the
// device array back and comparing it with the host's bytes.
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "frameworks/blocks/benchmarks/benchmarks.h"
#include "frameworks/blocks/pipeline.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::blocks {
namespace {

class PipelineBench final : public PointRunner {
 public:
  explicit PipelineBench(const PointContext& ctx)
      : device_(*ctx.device),
        pool_(device_),
        pipeline_(device_, pool_, "bench"),
        bytes_(bench_bytes(ctx)),
        chunk_(param_size(ctx.params, "chunk")),
        lanes_(param_u32(ctx.params, "lanes")) {}

  void prepare() override {
    host_ = device_.allocate_host(bytes_, backend::HostMemory::pinned);
    auto* words = static_cast<std::uint32_t*>(host_.data());
    std::mt19937 rng(3);
    for (std::uint64_t i = 0; i < bytes_ / 4; ++i) words[i] = static_cast<std::uint32_t>(rng());
    std::memset(static_cast<std::uint8_t*>(host_.data()) + bytes_ / 4 * 4, 0x5a, bytes_ % 4);
    out_ = device_.allocate(bytes_);
    pieces_ = CopyComputePipeline::cut(bytes_, chunk_);
    pipeline_.set_lanes(lanes_);
  }

  void before_repetition() override {  // poison: a piece that never arrives shows
    device_.queue().fill_zero(out_, 0, bytes_);
    device_.queue().finish();
  }

  Measurement run_once() override {
    Measurement m;
    Stopwatch wall;
    const auto busy = pipeline_.run(
        static_cast<const std::uint8_t*>(host_.data()), pieces_,
        [&](backend::Queue& q, backend::Buffer& piece, std::size_t i) {
          q.copy(out_, pieces_[i].offset, piece, 0, pieces_[i].bytes);
        },
        "deliver");
    m.total_ms = wall.elapsed_ms();
    m.counters["copy_in_busy_ms"] = busy.copy_ms;
    m.counters["deliver_busy_ms"] = busy.compute_ms;
    m.counters["pieces"] = static_cast<double>(pieces_.size());
    m.counters["host_pinned"] = host_.kind() == backend::HostMemory::pinned ? 1 : 0;
    return m;
  }

  std::string validate_last() override {
    std::vector<std::uint8_t> back(bytes_);
    device_.queue().read(back.data(), out_, 0, bytes_);
    device_.queue().finish();
    if (std::memcmp(back.data(), host_.data(), bytes_) == 0) return "";
    const auto* want = static_cast<const std::uint8_t*>(host_.data());
    std::uint64_t i = 0;
    while (back[i] == want[i]) ++i;
    return "byte " + std::to_string(i) + " on the device differs from the host's";
  }

  Work work() const override {
    Work w;
    w.input_bytes = bytes_;
    w.reads(level::h2d, bytes_).items("pieces", pieces_.size());
    return w;
  }

  void dump_output(std::ostream& out) const override {
    out << "bytes\t" << bytes_ << "\npieces\t" << pieces_.size() << "\n";
  }

 private:
  backend::Device& device_;
  BufferPool pool_;
  CopyComputePipeline pipeline_;
  std::uint64_t bytes_, chunk_;
  std::uint32_t lanes_;
  backend::HostBuffer host_;
  backend::Buffer out_;
  std::vector<CopyComputePipeline::Piece> pieces_;
};

}  // namespace

std::unique_ptr<PointRunner> make_pipeline_bench(const PointContext& ctx) {
  return std::make_unique<PipelineBench>(ctx);
}

}  // namespace harness::blocks
