#include "frameworks/mapreduce/apps/mapreduce_app.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "harness/core/errors.h"
#include "harness/core/key_prefix.h"
#include "harness/core/parallel_sort.h"

namespace harness::apps {

Params MapReduceApp::resolve_params(const Params& given) const {
  const ParamDecls decls = params();
  Params out = defaults_of(decls);
  for (auto& [k, v] : out) {
    auto it = given.find(k);
    if (it != given.end()) v = it->second;
  }
  harness::check_params(decls, out);
  check_params(out);
  return out;
}

namespace {
const DialectFacts& facts_of(const MapReduceApp& app) {
  if (const DialectFacts* facts = app.dialect()) return *facts;
  throw std::logic_error("app '" + app.name() +
                         "' has no dialect facts (dialect()) and does not state its value "
                         "sizes and reduce itself");
}
}  // namespace

std::uint32_t MapReduceApp::value_size() const { return facts_of(*this).value_size; }
std::uint32_t MapReduceApp::output_value_size() const { return facts_of(*this).output_value_size; }
bool MapReduceApp::has_reduce() const { return facts_of(*this).has_reduce; }

std::string MapReduceApp::param(const Params& params, const std::string& name) const {
  auto it = params.find(name);
  if (it != params.end()) return it->second;
  const Params defaults = defaults_of(this->params());
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

namespace {
// Sorts the list by key bytes, then by value with value_less when given:
// (key prefix, value rank, index) entries are sorted on all cores, then the
// list is permuted, so most comparisons are integer compares: whole keys are
// compared only where prefixes tie, and values by their rank where the app
// has one (value_rank), else by value_less.
void sort_pairs(KeyValueList& list, const MapReduceApp* by_value) {
  const bool ranked =
      by_value && !list.empty() && by_value->value_rank(list.front().second).has_value();
  struct Entry {
    std::uint64_t key_prefix, value_rank;
    std::uint32_t index;
  };
  std::vector<Entry> order;
  order.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    order.push_back({key_prefix8(list[i].first),
                     ranked ? by_value->value_rank(list[i].second).value_or(0) : 0,
                     static_cast<std::uint32_t>(i)});
  }
  parallel_sort(order, [&](const Entry& x, const Entry& y) {
    if (x.key_prefix != y.key_prefix) return x.key_prefix < y.key_prefix;
    const auto& a = list[x.index];
    const auto& b = list[y.index];
    const int by_key = a.first.compare(b.first);
    if (by_key != 0) return by_key < 0;
    if (ranked)
      return x.value_rank != y.value_rank ? x.value_rank < y.value_rank : x.index < y.index;
    return by_value ? by_value->value_less(a.second, b.second) : x.index < y.index;
  });
  KeyValueList sorted;
  sorted.reserve(list.size());
  for (const Entry& e : order) sorted.push_back(std::move(list[e.index]));
  list = std::move(sorted);
}
}  // namespace

void sort_by_key(KeyValueList& list) { sort_pairs(list, nullptr); }

void sort_output(const MapReduceApp& app, KeyValueList& list) { sort_pairs(list, &app); }

namespace {
// Merges two lists in canonical order into one, folding a key found in both
// with merge_values when the app has a reduce (one pair per key in each).
KeyValueList merge_two(const MapReduceApp& app, KeyValueList a, KeyValueList b) {
  KeyValueList out;
  out.reserve(a.size() + b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int by_key = a[i].first.compare(b[j].first);
    if (by_key == 0 && app.has_reduce()) {
      out.emplace_back(std::move(a[i].first), app.merge_values(a[i].second, b[j].second));
      ++i, ++j;
    } else if (by_key < 0 || (by_key == 0 && !app.value_less(b[j].second, a[i].second))) {
      out.push_back(std::move(a[i++]));
    } else {
      out.push_back(std::move(b[j++]));
    }
  }
  for (; i < a.size(); ++i) out.push_back(std::move(a[i]));
  for (; j < b.size(); ++j) out.push_back(std::move(b[j]));
  return out;
}
}  // namespace

KeyValueList MapReduceApp::merge_outputs(std::vector<KeyValueList> parts) const {
  KeyValueList merged;
  for (KeyValueList& part : parts) merged = merge_two(*this, std::move(merged), std::move(part));
  return merged;
}

std::string MapReduceApp::merge_values(std::string_view /*a*/, std::string_view /*b*/) const {
  throw UsageError("app '" + name() +
                   "' has no merge of partial outputs (merge_values), so one input cannot be "
                   "split between runtimes");
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

namespace {
// Both lists in canonical order with the same identities at the same places
// and every number within tolerance: the common case, decided without
// building and sorting the views of millions of pairs (pairs with equal bytes
// need no view at all).
bool aligned_within(const MapReduceApp& app, const KeyValueList& expected,
                    const KeyValueList& actual, const ValidationPolicy& policy) {
  if (expected.size() != actual.size()) return false;
  std::vector<double> en, an;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == actual[i]) continue;
    en.clear(), an.clear();
    if (app.tolerant_view(expected[i].first, expected[i].second, en) !=
            app.tolerant_view(actual[i].first, actual[i].second, an) ||
        en.size() != an.size()) {
      return false;
    }
    for (std::size_t n = 0; n < en.size(); ++n) {
      if (!within_tolerance(en[n], an[n], policy)) return false;
    }
  }
  return true;
}

// One list's tolerant views, ordered by identity, then numbers.
struct Views {
  std::vector<std::string> identity;
  std::vector<std::size_t> first;  // view i's numbers: numbers[first[i] .. first[i + 1])
  std::vector<double> numbers;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // (prefix8, view)

  Views(const MapReduceApp& app, const KeyValueList& list) {
    identity.reserve(list.size());
    first.reserve(list.size() + 1);
    order.reserve(list.size());
    for (const auto& [k, v] : list) {
      first.push_back(numbers.size());
      identity.push_back(app.tolerant_view(k, v, numbers));
      order.emplace_back(key_prefix8(identity.back()), static_cast<std::uint32_t>(order.size()));
    }
    first.push_back(numbers.size());
    parallel_sort(order, [this](const auto& x, const auto& y) {
      if (x.first != y.first) return x.first < y.first;
      const std::uint32_t a = x.second, b = y.second;
      const int c = identity[a].compare(identity[b]);
      if (c != 0) return c < 0;
      return std::lexicographical_compare(at(a), at(a + 1), at(b), at(b + 1));
    });
  }
  std::vector<double>::const_iterator at(std::uint32_t i) const {
    return numbers.begin() + static_cast<std::ptrdiff_t>(first[i]);
  }
  std::uint32_t view(std::size_t rank) const { return order[rank].second; }
  std::size_t count(std::uint32_t i) const { return first[i + 1] - first[i]; }
};
}  // namespace

std::string compare_output_within(const MapReduceApp& app, const KeyValueList& expected,
                                  const KeyValueList& actual, const ValidationPolicy& policy) {
  if (aligned_within(app, expected, actual, policy)) return {};
  // Otherwise match identities as multisets, then compare their numbers.
  const Views e(app, expected), a(app, actual);
  bool same_identities = e.order.size() == a.order.size();
  for (std::size_t i = 0; same_identities && i < e.order.size(); ++i) {
    same_identities = e.identity[e.view(i)] == a.identity[a.view(i)];
  }
  if (!same_identities) {
    Pairs e_ids, a_ids;
    for (const auto& id : e.identity) e_ids.emplace_back(id, "");
    for (const auto& id : a.identity) a_ids.emplace_back(id, "");
    return compare_as_sets(std::move(e_ids), std::move(a_ids));
  }
  std::vector<double> en, an;
  for (std::size_t i = 0; i < e.order.size(); ++i) {
    const std::uint32_t x = e.view(i), y = a.view(i);
    if (e.count(x) != a.count(y)) {
      return fmt::format("'{}': expected {} numbers, got {}", escape_bytes(e.identity[x]),
                         e.count(x), a.count(y));
    }
    en.insert(en.end(), e.at(x), e.at(x + 1));
    an.insert(an.end(), a.at(y), a.at(y + 1));
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
