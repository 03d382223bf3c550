#include "frameworks/apps/mapreduce_app.h"

#include <fmt/format.h>

#include <algorithm>

namespace harness::apps {

void sort_by_key(KeyValueList& list) {
  std::sort(list.begin(), list.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

namespace {
std::string printable(const std::string& key) {
  std::string out = key.size() > 40 ? key.substr(0, 40) + "..." : key;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return out;
}
}  // namespace

std::string compare_outputs(const MapReduceApp& app, const KeyValueList& expected,
                            const KeyValueList& actual) {
  std::size_t i = 0, j = 0, missing = 0, extra = 0, wrong = 0;
  std::string first;
  while (i < expected.size() || j < actual.size()) {
    if (j == actual.size() || (i < expected.size() && expected[i].first < actual[j].first)) {
      if (first.empty()) first = fmt::format("key '{}' missing", printable(expected[i].first));
      ++missing, ++i;
    } else if (i == expected.size() || actual[j].first < expected[i].first) {
      if (first.empty()) first = fmt::format("unexpected key '{}'", printable(actual[j].first));
      ++extra, ++j;
    } else {
      if (expected[i].second != actual[j].second) {
        if (first.empty()) {
          first =
              fmt::format("key '{}': expected {}, got {}", printable(expected[i].first),
                          app.format_value(expected[i].second), app.format_value(actual[j].second));
        }
        ++wrong;
      }
      ++i, ++j;
    }
  }
  if (missing + extra + wrong == 0) return {};
  return fmt::format("{} ({} wrong values, {} missing keys, {} unexpected keys; {} expected keys)",
                     first, wrong, missing, extra, expected.size());
}

}  // namespace harness::apps
