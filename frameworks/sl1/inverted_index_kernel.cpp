// inverted-index (apps/inverted_index.clh): the (page, link) pairs the kernel
// wrote, copied back as they are; the output groups them by link untimed
// (finish), into the workload's table. The pair array starts at a size
// proportional to the input and, when a run found more links than it holds,
// grows and the launch runs again (a run's first time only: the size is
// kept). The page starts are built untimed, as mastercard-indexed's index is.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "frameworks/blocks/pinned_array.h"
#include "frameworks/sl1/app_kernels.h"
#include "frameworks/workloads/inverted_index/html_links.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/errors.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;

constexpr unsigned kLengthBit = 48;  // SL1_II_LENGTH_BIT
constexpr unsigned kPageBits = 40;   // a page's offset in a pair's sort key

// A run's pairs (two u64 each: the page's first byte, the link's offset with
// its length at kLengthBit), viewed where the run left them; finish() groups
// them into the workload's table: per link, its pairs and their pages.
class PairsOutput final : public workloads::Output {
 public:
  PairsOutput(const std::uint64_t* pairs, std::uint64_t count, const std::uint8_t* text)
      : pairs_(pairs), count_(count), text_(text) {}

  // Each pair's link gets a row number (a hash map of the distinct links);
  // the pairs, as (row, page) in one u64, are sorted, so each row's pages
  // come out ascending and contiguous, without a vector per row. (Untimed,
  // but not free: a 128 MiB point's four validations take 1.2-1.5 s on an
  // H100's host, with a vector per row as without.)
  void finish() override {
    if (table_) return;
    std::unordered_map<std::string_view, std::uint64_t> row_of;
    std::vector<std::string_view> links;
    std::vector<std::uint64_t> keys(count_);
    for (std::uint64_t p = 0; p < count_; ++p) {
      const std::uint64_t where = pairs_[2 * p + 1], page = pairs_[2 * p];
      const std::string_view link(
          reinterpret_cast<const char*>(text_) + (where & ((std::uint64_t{1} << kLengthBit) - 1)),
          where >> kLengthBit);
      const auto [it, fresh] = row_of.try_emplace(link, links.size());
      if (fresh) links.push_back(link);
      if (page >> kPageBits)
        throw std::logic_error("inverted-index: a page offset past 2^40 bytes");
      keys[p] = (it->second << kPageBits) | page;
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::int64_t> pages(count_);
    for (std::uint64_t p = 0; p < count_; ++p)
      pages[p] = static_cast<std::int64_t>(keys[p] & ((std::uint64_t{1} << kPageBits) - 1));
    table_.emplace(1, 0, true);
    for (std::uint64_t first = 0; first < count_;) {
      std::uint64_t last = first + 1;
      while (last < count_ && keys[last] >> kPageBits == keys[first] >> kPageBits) ++last;
      const auto n = static_cast<std::int64_t>(last - first);
      table_->add(links[keys[first] >> kPageBits], {&n, 1}, {},
                  std::span<const std::int64_t>(pages.data() + first, last - first));
      first = last;
    }
    table_->finish();
  }
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override {
    return table_->compare_with(expected, policy);
  }
  void dump(std::ostream& out) const override { table_->dump(out); }
  std::uint64_t items() const override { return count_; }

 private:
  const std::uint64_t* pairs_;
  std::uint64_t count_;
  const std::uint8_t* text_;
  std::optional<workloads::TableOutput> table_;
};

class InvertedIndexKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/inverted_index.clh"; }
  std::vector<std::string> structures() const override { return {"pages", "page_starts"}; }
  std::string staging_problem() const override {
    return "inverted-index has no staged kernel: its variable-length lines straddle the fixed "
           "tiles a work-group stages, and an anchor is parsed over a whole line";
  }
  std::string kernel_name(Mode) const override { return "sl1_inverted_index"; }
  void prepare(backend::Device& device, const Params&, const std::uint8_t* input, std::size_t size,
               std::uint64_t) override {
    device_ = &device;
    input_ = input;
    const std::vector<std::uint64_t> starts =
        workloads::inverted_index::page_starts<std::uint64_t>(input, size);
    pages_ = starts.size();
    page_starts_ = padded_copy(device, starts.data(), starts.size() * sizeof(std::uint64_t));
    found_ = device.allocate(sizeof(std::uint32_t));
    resize(std::max<std::uint64_t>(1024, size / 32));
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    for (;;) {
      q.fill_zero(found_, 0, sizeof(std::uint32_t));
      q.launch(k, l.shape, *l.text, *l.cuts, page_starts_, pages_, pairs_, capacity_, found_,
               l.lines, l.monitor, *l.stats, local_memory(l.local_bytes));
      read_now(q, &found_host_, found_, 0, sizeof(found_host_));
      if (found_host_ <= capacity_) return;
      resize(std::uint64_t{found_host_} + found_host_ / 4);
    }
  }
  std::unique_ptr<workloads::Output> read_output(backend::Queue& q, const Launch&) override {
    if (found_host_) read_now(q, host_->data(), pairs_, 0, copied_out());
    return std::make_unique<PairsOutput>(host_->data(), found_host_, input_);
  }
  std::uint64_t copied_out() const override { return std::uint64_t{found_host_} * 16; }

 private:
  void resize(std::uint64_t pairs) {
    if (pairs > 0xFFFFFFFFu)
      throw RunError(fmt::format("inverted-index: {} links, more than the kernel counts", pairs));
    capacity_ = static_cast<std::uint32_t>(pairs);
    pairs_ = device_->allocate(pairs * 16);
    host_.emplace(*device_);
    host_->resize(2 * pairs);
  }

  backend::Device* device_ = nullptr;
  const std::uint8_t* input_ = nullptr;
  backend::Buffer page_starts_, pairs_, found_;
  std::uint64_t pages_ = 0;
  std::uint32_t capacity_ = 0, found_host_ = 0;
  std::optional<blocks::PinnedArray<std::uint64_t>> host_;  // pinned, kept from run to run
};

}  // namespace

std::unique_ptr<AppKernel> make_inverted_index_kernel() {
  return std::make_unique<InvertedIndexKernel>();
}

}  // namespace harness::sl1
