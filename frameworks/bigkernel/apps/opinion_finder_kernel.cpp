// opinion-finder's AppKernel: the workload's dictionary table and the
// subject's keywords in device memory, one tally a work-group copied back
// and added on the host (apps/opinion_finder.clh).
#include <string>
#include <vector>

#include "frameworks/bigkernel/apps/app_kernels.h"
#include "frameworks/bigkernel/apps/group_tallies.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "frameworks/workloads/opinion_finder/opinion_word_table.h"

namespace harness::bigkernel {
namespace {

namespace op = workloads::opinion;

constexpr std::uint32_t kTallyWords = 4;  // BK_OF_TALLY: mentioning, positive, negative, score

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
    return tallies_.side_bytes(records);
  }
  std::string side_text() const override { return "tallies of 16 B a work-group"; }
  void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) override {
    tallies_.begin_run(chunks, per_chunk);
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
    backend::Buffer& tallies = tallies_.device_buffer(*pool_, lane, c);
    MappedArgs m = mapped;
    m.chunk_base = c.first * record_bytes();
    launch_mapped(q, kernel(mode), backend::LaunchShape::cover(c.count, kGroupSize), m, unused(),
                  static_cast<std::uint32_t>(record_bytes()), unused(), std::uint64_t{c.first},
                  static_cast<std::uint32_t>(c.count), *dictionary_, dictionary_mask_, *keywords_,
                  keyword_count_, tallies);
    q.end_span();
    tallies_.copy_back(q, tallies, index, c);
  }
  bool persistent_args(const PersistentShape&, PersistentAppArgs& args, std::int64_t*&) override {
    args.pointers[0] = dictionary_->handle();
    args.pointers[1] = keywords_->handle();
    args.pointers[2] = tallies_.persistent_region();
    args.values[0] = dictionary_mask_;
    args.values[1] = keyword_count_;
    return true;
  }
  std::unique_ptr<workloads::Output> finish_run() override {
    op::Tally t;
    for (const Chunk& c : tallies_.chunks()) t.tweets += static_cast<std::int64_t>(c.count);
    tallies_.for_each([&](const Chunk&, const std::uint32_t* tally) {
      t.mentioning += tally[0];
      t.positive_words += tally[1];
      t.negative_words += tally[2];
      t.score += static_cast<std::int32_t>(tally[3]);  // a group's score, two's complement
    });
    return op::tally_output(t);
  }
  std::uint64_t copied_out() const override { return tallies_.copied_out(); }
  std::string copy_out_ceiling() const override { return tallies_.copy_out_ceiling(); }

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
    tallies_.prepare(*device_);
  }
  std::string source_file() const override {
    return "frameworks/bigkernel/apps/opinion_finder.clh";
  }
  std::string kernel_name() const override { return "bk_opinion_finder"; }

 private:
  backend::Buffer *dictionary_ = nullptr, *keywords_ = nullptr;
  std::uint32_t dictionary_mask_ = 0, keyword_count_ = 0;
  GroupTallies tallies_{kTallyWords};
};

}  // namespace

std::unique_ptr<AppKernel> make_opinion_finder_kernel() {
  return std::make_unique<OpinionKernel>();
}

}  // namespace harness::bigkernel
