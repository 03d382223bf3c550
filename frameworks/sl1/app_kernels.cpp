#include "frameworks/sl1/app_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "frameworks/workloads/grep/grep_pattern.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/errors.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;
using workloads::Output;

constexpr std::uint32_t kGrepMaxAtoms = 32;  // SL1_GREP_MAX_ATOMS

// Upper: the text rewritten in place, read back whole.
class UpperKernel final : public AppKernel {
 public:
  std::vector<std::string> structures() const override { return {"text"}; }
  std::string kernel_name(bool staged) const override {
    return staged ? "sl1_upper_staged" : "sl1_upper";
  }
  void prepare(backend::Device&, const Params&, const std::uint8_t*, std::size_t,
               std::uint64_t) override {}
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    if (l.staged) {
      q.launch(k, l.shape, *l.text, l.size, l.part, local_memory(l.local_bytes));
    } else {
      q.launch(k, l.shape, *l.text, *l.cuts, l.lines, l.monitor, *l.stats,
               local_memory(l.local_bytes));
    }
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch& l) override {
    auto out = std::make_unique<workloads::BytesOutput>(l.size);
    if (l.size) q.read(out->data(), *l.text, 0, l.size);
    copied_ = l.size;
    return out;
  }
  std::uint64_t copied_out() const override { return copied_; }

 private:
  std::uint64_t copied_ = 0;
};

// wc: each work-item's newlines and word starts, summed on the host.
class WcKernel final : public AppKernel {
 public:
  std::vector<std::string> structures() const override { return {"text"}; }
  std::string kernel_name(bool staged) const override {
    return staged ? "sl1_wc_staged" : "sl1_wc";
  }
  void prepare(backend::Device& device, const Params&, const std::uint8_t*, std::size_t,
               std::uint64_t threads) override {
    threads_ = threads;
    counts_ = device.allocate(threads * 2 * sizeof(std::uint32_t));
    host_.resize(threads * 2);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    if (l.staged) {
      q.launch(k, l.shape, *l.text, l.size, l.part, counts_, local_memory(l.local_bytes));
    } else {
      q.launch(k, l.shape, *l.text, *l.cuts, counts_, l.lines, l.monitor, *l.stats,
               local_memory(l.local_bytes));
    }
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch& l) override {
    q.read(host_.data(), counts_, 0, host_.size() * sizeof(std::uint32_t));
    std::int64_t lines = 0, words = 0;
    for (std::uint64_t t = 0; t < threads_; ++t) {
      lines += host_[2 * t];
      words += host_[2 * t + 1];
    }
    return std::make_unique<workloads::CountsOutput>(workloads::CountsOutput(
        {{"lines", lines}, {"words", words}, {"bytes", static_cast<std::int64_t>(l.size)}}));
  }
  std::uint64_t copied_out() const override { return host_.size() * sizeof(std::uint32_t); }

 private:
  std::uint64_t threads_ = 0;
  backend::Buffer counts_;
  std::vector<std::uint32_t> host_;
};

// Grep: the matching lines' offsets, one slot per line of the input at most.
class GrepKernel final : public AppKernel {
 public:
  std::vector<std::string> structures() const override { return {"text", "pattern"}; }
  std::string staging_problem() const override {
    return "grep has no staged kernel: its lines straddle the fixed tiles a work-group stages, "
           "and the matcher backtracks over a whole line";
  }
  std::string kernel_name(bool) const override { return "sl1_grep"; }
  void prepare(backend::Device& device, const Params& params, const std::uint8_t* input,
               std::size_t size, std::uint64_t) override {
    const workloads::grep::Pattern p =
        workloads::grep::parse_pattern(param_string(params, "pattern"));
    if (p.atoms.size() > kGrepMaxAtoms)
      throw UsageError(fmt::format("sl1 grep: the pattern has {} atoms, at most {}", p.atoms.size(),
                                   kGrepMaxAtoms));
    atoms_ = static_cast<std::uint32_t>(p.atoms.size());
    anchors_ = (p.anchored_start ? 1u : 0u) | (p.anchored_end ? 2u : 0u);
    std::vector<std::uint8_t> encoded(std::max<std::size_t>(2 * p.atoms.size(), 8), 0);
    for (std::size_t a = 0; a < p.atoms.size(); ++a) {
      encoded[2 * a] = p.atoms[a].byte;
      encoded[2 * a + 1] =
          static_cast<std::uint8_t>((p.atoms[a].any ? 1 : 0) | (p.atoms[a].star ? 2 : 0));
    }
    // Padded to a whole S-L1 line of the largest size.
    encoded.resize((encoded.size() + 47) / 48 * 48, 0);
    pattern_ = device.allocate(encoded.size());
    device.queue().write(pattern_, 0, encoded.data(), encoded.size());
    std::uint64_t lines = static_cast<std::uint64_t>(std::count(input, input + size, '\n'));
    if (size && input[size - 1] != '\n') ++lines;
    offsets_ = device.allocate(std::max<std::uint64_t>(lines, 1) * sizeof(std::uint64_t));
    found_ = device.allocate(sizeof(std::uint32_t));
    device.queue().finish();
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    q.fill_zero(found_, 0, sizeof(std::uint32_t));
    q.launch(k, l.shape, *l.text, *l.cuts, pattern_, atoms_, anchors_, found_, offsets_, l.lines,
             l.monitor, *l.stats, local_memory(l.local_bytes));
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch&) override {
    std::uint32_t found = 0;
    q.read(&found, found_, 0, sizeof(found));
    auto out = std::make_unique<workloads::OffsetsOutput>();
    out->offsets().resize(found);
    if (found) q.read(out->offsets().data(), offsets_, 0, found * sizeof(std::uint64_t));
    copied_ = sizeof(found) + found * sizeof(std::uint64_t);
    return out;  // finish() sorts: the work-items' matches arrive in any order
  }
  std::uint64_t copied_out() const override { return copied_; }

 private:
  std::uint32_t atoms_ = 0, anchors_ = 0;
  backend::Buffer pattern_, offsets_, found_;
  std::uint64_t copied_ = 0;
};

}  // namespace

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app) {
  if (app == "upper") return std::make_unique<UpperKernel>();
  if (app == "wc") return std::make_unique<WcKernel>();
  if (app == "grep") return std::make_unique<GrepKernel>();
  throw UsageError("sl1 runs upper, wc and grep, not " + app);
}

const std::vector<std::string>& app_names() {
  static const std::vector<std::string> names = {"upper", "wc", "grep"};
  return names;
}

}  // namespace harness::sl1
