// Word count, host side: record splitting, the CPU reference, value format.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"

namespace harness::apps {

const DialectFacts& wordcount_dialect_facts();  // wordcount_facts.cpp

namespace {

bool is_letter(std::uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// Longest record handed to one map call: long lines are cut at a non-letter
// byte so that no word spans two records.
constexpr std::size_t kMaxRecordBytes = 4096;

bool can_cut(std::uint8_t before, std::uint8_t after) {
  return !(is_letter(before) && is_letter(after));
}

class WordCount final : public MapReduceApp {
 public:
  std::string name() const override { return "wordcount"; }
  std::string description() const override {
    return "count words (maximal runs of ASCII letters, lower-cased); map emits (word, 1), reduce "
           "sums";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  const DialectFacts* dialect() const override { return &wordcount_dialect_facts(); }

  // Records are lines; a line longer than kMaxRecordBytes is cut at the first
  // non-letter byte past that length.
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size, kMaxRecordBytes, &can_cut);
  }

  KeyValueList reference(const Params& /*params*/, const std::uint8_t* data,
                         std::size_t size) const override {
    std::unordered_map<std::string, std::uint32_t> counts;
    std::string word;
    for (std::size_t i = 0; i <= size; ++i) {
      if (i < size && is_letter(data[i])) {
        char c = static_cast<char>(data[i]);
        word.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
      } else if (!word.empty()) {
        ++counts[word];
        word.clear();
      }
    }
    KeyValueList out;
    out.reserve(counts.size());
    for (auto& [w, n] : counts) out.emplace_back(w, raw_bytes(n));
    sort_by_key(out);
    return out;
  }

  std::string format_value(std::string_view raw) const override {
    return std::to_string(from_raw<std::uint32_t>(raw));
  }
  // No word spans a line end.
  bool splits_at_lines() const override { return true; }
  // Before any byte that is not a letter (wordcount.clh: app_is_separator).
  std::size_t cut_at_or_after(const std::uint8_t* data, std::size_t size,
                              std::size_t at) const override {
    while (at < size && is_letter(data[at])) ++at;
    return at;
  }
  // A word counted in two parts of the input: the counts add.
  std::string merge_values(std::string_view a, std::string_view b) const override {
    return raw_bytes(from_raw<std::uint32_t>(a) + from_raw<std::uint32_t>(b));
  }
};

}  // namespace

const MapReduceApp& wordcount_app() {
  static const WordCount app;
  return app;
}

}  // namespace harness::apps
