// String match, host side: the pattern parameter, records (lines), the side
// data (the pattern), the CPU reference (a plain scan of the whole input).
#include <cstring>
#include <string_view>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {

const DialectFacts& stringmatch_dialect_facts();  // stringmatch_facts.cpp

namespace {

class StringMatch final : public MapReduceApp {
 public:
  std::string name() const override { return "stringmatch"; }
  std::string description() const override {
    return "find every occurrence of --param pattern (byte-exact, case-sensitive, overlapping "
           "ones included); map-only, emits (pattern, byte offset)";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  const DialectFacts* dialect() const override { return &stringmatch_dialect_facts(); }

  // "glo" is text-zipf's third most frequent word for seed 42: about 17,700
  // matches per 4 MiB (README.md has patterns for other match counts).
  ParamDecls params() const override {
    ParamDecl pattern = string_param("pattern", "glo", "the text to find (no newline)");
    pattern.non_empty = true;
    return {pattern};
  }
  ValidationPolicy validation() const override { return {"set", 0, 0}; }

  // Records are lines, whole (a line of any length is one map task).
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size);
  }

  bool records_are_lines() const override { return true; }

  std::vector<std::uint8_t> side_data(const Params& params, const std::uint8_t*,
                                      std::size_t) const override {
    const std::string pattern = param(params, "pattern");
    check_params({{"pattern", pattern}});
    return {pattern.begin(), pattern.end()};
  }

  // Every offset where the pattern starts, by repeated search from the byte
  // after the previous match (overlapping matches count).
  KeyValueList reference(const Params& params, const std::uint8_t* data,
                         std::size_t size) const override {
    const std::string pattern = param(params, "pattern");
    check_params({{"pattern", pattern}});
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    KeyValueList out;
    for (std::size_t at = text.find(pattern); at != std::string_view::npos;
         at = text.find(pattern, at + 1)) {
      const auto offset = static_cast<std::uint32_t>(at);
      out.emplace_back(pattern, raw_bytes(offset));
    }
    return out;
  }

  std::string format_value(std::string_view raw) const override {
    return std::to_string(from_raw<std::uint32_t>(raw));
  }
  bool value_less(std::string_view a, std::string_view b) const override {
    return from_raw<std::uint32_t>(a) < from_raw<std::uint32_t>(b);
  }
  std::optional<std::uint64_t> value_rank(std::string_view raw) const override {
    return from_raw<std::uint32_t>(raw);
  }

 protected:
  void check_params(const Params& params) const override {
    const std::string& pattern = params.at("pattern");
    if (pattern.empty()) throw UsageError("stringmatch: parameter 'pattern' must not be empty");
    if (pattern.find('\n') != std::string::npos)
      throw UsageError("stringmatch: parameter 'pattern' must not contain a newline");
  }
};

}  // namespace

const MapReduceApp& stringmatch_app() {
  static const StringMatch app;
  return app;
}

}  // namespace harness::apps
