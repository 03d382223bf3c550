#include "harness/core/validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "harness/core/errors.h"
#include "harness/core/parallel_sort.h"

namespace harness {

void check_policy(const ValidationPolicy& p) {
  if (p.kind != "exact" && p.kind != "set" && p.kind != "tolerance" && p.kind != "sanity")
    throw UsageError("unknown validation kind '" + p.kind +
                     "' (known: exact, set, tolerance, sanity)");
  if (!(p.rel >= 0) || !(p.abs >= 0))
    throw UsageError("validation tolerances must be non-negative numbers");
  if (p.kind == "tolerance" && p.rel == 0 && p.abs == 0)
    throw UsageError("a tolerance validation needs 'rel' or 'abs' greater than 0");
}

bool within_tolerance(double expected, double actual, const ValidationPolicy& policy) {
  return std::isfinite(actual) &&
         std::fabs(actual - expected) <= policy.abs + policy.rel * std::fabs(expected);
}

std::string compare_within_tolerance(std::span<const double> expected,
                                     std::span<const double> actual,
                                     const ValidationPolicy& policy) {
  if (expected.size() != actual.size())
    return fmt::format("expected {} values, got {}", expected.size(), actual.size());
  std::size_t bad = 0;
  std::string first;
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double e = expected[i], a = actual[i];
    if (e != 0 && std::isfinite(a)) worst = std::max(worst, std::fabs(a - e) / std::fabs(e));
    if (within_tolerance(e, a, policy)) continue;
    if (++bad <= 3) {
      first +=
          fmt::format("{}[{}] expected {:.9g}, got {:.9g}", first.empty() ? "" : "; ", i, e, a);
    }
  }
  if (bad == 0) return "";
  return fmt::format(
      "{} of {} values outside rel {:g} / abs {:g}: {}{} (largest relative error {:.3g})", bad,
      expected.size(), policy.rel, policy.abs, first, bad > 3 ? "; ..." : "", worst);
}

std::string escape_bytes(const std::string& raw, std::size_t max) {
  std::string out;
  for (unsigned char c : raw) {
    if (out.size() >= max) return out + "...";
    if (c >= 0x20 && c < 0x7f && c != '\\')
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

std::string compare_as_sets(Pairs expected, Pairs actual) {
  parallel_sort(expected);
  parallel_sort(actual);
  Pairs missing, extra;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                      std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  if (missing.empty() && extra.empty()) return "";
  auto list = [](const Pairs& ps) {
    std::string s;
    for (std::size_t i = 0; i < ps.size() && i < 3; ++i)
      s += fmt::format("{}({}, {})", i ? " " : "", escape_bytes(ps[i].first),
                       escape_bytes(ps[i].second));
    return s + (ps.size() > 3 ? " ..." : "");
  };
  std::string msg = fmt::format("expected {} pairs, got {}", expected.size(), actual.size());
  if (!missing.empty()) msg += fmt::format("; {} missing: {}", missing.size(), list(missing));
  if (!extra.empty()) msg += fmt::format("; {} unexpected: {}", extra.size(), list(extra));
  return msg;
}

std::string check_sane(const std::map<std::string, double>& values) {
  std::string bad;
  for (const auto& [name, v] : values) {
    if (std::isfinite(v) && v > 0) continue;
    bad += fmt::format("{}{} = {}", bad.empty() ? "" : ", ", name, v);
  }
  return bad.empty() ? "" : "not positive and finite: " + bad;
}

}  // namespace harness
