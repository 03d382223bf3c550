// The host side of the S-L1 apps that aggregate into hash tables in global
// memory with atomics (kernels/sl1_tables.clh): dna-assembly's part table
// and mastercard's customer set, merchant table (text_table.h) and
// (customer, merchant) pairs. The tables are never cacheable structures (thesis 5.2.4).
#include <algorithm>
#include <bit>
#include <optional>
#include <span>
#include <string_view>

#include "frameworks/blocks/pinned_array.h"
#include "frameworks/sl1/app_kernels.h"
#include "frameworks/sl1/text_table.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_part_table.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"
#include "frameworks/workloads/mastercard/mastercard_answer.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/mastercard/mastercard_index.h"
#include "harness/core/cuts.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;
using workloads::Output;
namespace dna = workloads::dna;
namespace mc = workloads::mastercard;

// dna-assembly (apps/dna_assembly.clh): one table of the workload's PartSlot
// (count 0: empty), read back whole and decoded untimed by the CPU-MT
// baseline's output, as the thesis copies the table back at the end.
class DnaKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/dna_assembly.clh"; }
  std::vector<std::string> structures() const override { return {"fragments"}; }
  std::string staging_problem() const override {
    return "dna-assembly has no staged kernel: the staged kernels scan a text byte by byte, "
           "dna-assembly reads 36 bytes of each 100-byte record";
  }
  std::string kernel_name(Mode) const override { return "sl1_dna_assembly"; }
  std::vector<std::uint64_t> cuts(const std::uint8_t*, std::size_t size,
                                  unsigned parts) const override {
    return record_cuts(size, dna::kRecordBytes, parts);
  }
  void prepare(backend::Device& device, const Params&, const std::uint8_t*, std::size_t size,
               std::uint64_t) override {
    const std::uint64_t records = size / dna::kRecordBytes;
    // At most two thirds full (PartTable's load), and the extra slot of the
    // all-A part, whose key is the empty one.
    slots_ = records + records / 2 + 16;
    table_ = device.allocate(bytes());
    host_.emplace(device);
    host_->resize(slots_ + 1);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    q.fill_zero(table_, 0, bytes());
    q.launch(k, l.shape, *l.text, *l.cuts, table_, slots_, l.lines, l.monitor, *l.stats,
             local_memory(l.local_bytes));
  }
  // Into pinned memory kept from run to run, viewed by the output (checked
  // before the next run overwrites it).
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch&) override {
    read_now(q, host_->data(), table_, 0, bytes());
    return std::make_unique<dna::PackedPartsOutput>(
        std::span<const dna::PartSlot>(host_->data(), slots_ + 1));
  }
  std::uint64_t copied_out() const override { return bytes(); }

 private:
  std::uint64_t bytes() const { return (slots_ + 1) * sizeof(dna::PartSlot); }
  std::uint64_t slots_ = 0;
  backend::Buffer table_;
  std::optional<blocks::PinnedArray<dna::PartSlot>> host_;
};

// mastercard and mastercard-indexed (apps/mastercard.clh): two launches a
// run, pass 0 (the cards of X's transactions into `customers`) and pass 1
// (their merchants counted). The indexed kernel walks the workload's index
// (built untimed by its check_input) instead of scanning the lines.
// The sets are sized from the lines, which bound their entries; the merchant
// table starts small and, when a run claimed more than half of it, grows and
// runs pass 1 again (a run's first time only: the size is kept).
class MastercardKernel final : public AppKernel {
 public:
  explicit MastercardKernel(bool indexed) : indexed_(indexed) {}
  std::string source() const override {
    return indexed_ ? "frameworks/sl1/apps/mastercard_indexed.clh"
                    : "frameworks/sl1/apps/mastercard.clh";
  }
  std::vector<std::string> structures() const override {
    std::vector<std::string> s = {"transactions", "merchant", "merchant_ids"};
    if (indexed_) s.push_back("index");
    return s;
  }
  std::string staging_problem() const override {
    return indexed_ ? "mastercard-indexed has no staged kernel: the staged kernels scan a text "
                      "byte by byte, mastercard-indexed reads two fields of each record"
                    : "mastercard has no staged kernel: its variable-length lines straddle the "
                      "fixed tiles a work-group stages";
  }
  // Scanned: whole lines. Indexed: index entries, as evenly as they go.
  std::vector<std::uint64_t> cuts(const std::uint8_t* input, std::size_t size,
                                  unsigned parts) const override {
    if (!indexed_) return AppKernel::cuts(input, size, parts);
    const std::vector<std::size_t> c =
        even_cuts(workloads::mastercard_index_of(input, size)->size(), parts);
    return {c.begin(), c.end()};
  }
  std::string kernel_name(Mode) const override { return "sl1_mastercard"; }
  std::uint32_t passes() const override { return 2; }
  void prepare(backend::Device& device, const Params& params, const std::uint8_t* input,
               std::size_t size, std::uint64_t) override {
    const std::string x =
        mc::merchant_param(params, indexed_ ? "mastercard-indexed" : "mastercard");
    if (indexed_) {
      const auto index = workloads::mastercard_index_of(input, size);
      index_ = padded_copy(device, index->data(),
                           index->size() * sizeof(workloads::MastercardIndexEntry));
    } else {
      index_ = padded_copy(device, nullptr, 0);  // unused by the scanning kernel
    }
    x_ = padded_copy(device, x.data(), x.size());
    x_len_ = static_cast<std::uint32_t>(x.size());
    input_ = input;
    const std::uint64_t set_slots =
        std::bit_ceil(std::max<std::uint64_t>(2 * count_lines(input, size), 64));
    set_mask_ = set_slots - 1;
    customers_ = device.allocate(set_slots * sizeof(std::uint64_t));
    pairs_ = device.allocate(set_slots * sizeof(std::uint64_t));
    merchants_.allocate(device, kFirstMerchantSlots);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    q.fill_zero(customers_, 0, (set_mask_ + 1) * sizeof(std::uint64_t));
    run_pass(q, k, l, 0);
    do {
      q.fill_zero(pairs_, 0, (set_mask_ + 1) * sizeof(std::uint64_t));
      merchants_.clear(q);
      run_pass(q, k, l, 1);
    } while (merchants_.grow_if_over_half(q));
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch&) override {
    auto table = mc::affinity_table();
    merchants_.read(q, input_, [&](std::string_view id, std::uint64_t value) {
      const std::int64_t counts[2] = {static_cast<std::int64_t>(value & 0xFFFFFFFFu),
                                      static_cast<std::int64_t>(value >> 32)};
      table->add(id, counts);
    });
    return table;
  }
  std::uint64_t copied_out() const override { return merchants_.bytes(); }

 private:
  static constexpr std::uint64_t kFirstMerchantSlots = 1024;

  void run_pass(backend::Queue& q, const backend::Kernel& k, const Launch& l, std::uint32_t pass) {
    q.launch(k, l.shape, *l.text, *l.cuts, index_, x_, x_len_, pass, customers_, set_mask_, pairs_,
             set_mask_, merchants_.slots(), merchants_.count(), merchants_.claimed(), l.lines,
             l.monitor, *l.stats, local_memory(l.local_bytes));
  }

  bool indexed_;
  const std::uint8_t* input_ = nullptr;
  backend::Buffer index_, x_, customers_, pairs_;
  TextTable merchants_;
  std::uint32_t x_len_ = 0;
  std::uint64_t set_mask_ = 0;
};

}  // namespace

std::unique_ptr<AppKernel> make_dna_kernel() { return std::make_unique<DnaKernel>(); }
std::unique_ptr<AppKernel> make_mastercard_kernel(bool indexed) {
  return std::make_unique<MastercardKernel>(indexed);
}

}  // namespace harness::sl1
