// The inverted index's reading of HTML (frameworks/mapreduce/apps/README.md,
// "Inverted index"), shared by the MapReduce app's reference
// (frameworks/mapreduce/apps/invertedindex) and the inverted-index workload:
// - pages: a page starts at byte 0 and at every line that begins with
//   kPageMarker; its id is the byte offset of its start;
// - links: each line (without its '\n') is read on its own; an anchor is `<a`
//   or `<A` followed by a space, tab, CR or form feed, its attributes read up
//   to `>` or the end of the line, and its first `href` attribute (any case)
//   that has a value is a link, the value taken as written (`href=""` is the
//   empty link). A quote left open drops the rest of the line.
// Header-only: the MapReduce apps (harness_frameworks) include it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "harness/core/line_pieces.h"

namespace harness::workloads::inverted_index {

// A page starts at byte 0 and at every line that begins with this marker (the
// html-zipf generator writes `<!-- page: NAME -->` before each page).
inline constexpr std::string_view kPageMarker = "<!-- page:";
static_assert(kPageMarker[1] == '!', "append_page_starts finds markers by their '!'");

// Whether a line (from its first byte) begins a page.
inline bool starts_page(std::string_view line) { return line.starts_with(kPageMarker); }

// Appends to `starts` the page starts s in [begin, end) with s > 0 (a marker
// right after a newline), ascending; [begin, end) is a piece of whole lines of
// data[0, size). memchr finds the marker's '!' (rare in HTML), then the rest
// is compared: 3x faster than string_view::find of "\n<!--", which stops at
// every newline (128 MiB on one core: 14 ms against 44).
template <class Offset>
void append_page_starts(const std::uint8_t* data, std::size_t size, std::size_t begin,
                        std::size_t end, std::vector<Offset>& starts) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const char* base = text.data();
  const char* last = base + std::min(size, end + 1);
  for (const char* at = base + std::max<std::size_t>(begin, 1) + 1; at < last;) {
    const auto* bang = static_cast<const char*>(std::memchr(at, '!', last - at));
    if (!bang) break;
    const std::size_t start = static_cast<std::size_t>(bang - base) - 1;
    if (base[start - 1] == '\n' && text.compare(start, kPageMarker.size(), kPageMarker) == 0)
      starts.push_back(static_cast<Offset>(start));
    at = bang + 1;
  }
}

// Every page start of data[0, size), ascending: 0, then each line start that
// begins with kPageMarker, found over `pieces` pieces of whole lines, each on
// its own thread (the MapReduce app's side data, the CPU-MT baseline's page
// numbers, S-L1's binary-searched page starts).
template <class Offset>
std::vector<Offset> page_starts(const std::uint8_t* data, std::size_t size, unsigned pieces = 0) {
  std::vector<Offset> starts{0};
  append_over_line_pieces(
      data, size, pieces ? pieces : default_line_pieces(size),
      [&](std::size_t begin, std::size_t end, std::vector<Offset>& part) {
        append_page_starts(data, size, begin, end, part);
      },
      starts);
  return starts;
}

// The href values of the anchors of one line (without its '\n'), in order.
// A line may be given from any byte up to its first '<' (the bytes before it
// change nothing).
class LineLinks {
 public:
  explicit LineLinks(std::string_view line) : s_(line) {}

  // fn(std::string_view link) for every link, in order; the views point into
  // the line.
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
  static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }
  static char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
  static bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
  }

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

}  // namespace harness::workloads::inverted_index
