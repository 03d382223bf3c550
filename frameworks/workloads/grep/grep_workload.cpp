// Grep (thesis section 5.3): the offsets of the lines that match a pattern
// (grep_pattern.h), found by a recursive backtracking matcher, the thesis'
// divergent case.
#include <cstring>
#include <mutex>

#include "frameworks/workloads/access.h"
#include "frameworks/workloads/all_workloads.h"
#include "frameworks/workloads/grep/grep_pattern.h"
#include "frameworks/workloads/outputs.h"
#include "harness/core/line_pieces.h"

namespace harness::workloads {
namespace {

class Grep final : public Workload {
 public:
  std::string name() const override { return "grep"; }
  std::string description() const override {
    return "byte offsets of the lines matching a pattern (c . ^ $ x*), by a recursive "
           "backtracking matcher";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  std::string record_type() const override { return "variable"; }
  std::string chapters() const override { return "ch5"; }
  ParamDecls params() const override {
    return {string_param("pattern", "in.*on",
                         "Kernighan-Pike pattern: c, '.', '^' at the start, '$' at the end, x*")};
  }

  void check_input(const std::uint8_t*, std::size_t) const override {}  // any bytes are a text

  // Lines end at '\n'; a last line without one counts when not empty. The
  // state-set matcher line by line, over pieces of whole lines on every host
  // core (serially, 256 MiB took 6-8 s of every GPU point's preparation on an
  // H100's host); the pieces' offsets are joined in order.
  std::unique_ptr<Output> reference(const Params& params, const std::uint8_t* data,
                                    std::size_t size) const override {
    const grep::Pattern p = grep::parse_pattern(param_string(params, "pattern"));
    auto out = std::make_unique<OffsetsOutput>();
    append_over_line_pieces(
        data, size,
        [&](std::size_t start, std::size_t end, std::vector<std::uint64_t>& found) {
          for (std::size_t i = start; i <= end; ++i) {
            if (i < end && data[i] != '\n') continue;
            if (i == end && start == end) break;
            if (grep::state_set_match(p, data + start, i - start)) found.push_back(start);
            start = i + 1;
          }
        },
        out->offsets());
    return out;
  }

  std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data, std::size_t size,
                                  unsigned threads) const override {
    const grep::Pattern p = grep::parse_pattern(param_string(params, "pattern"));
    auto out = std::make_unique<OffsetsOutput>();
    append_over_line_pieces(
        data, size, threads,
        [&](std::size_t begin, std::size_t stop, std::vector<std::uint64_t>& found) {
          for (std::size_t at = begin; at < stop;) {
            const void* nl = std::memchr(data + at, '\n', stop - at);
            const std::size_t end =
                nl ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) : stop;
            if (grep::backtracking_match(p, data + at, end - at)) found.push_back(at);
            at = end + 1;
          }
        },
        out->offsets());
    return out;  // pieces in order, each ascending: already sorted
  }

  // Every byte is read: the matcher looks for each line's end.
  AccessShare access_share(const Params&, const std::uint8_t*, std::size_t size) const override {
    AccessMap map(size);
    map.read(0, size);
    return map.share(1);
  }
};

}  // namespace

const Workload& grep_workload() {
  static const Grep w;
  return w;
}

}  // namespace harness::workloads
