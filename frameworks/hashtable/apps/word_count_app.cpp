// word-count on the SePo table (combining) and MapCG: record = a line (the
// index's offsets, and the input's size last), pairs = its words, each
// (word lower-cased, 1), added (apps/word_count.clh); the answer is walked
// by CountingApp.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "frameworks/hashtable/apps/counting_app.h"
#include "frameworks/workloads/word_count/word_count_format.h"
#include "harness/core/errors.h"
#include "harness/core/line_pieces.h"

namespace harness::hashtable {
namespace {

namespace wc = workloads::word_count;

// apps/word_count.clh's HT_KEY_WORDS x 4.
constexpr std::uint32_t kMaxWordBytes = 64;
static_assert(kMaxWordBytes == wc::kMaxWordBytes, "the workload's check is the kernel's limit");

class WordCountApp final : public CountingApp {
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
  DeviceLines device_lines() const override { return DeviceLines::every_line; }
  // Every line's first byte (empty lines too: they make no pair), found on
  // every core, then the input's size.
  void index(const std::uint8_t* data, std::size_t size,
             std::vector<std::uint64_t>& out) const override {
    out.clear();
    append_over_line_pieces(
        data, size,
        [data](std::size_t begin, std::size_t end, std::vector<std::uint64_t>& part) {
          for (std::size_t at = begin; at < end;) {
            part.push_back(at);
            const auto* nl =
                static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', end - at));
            at = nl ? static_cast<std::size_t>(nl - data) + 1 : end;
          }
        },
        out);
    out.push_back(size);
  }
};

}  // namespace

const SepoApp& word_count_app() {
  static const WordCountApp app;
  return app;
}

}  // namespace harness::hashtable
