// word-count on the SePo table (combining) and MapCG: record = a line (the
// index's offsets, and the input's size last), pairs = its words, each
// (word lower-cased, 1), added (apps/word_count.clh).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "frameworks/hashtable/sepo_app.h"
#include "frameworks/workloads/word_count/word_count_format.h"
#include "harness/core/errors.h"
#include "harness/core/parallel.h"

namespace harness::hashtable {
namespace {

namespace wc = workloads::word_count;

// apps/word_count.clh's HT_KEY_WORDS x 4.
constexpr std::uint32_t kMaxWordBytes = 64;
static_assert(kMaxWordBytes == wc::kMaxWordBytes, "the workload's check is the kernel's limit");

class WordCountApp final : public SepoApp {
 public:
  std::string name() const override { return wc::kApp; }
  std::string kernel_file() const override { return "frameworks/hashtable/apps/word_count.clh"; }
  bool multi_pair() const override { return true; }
  // The lines, their words and the distinct words counted (untimed): the
  // heap's and MapCG's bounds take pairs and keys, not records.
  RecordShape shape(const std::uint8_t* data, std::size_t size) const override {
    RecordShape s;
    s.value_bytes = 4;
    std::uint64_t line = 1;
    std::unordered_set<std::string> distinct;
    for (std::size_t at = 0; at < size;) {
      if (!wc::is_letter(data[at])) {
        if (data[at] == '\n') ++line;
        ++at;
        continue;
      }
      const std::size_t start = at;
      while (at < size && wc::is_letter(data[at])) ++at;
      const auto bytes = static_cast<std::uint32_t>(std::min<std::size_t>(at - start, 1u << 30));
      if (bytes > kMaxWordBytes)
        throw RunError(fmt::format(
            "hashtable: word-count line {} (byte {}) has a word of {} letters; the table's "
            "kernel takes words of at most {} bytes",
            line, start, bytes, kMaxWordBytes));
      ++s.pair_count;
      std::string word(reinterpret_cast<const char*>(data + start), bytes);
      for (char& c : word) c = wc::lower(static_cast<std::uint8_t>(c));
      if (distinct.insert(std::move(word)).second) s.distinct_key_bytes += bytes;
      s.max_key_bytes = std::max(s.max_key_bytes, bytes);
      s.key_bytes_total += bytes;
    }
    s.distinct_keys = distinct.size();
    s.records = line - (size == 0 || data[size - 1] == '\n' ? 1 : 0);
    if (s.pair_count == 0) s.max_key_bytes = 4;  // no entry is made; sizes stay meaningful
    return s;
  }
  bool indexed() const override { return true; }
  // Every line's first byte (empty lines too: they make no pair), then the
  // input's size.
  void index(const std::uint8_t* data, std::size_t size,
             std::vector<std::uint64_t>& out) const override {
    out.clear();
    for (std::size_t at = 0; at < size;) {
      out.push_back(at);
      const auto* nl = static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', size - at));
      at = nl ? static_cast<std::size_t>(nl - data) + 1 : size;
    }
    out.push_back(size);
  }
  // Each worker walks a range of buckets; a word's entries (one per
  // iteration that inserted it) share its bucket's chain and are added up
  // there, so each worker's rows are distinct words, appended into one table
  // (sorted by finish(), untimed).
  std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> heads, Organization org,
                                             std::uint64_t& entries) const override {
    struct Count {
      std::string_view word;
      std::int64_t count;
    };
    const unsigned workers = workers_for(heads.size(), 0, 16384);
    std::vector<workloads::TableOutput> rows;
    for (unsigned w = 0; w < workers; ++w) rows.emplace_back(1, 0, false);
    entries = walk_buckets_parallel(
        heads, workers,
        [&rows](unsigned w, std::span<const HostEntry> chain) {
          thread_local std::vector<Count> words;
          words.clear();
          for (const HostEntry& e : chain)
            words.push_back({{reinterpret_cast<const char*>(e.key), e.key_bytes}, e.value[0]});
          if (words.size() > 1)
            std::sort(words.begin(), words.end(),
                      [](const Count& a, const Count& b) { return a.word < b.word; });
          for (std::size_t i = 0; i < words.size();) {
            std::int64_t n[1] = {0};
            std::size_t j = i;
            for (; j < words.size() && words[j].word == words[i].word; ++j) n[0] += words[j].count;
            rows[w].add(words[i].word, n);
            i = j;
          }
        },
        org);
    auto out = std::make_unique<workloads::TableOutput>(1, 0, false);
    for (workloads::TableOutput& r : rows) out->append(std::move(r));
    return out;
  }
};

}  // namespace

const SepoApp& word_count_app() {
  static const WordCountApp app;
  return app;
}

}  // namespace harness::hashtable
