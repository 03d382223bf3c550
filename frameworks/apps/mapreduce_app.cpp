#include "frameworks/apps/mapreduce_app.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"

namespace harness::apps {

Params MapReduceApp::resolve_params(const Params& given) const {
  Params out = default_params();
  for (auto& [k, v] : out) {
    auto it = given.find(k);
    if (it != given.end()) v = it->second;
  }
  check_params(out);
  return out;
}

std::string MapReduceApp::param(const Params& params, const std::string& name) const {
  auto it = params.find(name);
  if (it != params.end()) return it->second;
  const Params defaults = default_params();
  auto d = defaults.find(name);
  if (d == defaults.end())
    throw UsageError("app '" + this->name() + "' has no parameter '" + name + "'");
  return d->second;
}

void check_input_size(const MapReduceApp& app, std::size_t size) {
  if (size < kMaxInputBytes) return;
  throw RunError(fmt::format(
      "{}: the input has {} bytes; MapReduce record offsets are 32-bit, so inputs must be smaller "
      "than 4 GiB ({} bytes); split larger inputs (chunked runs are not implemented yet)",
      app.name(), size, kMaxInputBytes));
}

void sort_by_key(KeyValueList& list) {
  std::sort(list.begin(), list.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

void sort_output(const MapReduceApp& app, KeyValueList& list) {
  std::sort(list.begin(), list.end(), [&app](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return app.value_less(a.second, b.second);
  });
}

namespace {
std::string printable(const MapReduceApp& app, const std::string& raw) {
  const std::string key = app.format_key(raw);
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
      if (first.empty()) first = fmt::format("key '{}' missing", printable(app, expected[i].first));
      ++missing, ++i;
    } else if (i == expected.size() || actual[j].first < expected[i].first) {
      if (first.empty())
        first = fmt::format("unexpected key '{}'", printable(app, actual[j].first));
      ++extra, ++j;
    } else {
      if (expected[i].second != actual[j].second) {
        if (first.empty()) {
          first =
              fmt::format("key '{}': expected {}, got {}", printable(app, expected[i].first),
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

std::string compare_output_sets(const MapReduceApp& app, const KeyValueList& expected,
                                const KeyValueList& actual) {
  if (expected.size() == actual.size()) {  // fast path: equal canonical lists
    bool equal = true;
    for (std::size_t i = 0; i < expected.size() && equal; ++i) equal = expected[i] == actual[i];
    if (equal) return {};
  }
  auto formatted = [&app](const KeyValueList& list) {
    Pairs out;
    out.reserve(list.size());
    for (const auto& [k, v] : list) out.emplace_back(app.format_key(k), app.format_value(v));
    return out;
  };
  return compare_as_sets(formatted(expected), formatted(actual));
}

std::string compare_output_within(const MapReduceApp& app, const KeyValueList& expected,
                                  const KeyValueList& actual, const ValidationPolicy& policy) {
  // Identity -> numbers, sorted by identity (equal identities keep their order).
  using View = std::vector<MapReduceApp::TolerantPair>;
  auto view = [&app](const KeyValueList& list) {
    View out;
    out.reserve(list.size());
    for (const auto& [k, v] : list) out.push_back(app.tolerant_view(k, v));
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.identity < b.identity; });
    return out;
  };
  const View e = view(expected), a = view(actual);
  Pairs e_ids, a_ids;
  for (const auto& p : e) e_ids.emplace_back(p.identity, "");
  for (const auto& p : a) a_ids.emplace_back(p.identity, "");
  if (std::string diff = compare_as_sets(std::move(e_ids), std::move(a_ids)); !diff.empty()) {
    return diff;
  }
  std::vector<double> en, an;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].numbers.size() != a[i].numbers.size()) {
      return fmt::format("'{}': expected {} numbers, got {}", escape_bytes(e[i].identity),
                         e[i].numbers.size(), a[i].numbers.size());
    }
    en.insert(en.end(), e[i].numbers.begin(), e[i].numbers.end());
    an.insert(an.end(), a[i].numbers.begin(), a[i].numbers.end());
  }
  return compare_within_tolerance(en, an, policy);
}

std::string compare_by_policy(const MapReduceApp& app, const KeyValueList& expected,
                              const KeyValueList& actual, const ValidationPolicy& policy) {
  if (policy.kind == "exact") return compare_outputs(app, expected, actual);
  if (policy.kind == "set") return compare_output_sets(app, expected, actual);
  if (policy.kind == "tolerance") return compare_output_within(app, expected, actual, policy);
  throw UsageError("MapReduce app '" + app.name() + "' validates as 'exact', 'set' or " +
                   "'tolerance', not '" + policy.kind + "'");
}

}  // namespace harness::apps
