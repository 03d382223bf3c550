// Word count, host side: record splitting, the CPU reference, value format.
#include <algorithm>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "frameworks/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

bool is_letter(std::uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// Longest record handed to one map call: long lines are cut at a non-letter
// byte so that no word spans two records.
constexpr std::size_t kMaxRecordBytes = 4096;

// Appends the start offsets of the records in [begin, end); begin is a line start.
void split_range(const std::uint8_t* data, std::size_t begin, std::size_t end,
                 std::vector<std::uint32_t>& out) {
  out.reserve((end - begin) / 64 + 1);
  std::size_t start = begin;
  while (start < end) {
    const void* nl = std::memchr(data + start, '\n', std::min(end - start, kMaxRecordBytes));
    std::size_t stop;
    if (nl) {
      stop = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) + 1;
    } else {
      stop = std::min(end, start + kMaxRecordBytes);
      while (stop < end && is_letter(data[stop - 1]) && is_letter(data[stop])) ++stop;
    }
    out.push_back(static_cast<std::uint32_t>(start));
    start = stop;
  }
}

class WordCount final : public MapReduceApp {
 public:
  std::string name() const override { return "wordcount"; }
  std::string description() const override {
    return "count words (maximal runs of ASCII letters, lower-cased); map emits (word, 1), reduce "
           "sums";
  }
  std::string default_dataset() const override { return "text-zipf"; }
  std::uint32_t value_size() const override { return 4; }
  std::uint32_t output_value_size() const override { return 4; }
  bool has_reduce() const override { return true; }

  // Records are lines; a line longer than kMaxRecordBytes is cut at the first
  // non-letter byte past that length. Large inputs are split on all host
  // cores: each thread takes a run of whole lines, so the records are the same
  // as a serial split's.
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    if (size >= 0xffffffffu) throw RunError("word count input must be smaller than 4 GiB");
    const unsigned threads =
        size < (std::size_t{8} << 20) ? 1u : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::size_t> bounds{0};
    for (unsigned t = 1; t < threads; ++t) {
      std::size_t b = std::max(bounds.back(), size * t / threads);
      const void* nl = b < size ? std::memchr(data + b, '\n', size - b) : nullptr;
      if (!nl) break;
      bounds.push_back(static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) + 1);
    }
    bounds.push_back(size);
    std::vector<std::vector<std::uint32_t>> parts(bounds.size() - 1);
    std::vector<std::thread> pool;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      pool.emplace_back([&, p] { split_range(data, bounds[p], bounds[p + 1], parts[p]); });
    }
    for (auto& t : pool) t.join();
    std::vector<std::uint32_t> offsets;
    std::size_t total = 1;
    for (const auto& part : parts) total += part.size();
    offsets.reserve(total);
    for (const auto& part : parts) offsets.insert(offsets.end(), part.begin(), part.end());
    offsets.push_back(static_cast<std::uint32_t>(size));
    return offsets;
  }

  KeyValueList reference(const std::uint8_t* data, std::size_t size) const override {
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
    for (auto& [w, n] : counts)
      out.emplace_back(w, std::string(reinterpret_cast<const char*>(&n), 4));
    sort_by_key(out);
    return out;
  }

  std::string format_value(std::string_view raw) const override {
    std::uint32_t v = 0;
    std::memcpy(&v, raw.data(), std::min<std::size_t>(raw.size(), 4));
    return std::to_string(v);
  }
};

}  // namespace

const MapReduceApp& wordcount_app() {
  static const WordCount app;
  return app;
}

}  // namespace harness::apps
