// opinion-finder's AppKernel: the workload's dictionary table and the
// subject's keywords in device memory, one tally a work-group copied back
// and added on the host (apps/opinion_finder.clh).
#include <optional>
#include <string>
#include <vector>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "frameworks/workloads/opinion_finder/opinion_word_table.h"

namespace harness::bigkernel {
namespace {

namespace op = workloads::opinion;

constexpr std::uint32_t kTallyWords = 4;  // BK_OF_TALLY: mentioning, positive, negative, score

std::uint64_t groups(std::uint64_t records) { return launch_threads(records) / kGroupSize; }

class OpinionKernel final : public AppKernel {
 public:
  std::string app() const override { return op::kName; }
  std::size_t record_bytes() const override { return op::kRecordBytes; }
  // The tweet's text, a byte a read.
  std::uint32_t max_reads() const override { return op::kTextBytes; }
  std::uint32_t max_value_bytes() const override { return op::kTextBytes; }
  std::uint64_t fixed_bytes(const Params& params) const override {
    const std::uint64_t keywords = op::parse_subject(param_string(params, "subject")).size();
    return pool_bytes((op::sentiment_dictionary().mask() + 1) * 24) + pool_bytes(keywords * 16) +
           pool_bytes(8);
  }
  std::string fixed_text() const override { return "the dictionaries and the keywords"; }
  std::uint64_t side_bytes(std::uint64_t records) const override {
    return pool_bytes(groups(records) * kTallyWords * 4);
  }
  std::string side_text() const override { return "tallies of 16 B a work-group"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    stride_ = groups(per_chunk);
    tallies_host_->resize(chunks.size() * stride_ * kTallyWords);
    chunks_ = chunks;
    copied_out_ = 0;
  }
  void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& c) override {
    // The dictionaries and the tallies are never touched in ADDRGEN.
    launch_mapped(q, kernel(Mode::addrgen), backend::LaunchShape::cover(c.count, kGroupSize),
                  mapped, unused(), static_cast<std::uint32_t>(record_bytes()), unused(),
                  std::uint64_t{c.first}, static_cast<std::uint32_t>(c.count), unused(),
                  std::uint32_t{0}, unused(), std::uint32_t{0}, unused());
  }
  void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
               std::size_t index, const Chunk& c) override {
    const std::uint64_t bytes = groups(c.count) * kTallyWords * 4;
    backend::Buffer& tallies = pool_->get("bk.tallies.lane" + std::to_string(lane), bytes);
    MappedArgs m = mapped;
    m.chunk_base = c.first * record_bytes();
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), m, unused(),
                  static_cast<std::uint32_t>(record_bytes()), unused(), std::uint64_t{c.first},
                  static_cast<std::uint32_t>(c.count), *dictionary_, dictionary_mask_, *keywords_,
                  keyword_count_, tallies);
    q.end_span();
    q.begin_span("copy_out");
    q.read_async(tallies_host_->host_buffer(), index * stride_ * kTallyWords * 4, tallies, 0,
                 bytes);
    copied_out_ += bytes;
  }
  std::unique_ptr<workloads::Output> finish_run() override {
    op::Tally t;
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      t.tweets += static_cast<std::int64_t>(chunks_[i].count);
      const std::uint32_t* tally = tallies_host_->data() + i * stride_ * kTallyWords;
      for (std::uint64_t g = 0; g < groups(chunks_[i].count); ++g, tally += kTallyWords) {
        t.mentioning += tally[0];
        t.positive_words += tally[1];
        t.negative_words += tally[2];
        t.score += static_cast<std::int32_t>(tally[3]);  // a group's score, two's complement
      }
    }
    return op::tally_output(t);
  }
  std::uint64_t copied_out() const override { return copied_out_; }
  std::string copy_out_ceiling() const override { return d2h_ceiling(tallies_host_->kind()); }

 protected:
  void prepare_app(const Params& params, const std::uint8_t*, std::size_t) override {
    const op::WordTable table = op::sentiment_dictionary();
    const std::vector<std::uint64_t> slots = table.flat_slots();
    dictionary_mask_ = static_cast<std::uint32_t>(table.mask());
    dictionary_ = &pool_->get("bk.dictionary", slots.size() * 8);
    std::vector<std::uint64_t> words;
    for (const std::string& k : op::parse_subject(param_string(params, "subject"))) {
      const op::PackedWord w = op::pack_word(k);
      words.insert(words.end(), {w.lo, w.hi});
    }
    keyword_count_ = static_cast<std::uint32_t>(words.size() / 2);
    keywords_ = &pool_->get("bk.keywords", words.size() * 8);
    backend::Queue& q = device_->queue();
    q.write(*dictionary_, 0, slots.data(), slots.size() * 8);
    q.write(*keywords_, 0, words.data(), words.size() * 8);
    q.finish();
    tallies_host_.emplace(*device_);
  }
  std::string source_file() const override {
    return "frameworks/bigkernel/apps/opinion_finder.clh";
  }
  std::string kernel_name() const override { return "bk_opinion_finder"; }

 private:
  backend::Buffer *dictionary_ = nullptr, *keywords_ = nullptr;
  std::uint32_t dictionary_mask_ = 0, keyword_count_ = 0;
  std::optional<blocks::PinnedArray<std::uint32_t>> tallies_host_;
  std::vector<Chunk> chunks_;
  std::uint64_t stride_ = 0, copied_out_ = 0;  // stride_: tallies a chunk's region holds
};

}  // namespace

std::unique_ptr<AppKernel> make_opinion_finder_kernel() {
  return std::make_unique<OpinionKernel>();
}

}  // namespace harness::bigkernel
