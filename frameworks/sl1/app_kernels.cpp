#include "frameworks/sl1/app_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string_view>

#include "frameworks/blocks/pinned_array.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/grep/grep_pattern.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "frameworks/workloads/opinion_finder/opinion_word_table.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/cuts.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::sl1 {
namespace {

using backend::local_memory;
using workloads::Output;

constexpr std::uint32_t kGrepMaxAtoms = 32;  // SL1_GREP_MAX_ATOMS
constexpr std::size_t kPad = 48;             // a whole line of every size (8, 16, 24)

// Upper: the text rewritten in place, read back whole.
class UpperKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/upper.clh"; }
  std::uint64_t written_bytes(std::uint64_t size) const override { return size; }  // at most
  std::vector<std::string> structures() const override { return {"text"}; }
  bool has_coalesced() const override { return true; }
  std::string kernel_name(Mode mode) const override {
    return mode == Mode::staging     ? "sl1_upper_staged"
           : mode == Mode::coalesced ? "sl1_upper_coalesced"
                                     : "sl1_upper";
  }
  void prepare(backend::Device& device, const Params&, const std::uint8_t*, std::size_t size,
               std::uint64_t) override {
    text_.emplace(device);
    text_->resize(size);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    if (l.mode == Mode::coalesced) {
      q.launch(k, l.shape, *l.text, l.size);
    } else if (l.mode == Mode::staging) {
      q.launch(k, l.shape, *l.text, l.size, l.part, local_memory(l.local_bytes));
    } else {
      q.launch(k, l.shape, *l.text, *l.cuts, l.lines, l.monitor, *l.stats,
               local_memory(l.local_bytes));
    }
  }
  // Into pinned memory kept from run to run; the output views it (a run's
  // output is checked before the next run overwrites it).
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch& l) override {
    if (l.size) read_now(q, text_->data(), *l.text, 0, l.size);
    copied_ = l.size;
    return std::make_unique<workloads::BytesOutput>(text_->data(), l.size);
  }
  std::uint64_t copied_out() const override { return copied_; }

 private:
  std::optional<blocks::PinnedArray<std::uint8_t>> text_;
  std::uint64_t copied_ = 0;
};

// wc: each work-item's newlines and word starts, summed on the host.
class WcKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/wc.clh"; }
  std::vector<std::string> structures() const override { return {"text"}; }
  bool has_coalesced() const override { return true; }
  std::string kernel_name(Mode mode) const override {
    return mode == Mode::staging     ? "sl1_wc_staged"
           : mode == Mode::coalesced ? "sl1_wc_coalesced"
                                     : "sl1_wc";
  }
  void prepare(backend::Device& device, const Params&, const std::uint8_t*, std::size_t,
               std::uint64_t threads) override {
    threads_ = threads;
    counts_ = device.allocate(threads * 2 * sizeof(std::uint32_t));
    host_.resize(threads * 2);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    if (l.mode == Mode::coalesced) {
      q.launch(k, l.shape, *l.text, l.size, counts_);
    } else if (l.mode == Mode::staging) {
      q.launch(k, l.shape, *l.text, l.size, l.part, counts_, local_memory(l.local_bytes));
    } else {
      q.launch(k, l.shape, *l.text, *l.cuts, counts_, l.lines, l.monitor, *l.stats,
               local_memory(l.local_bytes));
    }
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch& l) override {
    read_now(q, host_.data(), counts_, 0, host_.size() * sizeof(std::uint32_t));
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
  std::string source() const override { return "frameworks/sl1/apps/grep.clh"; }
  std::vector<std::string> structures() const override { return {"text", "pattern"}; }
  std::string staging_problem() const override {
    return "grep has no staged kernel: its lines straddle the fixed tiles a work-group stages, "
           "and the matcher backtracks over a whole line";
  }
  std::string kernel_name(Mode) const override { return "sl1_grep"; }
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
    pattern_ = padded_copy(device, encoded.data(), encoded.size());
    const std::uint64_t lines = count_lines(input, size);
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
    read_now(q, &found, found_, 0, sizeof(found));
    auto out = std::make_unique<workloads::OffsetsOutput>();
    out->offsets().resize(found);
    if (found) read_now(q, out->offsets().data(), offsets_, 0, found * sizeof(std::uint64_t));
    copied_ = sizeof(found) + found * sizeof(std::uint64_t);
    return out;  // finish() sorts: the work-items' matches arrive in any order
  }
  std::uint64_t copied_out() const override { return copied_; }

 private:
  std::uint32_t atoms_ = 0, anchors_ = 0;
  backend::Buffer pattern_, offsets_, found_;
  std::uint64_t copied_ = 0;
};

// kmeans-particles: the ids written into the records on the device, read
// back with the records.
class KmeansKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/kmeans_particles.clh"; }
  std::uint64_t written_bytes(std::uint64_t size) const override { return size / kRecord * 8; }
  std::vector<std::string> structures() const override { return {"particles", "centroids"}; }
  std::string staging_problem() const override {
    return "kmeans-particles has no staged kernel: the staged kernels scan a text byte by byte, "
           "kmeans reads 4 of the 8 words of each record";
  }
  std::string kernel_name(Mode) const override { return "sl1_kmeans_particles"; }
  // Whole records, as evenly as they go.
  std::vector<std::uint64_t> cuts(const std::uint8_t*, std::size_t size,
                                  unsigned parts) const override {
    return record_cuts(size, kRecord, parts);
  }
  void prepare(backend::Device& device, const Params& params, const std::uint8_t* input,
               std::size_t size, std::uint64_t) override {
    namespace km = workloads::kmeans_particles;
    k_ = param_u32(params, "k");
    std::vector<double> flat;
    for (const km::Point& c : km::first_k_centroids(input, size, k_))
      flat.insert(flat.end(), c.begin(), c.end());
    centroids_ = padded_copy(device, flat.data(), flat.size() * sizeof(double));
    records_.emplace(device);
    records_->resize(size);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    q.launch(k, l.shape, *l.text, *l.cuts, centroids_, k_, l.lines, l.monitor, *l.stats,
             local_memory(l.local_bytes));
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch& l) override {
    namespace km = workloads::kmeans_particles;
    if (l.size) read_now(q, records_->data(), *l.text, 0, l.size);
    const std::size_t n = l.size / kRecord;
    auto out = std::make_unique<km::ClusterIdsOutput>(n, k_);
    // Each record's cluster id, on every host core (a serial pass took 17 ms
    // of 4 M records on an H100's host).
    const std::uint8_t* records = records_->data();
    std::uint32_t* ids = out->ids();
    parallel_ranges(n, 0, std::size_t{1} << 16, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        std::int64_t id = 0;
        std::memcpy(&id, records + i * kRecord + km::kClusterIdOffset, sizeof(id));
        ids[i] = static_cast<std::uint32_t>(id);
      }
    });
    return out;
  }
  std::uint64_t copied_out() const override { return records_ ? records_->size() : 0; }

 private:
  static constexpr std::size_t kRecord = workloads::kmeans_particles::kRecordBytes;
  std::uint32_t k_ = 0;
  backend::Buffer centroids_;
  std::optional<blocks::PinnedArray<std::uint8_t>> records_;  // pinned, kept from run to run
};

// opinion-finder: the workload's dictionary (WordTable) slot for slot, the
// keywords as a list, per-work-item counts summed on the host.
class OpinionKernel final : public AppKernel {
 public:
  std::string source() const override { return "frameworks/sl1/apps/opinion_finder.clh"; }
  std::vector<std::string> structures() const override {
    return {"tweets", "dictionary", "keywords"};
  }
  std::string staging_problem() const override {
    return "opinion-finder has no staged kernel: the staged kernels cut a text into tiles, "
           "opinion-finder reads the first 146 bytes of each 200-byte record";
  }
  std::string kernel_name(Mode) const override { return "sl1_opinion_finder"; }
  std::vector<std::uint64_t> cuts(const std::uint8_t*, std::size_t size,
                                  unsigned parts) const override {
    return record_cuts(size, workloads::opinion::kRecordBytes, parts);
  }
  void prepare(backend::Device& device, const Params& params, const std::uint8_t*, std::size_t,
               std::uint64_t threads) override {
    namespace op = workloads::opinion;
    std::vector<std::uint64_t> keys;
    for (const std::string& k : op::parse_subject(param_string(params, "subject"))) {
      const op::PackedWord p = op::pack_word(k);
      keys.insert(keys.end(), {p.lo, p.hi});
    }
    keywords_count_ = static_cast<std::uint32_t>(keys.size() / 2);
    keywords_ = padded_copy(device, keys.data(), keys.size() * sizeof(std::uint64_t));
    const op::WordTable dictionary = op::sentiment_dictionary();
    const std::vector<std::uint64_t> table = dictionary.flat_slots();
    mask_ = static_cast<std::uint32_t>(dictionary.mask());
    dictionary_ = padded_copy(device, table.data(), table.size() * sizeof(std::uint64_t));
    threads_ = threads;
    counts_ = device.allocate(threads * 5 * sizeof(std::int32_t));
    host_.resize(threads * 5);
  }
  void launch(backend::Queue& q, const backend::Kernel& k, const Launch& l) override {
    q.launch(k, l.shape, *l.text, *l.cuts, dictionary_, mask_, keywords_, keywords_count_, counts_,
             l.lines, l.monitor, *l.stats, local_memory(l.local_bytes));
  }
  std::unique_ptr<Output> read_output(backend::Queue& q, const Launch&) override {
    read_now(q, host_.data(), counts_, 0, host_.size() * sizeof(std::int32_t));
    workloads::opinion::Tally t;
    for (std::uint64_t i = 0; i < threads_; ++i) {
      t.tweets += host_[5 * i];
      t.mentioning += host_[5 * i + 1];
      t.positive_words += host_[5 * i + 2];
      t.negative_words += host_[5 * i + 3];
      t.score += host_[5 * i + 4];
    }
    return workloads::opinion::tally_output(t);
  }
  std::uint64_t copied_out() const override { return host_.size() * sizeof(std::int32_t); }

 private:
  std::uint32_t mask_ = 0, keywords_count_ = 0;
  std::uint64_t threads_ = 0;
  backend::Buffer dictionary_, keywords_, counts_;
  std::vector<std::int32_t> host_;
};

}  // namespace

std::vector<std::uint64_t> record_cuts(std::size_t size, std::size_t record, unsigned parts) {
  std::vector<std::uint64_t> bytes;
  for (std::size_t r : even_cuts(size / record, parts)) bytes.push_back(std::uint64_t{r} * record);
  return bytes;
}

backend::Buffer padded_zeros(backend::Device& device, std::size_t bytes) {
  const std::size_t padded = (bytes + kPad) / kPad * kPad;
  backend::Buffer b = device.allocate(padded);
  device.queue().fill_zero(b, 0, padded);
  device.queue().finish();
  return b;
}

backend::Buffer padded_copy(backend::Device& device, const void* data, std::size_t bytes) {
  backend::Buffer b = padded_zeros(device, bytes);
  if (bytes) device.queue().write(b, 0, data, bytes);
  device.queue().finish();
  return b;
}

std::uint64_t count_lines(const std::uint8_t* input, std::size_t size) {
  auto lines = static_cast<std::uint64_t>(std::count(input, input + size, '\n'));
  if (size && input[size - 1] != '\n') ++lines;
  return lines;
}

std::vector<std::uint64_t> AppKernel::cuts(const std::uint8_t* input, std::size_t size,
                                           unsigned parts) const {
  const std::vector<std::size_t> c = line_cuts(input, size, parts);
  return {c.begin(), c.end()};
}

void read_now(backend::Queue& q, void* dst, const backend::Buffer& src, std::size_t offset,
              std::size_t bytes) {
  q.read(dst, src, offset, bytes);
  q.finish();
}

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app) {
  if (app == "upper") return std::make_unique<UpperKernel>();
  if (app == "wc") return std::make_unique<WcKernel>();
  if (app == "grep") return std::make_unique<GrepKernel>();
  if (app == workloads::kmeans_particles::kApp) return std::make_unique<KmeansKernel>();
  if (app == workloads::opinion::kName) return std::make_unique<OpinionKernel>();
  if (app == workloads::dna::kName) return make_dna_kernel();
  if (app == "mastercard") return make_mastercard_kernel(false);
  if (app == "mastercard-indexed") return make_mastercard_kernel(true);
  if (app == "inverted-index") return make_inverted_index_kernel();
  if (app == "page-view-count") return make_page_view_count_kernel();
  if (app == "matrix-multiply") return make_matrix_multiply_kernel();
  std::string known;
  for (const std::string& name : app_names()) known += (known.empty() ? "" : ", ") + name;
  throw UsageError("sl1 runs " + known + ", not " + app);
}

const std::vector<std::string>& app_names() {
  static const std::vector<std::string> names = {"upper",
                                                 "wc",
                                                 "grep",
                                                 workloads::kmeans_particles::kApp,
                                                 workloads::opinion::kName,
                                                 workloads::dna::kName,
                                                 "mastercard",
                                                 "mastercard-indexed",
                                                 "inverted-index",
                                                 "page-view-count",
                                                 "matrix-multiply"};
  return names;
}

}  // namespace harness::sl1
