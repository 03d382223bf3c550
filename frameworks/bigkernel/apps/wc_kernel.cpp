// wc's AppKernel: variable-length records, pieces of whole lines cut by the
// workloads' line cuts (records.h); one tally a work-group copied back and
// added on the host (apps/wc.clh).
#include <limits>
#include <string>
#include <vector>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/bigkernel/apps/group_tallies.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {
namespace {

constexpr std::uint32_t kTallyWords = 2;  // BK_WC_TALLY: lines, words

class WcKernel final : public AppKernel {
 public:
  std::string app() const override { return "wc"; }
  std::size_t record_bytes() const override { return 0; }
  // Every byte of the longest piece, a byte a read.
  std::uint32_t max_reads() const override { return longest_piece(records()); }
  std::uint32_t max_value_bytes() const override { return longest_piece(records()); }
  std::uint64_t fixed_bytes(const Params&) const override { return pool_bytes(8); }
  std::string fixed_text() const override { return "an 8 B placeholder"; }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return tallies_.side_bytes(records);
  }
  std::string side_text() const override { return "tallies of 8 B a work-group"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    tallies_.begin_run(chunks, per_chunk);
  }
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    launch_mapped(q, kernel(Mode::addrgen), backend::LaunchShape::cover(c.count, kGroupSize),
                  mapped, unused(), 0u, unused(), static_cast<std::uint32_t>(c.count), unused());
  }
  void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
               std::size_t index, const Chunk& c) override {
    backend::Buffer& tallies = tallies_.device_buffer(*pool_, lane, c);
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), mapped,
                  unused(), 0u, unused(), static_cast<std::uint32_t>(c.count), tallies);
    q.end_span();
    tallies_.copy_back(q, tallies, index, c);
  }
  bool persistent_args(const PersistentShape&, PersistentAppArgs& args, std::int64_t*&) override {
    args.pointers[0] = tallies_.persistent_region();
    return true;
  }
  std::unique_ptr<workloads::Output> finish_run() override {
    std::int64_t lines = 0, words = 0;
    tallies_.for_each([&](const Chunk&, const std::uint32_t* tally) {
      lines += tally[0];
      words += tally[1];
    });
    return std::make_unique<workloads::CountsOutput>(workloads::CountsOutput(
        {{"lines", lines}, {"words", words}, {"bytes", static_cast<std::int64_t>(size_)}}));
  }
  std::uint64_t copied_out() const override { return tallies_.copied_out(); }
  std::string copy_out_ceiling() const override { return tallies_.copy_out_ceiling(); }

 protected:
  RecordTable make_records(backend::Device& device, const Params& params, const std::uint8_t* input,
                           std::size_t size) override {
    return RecordTable::variable(device,
                                 line_piece_starts(input, size, param_size(params, "piece")), 1);
  }
  void prepare_app(const Params&, const std::uint8_t*, std::size_t size) override {
    size_ = size;
    tallies_.prepare(*device_);
  }
  std::string source_file() const override { return "frameworks/bigkernel/apps/wc.clh"; }
  std::string kernel_name() const override { return "bk_wc"; }

 private:
  GroupTallies tallies_{kTallyWords};
  std::uint64_t size_ = 0;
};

}  // namespace

std::uint32_t longest_piece(const RecordTable& records) {
  const std::uint64_t longest = records.max_bytes(1);
  if (longest > std::numeric_limits<std::uint32_t>::max() / 8) {
    throw RunError("bigkernel: a record of " + std::to_string(longest) +
                   " B, more reads than a thread's address list holds");
  }
  return static_cast<std::uint32_t>(longest);
}

std::unique_ptr<AppKernel> make_wc_kernel() { return std::make_unique<WcKernel>(); }

}  // namespace harness::bigkernel
