// Inverted index, host side: records (lines), the side data (the byte offsets
// of the page starts), the CPU reference (its own line-by-line parse of the
// link rule, written without the dialect function). The page and link rules
// are the inverted-index workload's (frameworks/workloads/inverted_index/
// html_links.h), shared.
#include <cstring>
#include <string_view>
#include <vector>

#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/records.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/workloads/inverted_index/html_links.h"

namespace harness::apps {

const DialectFacts& invertedindex_dialect_facts();  // invertedindex_facts.cpp

namespace {

using workloads::inverted_index::LineLinks;
using workloads::inverted_index::page_starts;
using workloads::inverted_index::starts_page;

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
    const std::vector<std::uint32_t> starts = page_starts<std::uint32_t>(data, size);
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
      if (starts_page(s)) page = static_cast<std::uint32_t>(line);
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
