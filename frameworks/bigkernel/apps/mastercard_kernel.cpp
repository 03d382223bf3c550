// mastercard's and mastercard-indexed's AppKernel (apps/mastercard.clh): two
// passes a run. Pass 0's kernel lists the index entries of X's transactions;
// the host gathers X's customers S from them and sends the device a filter
// of their cards' bits; pass 1's kernel lists the entries of the
// transactions whose card passes it, and the host counts them with the
// workload's own CPU-MT aggregation over index entries (affinity_from_index:
// it finds S again among them, X's transactions being listed, counts every
// merchant's visits and distinct customers by S's cards and drops those of
// the cards that passed the filter by chance), reading the card and merchant
// fields those entries name.
//
// The device memory is planned before the run: each lane lists a round's
// transactions at most (16 B each; mastercard counts a piece's lines when it
// cuts them), its list copied back at its length once the lane's next round
// is enqueued (the host waits for that round's count, two rounds back) or
// at the pass's end; the filter has a bit for every 64 B of input (at least
// 4096): S's cards set a few per mille of them on the transactions
// generator's data, about the share of others that pass by chance.
//
// mastercard's records are pieces of whole lines (the `piece` parameter, as
// wc's; the second word of a piece's entry is its lines); those of
// mastercard-indexed are the workload's index entries (built untimed by its
// check_input), two words each: the card's offset, and the merchant id's
// offset from the card | its length << 32.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/mastercard/mastercard_cpu.h"
#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "frameworks/workloads/mastercard/mastercard_index.h"
#include "frameworks/workloads/mastercard/mastercard_tables.h"
#include "harness/core/host_cores.h"

namespace harness::bigkernel {
namespace {

namespace mc = workloads::mastercard;
using workloads::MastercardIndexEntry;

constexpr std::uint64_t kInputBytesPerFilterBit = 64;
constexpr std::uint64_t kMinFilterBits = 4096;
constexpr std::uint32_t kLanes = 2;  // the most any variant has

class MastercardKernel final : public AppKernel {
 public:
  explicit MastercardKernel(bool indexed) : indexed_(indexed) {}
  std::string app() const override { return indexed_ ? mc::kIndexedApp : mc::kApp; }
  std::size_t record_bytes() const override { return 0; }
  // Scanned: every byte of the longest piece. Indexed: the 16 digits and the
  // longest merchant id.
  std::uint32_t max_reads() const override {
    if (!indexed_) return longest_piece(records());
    std::uint64_t longest = 0;
    const std::uint64_t* e = records().entries();
    for (std::uint64_t r = 0; r < records().count(); ++r)
      longest = std::max(longest, e[2 * r + 1] >> 32);
    return static_cast<std::uint32_t>(mc::kCardDigits + longest);
  }
  std::uint32_t max_value_bytes() const override { return max_reads(); }
  std::uint32_t passes() const override { return 2; }
  std::uint64_t fixed_bytes(const Params&) const override {
    return pool_bytes(mc::kMaxMerchantBytes) + pool_bytes(filter_bits() / 8) + pool_bytes(8);
  }
  std::string fixed_text() const override {
    return "X's id and the customers' filter (a bit for 64 B of input)";
  }
  // The round's list of transactions and its length.
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return pool_bytes(most_transactions(records) * 16) + pool_bytes(4);
  }
  std::string side_text() const override { return "list of 16 B for each of its transactions"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    if (per_chunk != planned_for_) {
      lane_entries_ = std::max<std::uint64_t>(most_transactions(per_chunk), 1);
      planned_for_ = per_chunk;
    }
    chunks_ = chunks;
    counts_host_->resize(std::max<std::size_t>(chunks.size(), 1));
    found_host_->resize(std::max<std::uint64_t>(transactions(0, records().count()), 1));
    copied_out_ = 0;
    visits_ = 0;
  }
  void begin_pass(std::uint32_t pass) override {
    pass_ = pass;
    listed_ = 0;
  }
  void end_pass(std::uint32_t pass) override {
    for (std::uint32_t lane = 0; lane < kLanes; ++lane) {
      if (lanes_[lane].pending) take_list(lane, true);
    }
    if (pass == 0) {
      send_filter();
    } else {
      visits_ = listed_;
    }
  }
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    launch(q, kernel(Mode::addrgen), mapped, c, unused(), unused());
  }
  void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
               std::size_t index, const Chunk& c) override {
    Lane& l = lanes_.at(lane);
    l.queue = &q;
    // The lane's list of two rounds back comes home before this round's
    // kernel reuses it (queue order).
    if (l.pending) {
      q.end_span();
      q.begin_span("copy_out");
      take_list(lane, false);
      q.end_span();
      q.begin_span("compute");
    }
    backend::Buffer& found =
        pool_->get("bk.mc.found.lane" + std::to_string(lane), lane_entries_ * 16);
    backend::Buffer& count = pool_->get("bk.mc.count.lane" + std::to_string(lane), 4);
    q.fill_zero(count, 0, 4);
    launch(q, kernel(mode), mapped, c, found, count);
    q.end_span();
    q.begin_span("copy_out");
    l.counted = q.read_async(counts_host_->host_buffer(), index * 4, count, 0, 4);
    l.chunk = index;
    l.pending = true;
    copied_out_ += 4;
  }
  std::unique_ptr<workloads::Output> finish_run() override {
    return mc::affinity_from_index(
        input_, std::span<const MastercardIndexEntry>(found_host_->data(), visits_), x_,
        harness::usable_cores());
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(found_host_->kind()); }

 protected:
  RecordTable make_records(backend::Device& device, const Params& params, const std::uint8_t* input,
                           std::size_t size) override {
    lines_before_.clear();
    planned_for_ = ~std::uint64_t{0};
    if (!indexed_) {
      // Pieces of whole lines, each with its lines (the most transactions it
      // holds: a last line without '\n' counts too).
      const std::vector<std::uint64_t> starts =
          line_piece_starts(input, size, param_size(params, "piece"));
      std::vector<std::uint64_t> entries;
      lines_before_.push_back(0);
      for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
        const auto* from = input + starts[r];
        const std::uint64_t lines =
            static_cast<std::uint64_t>(std::count(from, input + starts[r + 1], '\n')) + 1;
        entries.insert(entries.end(), {starts[r], lines});
        lines_before_.push_back(lines_before_.back() + lines);
      }
      entries.insert(entries.end(), {starts.back(), 0});
      return RecordTable::variable(device, entries, 2);
    }
    const auto index = workloads::mastercard_index_of(input, size);
    std::vector<std::uint64_t> entries(2 * index->size() + 2);
    static_assert(sizeof(MastercardIndexEntry) == 16);
    if (!index->empty()) std::memcpy(entries.data(), index->data(), index->size() * 16);
    entries[2 * index->size()] = size;  // the last record's end
    return RecordTable::variable(device, entries, 2);
  }
  void prepare_app(const Params& params, const std::uint8_t* input, std::size_t) override {
    input_ = input;
    x_ = mc::merchant_param(params, app());
    x_buffer_ = &pool_->get("bk.mc.x", mc::kMaxMerchantBytes);
    filter_ = &pool_->get("bk.mc.filter", filter_bits() / 8);
    backend::Queue& q = device_->queue();
    q.write(*x_buffer_, 0, x_.data(), x_.size());
    q.finish();
    found_host_.emplace(*device_);
    counts_host_.emplace(*device_);
    for (Lane& l : lanes_) l = Lane();
  }
  std::string source_file() const override { return "frameworks/bigkernel/apps/mastercard.clh"; }
  std::string kernel_name() const override {
    return indexed_ ? "bk_mastercard_indexed" : "bk_mastercard";
  }

 private:
  // A lane's round whose list is not home yet.
  struct Lane {
    backend::Queue* queue = nullptr;
    bool pending = false;
    std::size_t chunk = 0;
    backend::Event counted;  // its length is in counts_host_
  };

  std::uint64_t filter_bits() const {
    const RecordTable& r = records();
    return std::bit_ceil(std::max(kMinFilterBits, r.begin(r.count()) / kInputBytesPerFilterBit));
  }
  // The most transactions records [first, first + n) hold.
  std::uint64_t transactions(std::uint64_t first, std::uint64_t n) const {
    return indexed_ ? n : lines_before_[first + n] - lines_before_[first];
  }
  // The most transactions any n consecutive records hold.
  std::uint64_t most_transactions(std::uint64_t n) const {
    const std::uint64_t count = records().count();
    n = std::min(n, count);
    if (indexed_) return n;
    std::uint64_t most = 0;
    for (std::uint64_t first = 0; first + n <= count; ++first)
      most = std::max(most, transactions(first, n));
    return most;
  }

  void launch(backend::Queue& q, const backend::Kernel& k, const MappedArgs& mapped, const Chunk& c,
              backend::Buffer& found, backend::Buffer& count) {
    launch_mapped(q, k, backend::LaunchShape::cover(c.count, kGroupSize), mapped, unused(), 0u,
                  unused(), static_cast<std::uint32_t>(c.count), pass_, *x_buffer_,
                  static_cast<std::uint32_t>(x_.size()), *filter_,
                  static_cast<std::uint32_t>(filter_bits() - 1), found, count,
                  static_cast<std::uint32_t>(transactions(c.first, c.count)));
  }

  // The lane's pending list, once its length is home, appended to the
  // pass's (`wait`: and home before this returns).
  void take_list(std::uint32_t lane, bool wait) {
    Lane& l = lanes_[lane];
    l.counted.wait();
    l.pending = false;
    const std::uint64_t n = (*counts_host_)[l.chunk];
    if (n == 0) return;
    backend::Event back = l.queue->read_async(
        found_host_->host_buffer(), listed_ * 16,
        pool_->get("bk.mc.found.lane" + std::to_string(lane), lane_entries_ * 16), 0, n * 16);
    if (wait) back.wait();
    listed_ += n;
    copied_out_ += n * 16;
  }

  // S, the distinct cards of X's transactions (pass 0's list), as the
  // filter's bits (apps/mastercard.clh), sent before pass 1.
  void send_filter() {
    const std::uint64_t bits = filter_bits();
    std::vector<std::uint32_t> words(bits / 32, 0);
    for (std::uint64_t i = 0; i < listed_; ++i) {
      const std::uint64_t card = mc::card_value(input_ + (*found_host_)[i].card);
      const std::uint64_t bit = mc::mix64(card + 1) & (bits - 1);
      words[bit / 32] |= std::uint32_t{1} << (bit % 32);
    }
    backend::Queue& q = device_->queue();
    q.write(*filter_, 0, words.data(), words.size() * 4);
    q.finish();
  }

  bool indexed_;
  const std::uint8_t* input_ = nullptr;
  std::string x_;
  std::vector<std::uint64_t> lines_before_;  // scanned: lines of the pieces before each
  backend::Buffer *x_buffer_ = nullptr, *filter_ = nullptr;
  std::array<Lane, kLanes> lanes_;
  std::vector<Chunk> chunks_;
  std::uint32_t pass_ = 0;
  std::uint64_t lane_entries_ = 1, planned_for_ = ~std::uint64_t{0};
  std::uint64_t listed_ = 0, visits_ = 0, copied_out_ = 0;
  std::optional<blocks::PinnedArray<MastercardIndexEntry>> found_host_;
  std::optional<blocks::PinnedArray<std::uint32_t>> counts_host_;
};

}  // namespace

std::unique_ptr<AppKernel> make_mastercard_kernel(bool indexed) {
  return std::make_unique<MastercardKernel>(indexed);
}

}  // namespace harness::bigkernel
