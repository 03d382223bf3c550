// wc (S-L1's stress case, thesis section 5.3): Unix `wc` of a text, lines,
// words and bytes, each thread scanning its own chunk.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/cuts.h"
#include "harness/core/parallel.h"

namespace harness::workloads {
namespace {

// The C locale's isspace: what separates words for `wc`.
bool is_space(std::uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
// The same as 0 or 1, without a branch.
std::uint8_t space_bit(std::uint8_t c) {
  return static_cast<std::uint8_t>((c == ' ') | (static_cast<std::uint8_t>(c - 9u) < 5u));
}

// Newlines and word starts in data[begin, end), begin >= 1 (each byte is
// compared with the one before it). Blocks of 255 bytes count into 8-bit
// sums, which the compiler keeps in vector lanes; each block's sums then go
// into the 64-bit ones. Built for x86-64-v3 (AVX2) and v4 (AVX-512) beside the baseline and
// chosen at load time (GCC's target_clones): wider lanes double the bytes a
// core classifies per cycle.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
[[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]
#endif
void count_range(const std::uint8_t* data, std::size_t begin, std::size_t end, std::uint64_t& lines,
                 std::uint64_t& words) {
  std::uint64_t l = 0, w = 0;
  for (std::size_t i = begin; i < end;) {
    const std::size_t block_end = std::min(end, i + 255);
    std::uint8_t lb = 0, wb = 0;
    for (; i < block_end; ++i) {
      const std::uint8_t c = data[i], before = data[i - 1];
      lb = static_cast<std::uint8_t>(lb + (c == '\n'));
      wb = static_cast<std::uint8_t>(wb + (space_bit(before) & ~space_bit(c) & 1u));
    }
    l += lb;
    w += wb;
  }
  lines += l;
  words += w;
}

class Wc final : public Workload {
 public:
  std::string name() const override { return "wc"; }
  std::string description() const override {
    return "Unix wc: newlines, words (maximal runs of non-space bytes, C locale) and bytes of a "
           "text";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch5"; }
  // Table 4.1's Word Count scans the same text byte by byte (it reads all of
  // it and writes none): its row is measured here.
  PaperFacts paper() const override {
    PaperFacts p;
    p.read_share = 1.0;
    p.written_share = 0.0;
    p.table4_1_bytes = 4.5e9;
    return p;
  }

  void check_input(const std::uint8_t*, std::size_t) const override {}  // any bytes are a text

  // A word ends where a non-space byte is followed by a space or the end.
  std::unique_ptr<Output> reference(const Params&, const std::uint8_t* data,
                                    std::size_t size) const override {
    std::int64_t lines = 0, words = 0;
    bool in_word = false;
    for (std::size_t i = 0; i < size; ++i) {
      if (data[i] == '\n') ++lines;
      if (is_space(data[i])) {
        if (in_word) ++words;
        in_word = false;
      } else {
        in_word = true;
      }
    }
    if (in_word) ++words;
    return std::make_unique<CountsOutput>(CountsOutput(
        {{"lines", lines}, {"words", words}, {"bytes", static_cast<std::int64_t>(size)}}));
  }

  // Each thread counts newlines and word starts (a non-space byte after a
  // space, or at offset 0) in its own piece; the sums are the answer. The
  // loop carries no state from byte to byte (it rereads the byte before), so
  // the compiler vectorizes it (count_range).
  std::unique_ptr<Output> run_cpu(const Params&, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const auto cuts = even_cuts(size, threads);
    std::atomic<std::int64_t> lines{0}, words{0};
    parallel_for(threads, [&](unsigned t) {
      const std::size_t begin = cuts[t], end = cuts[t + 1];
      if (begin == end) return;
      std::uint64_t l = 0, w = 0;
      std::size_t i = begin;
      if (i == 0) {  // the first byte has no byte before it
        l += data[0] == '\n';
        w += !is_space(data[0]);
        i = 1;
      }
      count_range(data, i, end, l, w);
      lines += static_cast<std::int64_t>(l);
      words += static_cast<std::int64_t>(w);
    });
    return std::make_unique<CountsOutput>(
        CountsOutput({{"lines", lines.load()},
                      {"words", words.load()},
                      {"bytes", static_cast<std::int64_t>(size)}}));
  }

  AccessShare access_share(const Params&, const std::uint8_t* data,
                           std::size_t size) const override {
    AccessMap map(size);
    map.read(0, size);  // every byte is classified
    return map.share(static_cast<std::uint64_t>(std::count(data, data + size, '\n')));  // lines
  }
};

}  // namespace

const Workload& wc_workload() {
  static const Wc w;
  return w;
}

}  // namespace harness::workloads
