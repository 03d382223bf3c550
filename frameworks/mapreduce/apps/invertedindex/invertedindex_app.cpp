// Inverted index, host side: records (lines), the side data (the byte offsets
// of the page starts), the CPU reference (its own line-by-line parse of the
// link rule, written without the dialect function).
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"

namespace harness::apps {

const DialectFacts& invertedindex_dialect_facts();  // invertedindex_facts.cpp

namespace {

// A page starts at byte 0 and at every line that begins with this marker.
constexpr std::string_view kPageMarker = "<!-- page:";
static_assert(kPageMarker[1] == '!', "side_data finds markers by their '!'");

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// The href values of the anchors of one line (without its '\n'), in order.
class LineLinks {
 public:
  explicit LineLinks(std::string_view line) : s_(line) {}

  template <class Fn>
  void each(Fn&& fn) {
    for (;;) {
      const std::size_t lt = s_.find('<', at_);
      if (lt == std::string_view::npos || lt + 2 >= s_.size()) return;
      at_ = lt + 1;
      if (lower(s_[lt + 1]) != 'a' || !space(s_[lt + 2])) continue;
      at_ = lt + 3;
      if (!anchor(fn)) return;  // an open quote ends the line
    }
  }

 private:
  // Reads one tag's attributes from at_; false when a quote is left open.
  template <class Fn>
  bool anchor(Fn&& fn) {
    bool linked = false;
    while (at_ < s_.size()) {
      const char c = s_[at_];
      if (space(c) || c == '/') {
        ++at_;
        continue;
      }
      if (c == '>') {
        ++at_;
        return true;
      }
      const std::size_t name_start = at_++;
      while (at_ < s_.size() && !space(s_[at_]) && s_[at_] != '/' && s_[at_] != '>' &&
             s_[at_] != '=')
        ++at_;
      const std::string_view name = s_.substr(name_start, at_ - name_start);
      skip_space();
      if (at_ == s_.size() || s_[at_] != '=') continue;
      ++at_;
      skip_space();
      std::string_view value;
      if (at_ < s_.size() && (s_[at_] == '"' || s_[at_] == '\'')) {
        const std::size_t close = s_.find(s_[at_], at_ + 1);
        if (close == std::string_view::npos) return false;
        value = s_.substr(at_ + 1, close - at_ - 1);
        at_ = close + 1;
      } else {
        const std::size_t start = at_;
        while (at_ < s_.size() && !space(s_[at_]) && s_[at_] != '>') ++at_;
        value = s_.substr(start, at_ - start);
      }
      if (!linked && iequals(name, "href")) {
        linked = true;
        fn(value);
      }
    }
    return true;
  }
  void skip_space() {
    while (at_ < s_.size() && space(s_[at_])) ++at_;
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

class InvertedIndex final : public MapReduceApp {
 public:
  std::string name() const override { return "invertedindex"; }
  std::string description() const override {
    return "links of HTML pages: map-only, emits (href of every <a> tag, byte offset of its page); "
           "pages start at lines beginning '<!-- page:'";
  }
  std::string default_dataset() const override { return "html-zipf"; }
  const DialectFacts* dialect() const override { return &invertedindex_dialect_facts(); }
  bool map_keys_repeat() const override { return true; }  // a URL's links across pages
  ValidationPolicy validation() const override { return {"set", 0, 0}; }

  // Records are lines, whole: the link rule is per line.
  std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                           std::size_t size) const override {
    check_input_size(*this, size);
    return split_lines(data, size);
  }
  // So runtimes may find the lines on the device (no host split).
  bool records_are_lines() const override { return true; }

  // The byte offsets of the page starts, ascending, as u32 (the first is 0).
  // Found on every core, each a piece of whole lines (a serial scan took
  // most of the 55-63 ms of preprocessing at 128 MiB on an H100's host).
  std::vector<std::uint8_t> side_data(const Params&, const std::uint8_t* data,
                                      std::size_t size) const override {
    check_input_size(*this, size);
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::uint32_t> starts{0};
    append_over_line_pieces(
        data, size,
        [&](std::size_t piece_begin, std::size_t end, std::vector<std::uint32_t>& part) {
          // The page starts s in [piece_begin, end), s > 0: a marker after a
          // newline. memchr finds the marker's '!' (rare in HTML), then the
          // rest is compared: 3x faster than string_view::find of "\n<!--",
          // which stops at every newline (128 MiB on one core here: 14 ms
          // against 44).
          const std::size_t begin = std::max<std::size_t>(piece_begin, 1);
          const char* base = text.data();
          const char* last = base + std::min(size, end + 1);
          for (const char* at = base + begin + 1; at < last;) {
            const auto* bang = static_cast<const char*>(std::memchr(at, '!', last - at));
            if (!bang) break;
            const std::size_t start = static_cast<std::size_t>(bang - base) - 1;
            if (base[start - 1] == '\n' &&
                text.compare(start, kPageMarker.size(), kPageMarker) == 0)
              part.push_back(static_cast<std::uint32_t>(start));
            at = bang + 1;
          }
        },
        starts);
    std::vector<std::uint8_t> out(starts.size() * 4);
    std::memcpy(out.data(), starts.data(), out.size());
    return out;
  }

  KeyValueList reference(const Params&, const std::uint8_t* data, std::size_t size) const override {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    KeyValueList out;
    std::uint32_t page = 0;
    std::size_t line = 0;
    while (line < size) {
      std::size_t nl = text.find('\n', line);
      if (nl == std::string_view::npos) nl = size;
      const std::string_view s = text.substr(line, nl - line);
      if (s.substr(0, kPageMarker.size()) == kPageMarker) page = static_cast<std::uint32_t>(line);
      const std::string value = raw_bytes(page);
      LineLinks(s).each([&](std::string_view url) { out.emplace_back(std::string(url), value); });
      line = nl + 1;
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
};

}  // namespace

const MapReduceApp& invertedindex_app() {
  static const InvertedIndex app;
  return app;
}

}  // namespace harness::apps
