// page-view-count (apps/page_view_count.clh): the URLs counted in a table
// keyed by their bytes in the log (text_table.h), read back as the
// workload's table of (URL, page views). The table starts at a slot per 64
// lines and, when a run claimed more than half of it, grows and the launch
// runs again (a run's first time only: the size is kept).
#include <algorithm>
#include <bit>

#include "frameworks/sl1/app_kernels.h"
#include "frameworks/sl1/text_table.h"
#include "frameworks/workloads/outputs.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;

class PageViewCountKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/page_view_count.clh"; }
  std::vector<std::string> structures() const override { return {"log", "urls"}; }
  std::string staging_problem() const override {
    return "page-view-count has no staged kernel: its variable-length lines straddle the fixed "
           "tiles a work-group stages";
  }
  std::string kernel_name(Mode) const override { return "sl1_page_view_count"; }
  // A slot per 64 lines, at least 4096: a 128 MiB weblog (2.3 M lines, 20,000
  // URLs) then fits at once, where 4096 slots grew twice on the first run,
  // each of those launches probing a full table (43-152 ms under Nsight
  // Compute on an H100).
  void prepare(backend::Device& device, const Params&, const std::uint8_t* input, std::size_t size,
               std::uint64_t) override {
    input_ = input;
    urls_.allocate(device, std::bit_ceil(std::max(kFirstSlots, count_lines(input, size) / 64)));
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    do {
      urls_.clear(q);
      q.launch(k, l.shape, *l.text, *l.cuts, urls_.slots(), urls_.count(), urls_.claimed(), l.lines,
               l.monitor, *l.stats, local_memory(l.local_bytes));
    } while (urls_.grow_if_over_half(q));
  }
  std::unique_ptr<workloads::Output> read_output(backend::Queue& q, const Launch&) override {
    auto table = std::make_unique<workloads::TableOutput>(1, 0, false);
    urls_.read(q, input_, [&](std::string_view url, std::uint64_t value) {
      const std::int64_t views = static_cast<std::int64_t>(value & 0xFFFFFFFFu);
      table->add(url, {&views, 1});
    });
    return table;
  }
  std::uint64_t copied_out() const override { return urls_.bytes(); }

 private:
  static constexpr std::uint64_t kFirstSlots = 4096;
  const std::uint8_t* input_ = nullptr;
  TextTable urls_;
};

}  // namespace

std::unique_ptr<AppKernel> make_page_view_count_kernel() {
  return std::make_unique<PageViewCountKernel>();
}

}  // namespace harness::sl1
