#include "harness/core/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/results.h"
#include "harness/core/stats.h"

namespace harness {
namespace {

using nlohmann::json;

constexpr double kAlpha = 0.05;

json load_document(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw UsageError(fmt::format("compare: '{}' is a directory, not a results file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError(
        fmt::format("compare: cannot read results file '{}': {}", path, std::strerror(errno)));
  }
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw UsageError(fmt::format("compare: '{}' is not valid JSON: {}", path, e.what()));
  }
  if (!doc.is_object()) {
    throw UsageError(
        fmt::format("compare: '{}' is not a results document (not a JSON object)", path));
  }
  const auto version = doc.find("schema_version");
  if (version == doc.end()) {
    throw UsageError(fmt::format(
        "compare: '{}' has no schema_version; it is not a harness results document", path));
  }
  if (!version->is_number_integer() || version->get<long long>() < kOldestReadableSchemaVersion ||
      version->get<long long>() > kResultsSchemaVersion) {
    throw UsageError(
        fmt::format("compare: '{}' has schema_version {}; this harness reads versions {} to {}",
                    path, version->dump(), kOldestReadableSchemaVersion, kResultsSchemaVersion));
  }
  const auto points = doc.find("points");
  if (points == doc.end() || !points->is_array()) {
    throw UsageError(fmt::format("compare: '{}' has no \"points\" array", path));
  }
  return doc;
}

struct Point {
  std::string key;
  std::string status;           // "ok", "failed", "error" or "" when absent
  std::vector<double> samples;  // the metric, one value per repetition that has it
};

struct Document {
  std::string path;
  std::string description;                   // experiment id, git sha, host
  std::vector<Point> points;                 // file order, one per key (the last occurrence wins)
  std::map<std::string, std::size_t> index;  // key -> position in points
  std::vector<std::string> duplicate_keys;
  std::set<std::string> phases;  // every phase name seen, for error messages
};

std::string string_at(const json& j, const char* field) {
  const auto it = j.find(field);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Document read_document(const std::string& path, const std::string& metric) {
  const json doc = load_document(path);
  Document d;
  d.path = path;

  std::vector<std::string> parts;
  if (const auto e = doc.find("experiment"); e != doc.end() && e->is_object()) {
    if (auto id = string_at(*e, "id"); !id.empty()) parts.push_back(id);
  }
  if (const auto env = doc.find("environment"); env != doc.end() && env->is_object()) {
    if (auto sha = string_at(*env, "git_sha"); !sha.empty()) parts.push_back("git " + sha);
    if (const auto host = env->find("host"); host != env->end() && host->is_object()) {
      if (auto name = string_at(*host, "hostname"); !name.empty()) parts.push_back("host " + name);
    }
  }
  if (const auto c = doc.find("complete"); c != doc.end() && c->is_boolean() && !c->get<bool>()) {
    parts.emplace_back("INCOMPLETE run");
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    d.description += (i ? ", " : "") + parts[i];
  }

  for (const json& p : doc.at("points")) {
    if (!p.is_object()) continue;
    Point point;
    point.key = string_at(p, "key");
    if (point.key.empty()) continue;
    point.status = string_at(p, "status");
    if (const auto reps = p.find("repetitions"); reps != p.end() && reps->is_array()) {
      for (const json& rep : *reps) {
        if (!rep.is_object()) continue;
        const json* value = nullptr;
        if (const auto phases = rep.find("phases_ms"); phases != rep.end() && phases->is_object()) {
          for (const auto& [name, v] : phases->items()) d.phases.insert(name);
          if (metric != "total_ms") {
            if (const auto v = phases->find(metric); v != phases->end()) value = &*v;
          }
        }
        if (metric == "total_ms") {
          if (const auto v = rep.find("total_ms"); v != rep.end()) value = &*v;
        }
        if (value != nullptr && value->is_number()) point.samples.push_back(value->get<double>());
      }
    }
    if (const auto it = d.index.find(point.key); it != d.index.end()) {
      d.duplicate_keys.push_back(point.key);
      d.points[it->second] = std::move(point);
    } else {
      d.index.emplace(point.key, d.points.size());
      d.points.push_back(std::move(point));
    }
  }
  return d;
}

std::string format_ms(double v) {
  if (!std::isfinite(v)) return "n/a";
  const double a = std::fabs(v);
  if (a >= 1000.0) return fmt::format("{:.1f}", v);
  if (a >= 1.0) return fmt::format("{:.3f}", v);
  if (a >= 0.001 || a == 0.0) return fmt::format("{:.4f}", v);
  return fmt::format("{:.3g}", v);
}

std::string format_ratio(double v) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return "inf";
  return fmt::format("{:.2f}", v);
}

std::string format_p(double p) {
  if (std::isnan(p)) return "n/a";
  if (p < 0.0001) return "<0.0001";
  return fmt::format("{:.4f}", p);
}

// Smallest two-sided Mann-Whitney p-value possible for sample sizes n1, n2:
// complete separation, 2 / C(n1 + n2, n1) (the exact distribution).
double smallest_p(std::size_t n1, std::size_t n2) {
  double c = 1.0;  // C(n1 + n2, min(n1, n2)), built incrementally
  const std::size_t k = std::min(n1, n2);
  for (std::size_t i = 1; i <= k; ++i) {
    c = c * static_cast<double>(n1 + n2 - k + i) / static_cast<double>(i);
  }
  return std::min(1.0, 2.0 / c);
}

struct Row {
  std::string key, n_a, median_a, n_b, median_b, ratio, speedup, interval, p, mark;
};

}  // namespace

int compare_results(const std::string& path_a, const std::string& path_b, const std::string& metric,
                    std::ostream& out) {
  if (metric.empty()) throw UsageError("compare: the metric name is empty");
  const Document a = read_document(path_a, metric);
  const Document b = read_document(path_b, metric);

  const auto has_samples = [](const Document& d) {
    return std::any_of(d.points.begin(), d.points.end(),
                       [](const Point& p) { return !p.samples.empty(); });
  };
  if (metric != "total_ms" && !has_samples(a) && !has_samples(b)) {
    std::set<std::string> phases = a.phases;
    phases.insert(b.phases.begin(), b.phases.end());
    std::string known;
    for (const auto& name : phases) known += (known.empty() ? "" : ", ") + name;
    throw UsageError(
        fmt::format("compare: no repetition in '{}' or '{}' has phase '{}' "
                    "(metrics: total_ms{}{})",
                    path_a, path_b, metric, known.empty() ? "" : ", ", known));
  }

  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Row> rows;
  std::vector<std::string> only_a, only_b;
  double log_sum = 0.0;
  std::size_t log_count = 0;
  std::size_t significant_faster = 0, significant_slower = 0, not_comparable = 0;
  bool too_few_for_p = false;  // some pair where even complete separation gives p >= alpha

  for (const Point& pa : a.points) {
    const auto it = b.index.find(pa.key);
    if (it == b.index.end()) {
      only_a.push_back(pa.key);
      continue;
    }
    const Point& pb = b.points[it->second];
    Row row;
    row.key = pa.key;
    row.n_a = std::to_string(pa.samples.size());
    row.n_b = std::to_string(pb.samples.size());
    const double med_a = pa.samples.empty() ? nan : stats::median(pa.samples);
    const double med_b = pb.samples.empty() ? nan : stats::median(pb.samples);
    row.median_a = format_ms(med_a);
    row.median_b = format_ms(med_b);
    if (!pa.samples.empty() && !pb.samples.empty()) {
      const double ratio = med_a != 0.0 ? med_b / med_a : nan;
      const double speedup = med_b != 0.0 ? med_a / med_b : nan;
      row.ratio = format_ratio(ratio);
      row.speedup = std::isnan(speedup) ? "n/a" : format_ratio(speedup) + "x";
      const stats::Interval ci = stats::bootstrap_ratio_of_medians(pb.samples, pa.samples);
      row.interval = fmt::format("[{}, {}]", format_ratio(ci.low), format_ratio(ci.high));
      const double p = stats::mann_whitney_p(pa.samples, pb.samples);
      row.p = format_p(p);
      if (p < kAlpha && med_b < med_a) {
        row.mark = "faster";
        ++significant_faster;
      } else if (p < kAlpha && med_b > med_a) {
        row.mark = "slower";
        ++significant_slower;
      } else {
        row.mark = "~";
      }
      if (smallest_p(pa.samples.size(), pb.samples.size()) >= kAlpha) too_few_for_p = true;
      if (std::isfinite(speedup) && speedup > 0.0) {
        log_sum += std::log(speedup);
        ++log_count;
      }
    } else {
      row.ratio = row.speedup = row.interval = row.p = "n/a";
      row.mark = "";
      ++not_comparable;
    }
    std::string notes;
    if (!pa.status.empty() && pa.status != "ok") notes += "A " + pa.status;
    if (!pb.status.empty() && pb.status != "ok")
      notes += (notes.empty() ? "" : ", ") + ("B " + pb.status);
    if (!notes.empty()) row.mark += (row.mark.empty() ? "(" : " (") + notes + ")";
    rows.push_back(std::move(row));
  }
  for (const Point& pb : b.points) {
    if (a.index.find(pb.key) == a.index.end()) only_b.push_back(pb.key);
  }

  out << fmt::format("Comparing {} ({}), B relative to A\n", metric,
                     "milliseconds, median of repetitions");
  out << fmt::format("  A: {}{}\n", a.path,
                     a.description.empty() ? "" : "  [" + a.description + "]");
  out << fmt::format("  B: {}{}\n", b.path,
                     b.description.empty() ? "" : "  [" + b.description + "]");
  out << "  B/A < 1 means B is faster; speedup = A/B with its 95% bootstrap interval;\n"
         "  p = two-sided Mann-Whitney U; mark = B faster/slower at p < 0.05, else ~.\n\n";

  const Row header{"key", "nA",      "median A", "nB", "median B",
                   "B/A", "speedup", "95% CI",   "p",  "mark"};
  std::size_t w_key = header.key.size(), w_ma = header.median_a.size(),
              w_mb = header.median_b.size();
  std::size_t w_na = header.n_a.size(), w_nb = header.n_b.size(), w_ratio = header.ratio.size();
  std::size_t w_speed = header.speedup.size(), w_ci = header.interval.size(), w_p = header.p.size();
  std::size_t w_mark = header.mark.size();
  for (const Row& r : rows) {
    w_key = std::max(w_key, r.key.size());
    w_na = std::max(w_na, r.n_a.size());
    w_ma = std::max(w_ma, r.median_a.size());
    w_nb = std::max(w_nb, r.n_b.size());
    w_mb = std::max(w_mb, r.median_b.size());
    w_ratio = std::max(w_ratio, r.ratio.size());
    w_speed = std::max(w_speed, r.speedup.size());
    w_ci = std::max(w_ci, r.interval.size());
    w_p = std::max(w_p, r.p.size());
    w_mark = std::max(w_mark, r.mark.size());
  }
  const auto print_row = [&](const Row& r) {
    std::string line =
        fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}  {:>{}}  {}",
                    r.key, w_key, r.n_a, w_na, r.median_a, w_ma, r.n_b, w_nb, r.median_b, w_mb,
                    r.ratio, w_ratio, r.speedup, w_speed, r.interval, w_ci, r.p, w_p, r.mark);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };

  if (rows.empty()) {
    out << "No point key appears in both files.\n";
  } else {
    print_row(header);
    const std::size_t rule =
        w_key + w_na + w_ma + w_nb + w_mb + w_ratio + w_speed + w_ci + w_p + w_mark + 9 * 2;
    out << std::string(rule, '-') << '\n';
    for (const Row& r : rows) print_row(r);
  }

  out << '\n'
      << fmt::format(
             "{} matched point(s): B faster on {}, slower on {}, no significant difference on {}",
             rows.size(), significant_faster, significant_slower,
             rows.size() - significant_faster - significant_slower - not_comparable)
      << (not_comparable
              ? fmt::format(", no {} samples on both sides for {}", metric, not_comparable)
              : "")
      << ".\n";
  if (too_few_for_p) {
    out << "note: with so few repetitions even completely separated samples give p >= 0.05; "
           "use 5 or more (--reps) for significance marks.\n";
  }
  if (log_count > 0) {
    out << fmt::format("Geometric mean speedup A/B over {} point(s): {:.2f}x\n", log_count,
                       std::exp(log_sum / static_cast<double>(log_count)));
  }
  const auto list_only = [&out](const char* which, const std::string& path,
                                const std::vector<std::string>& keys) {
    if (keys.empty()) return;
    out << fmt::format("\nOnly in {} ({}): {} point(s)\n", which, path, keys.size());
    for (const auto& k : keys) out << "  " << k << '\n';
  };
  list_only("A", a.path, only_a);
  list_only("B", b.path, only_b);
  const auto list_duplicates = [&out](const char* which, const std::vector<std::string>& keys) {
    for (const auto& k : keys) {
      out << fmt::format(
          "note: key '{}' appears more than once in {}; the last occurrence is used\n", k, which);
    }
  };
  list_duplicates("A", a.duplicate_keys);
  list_duplicates("B", b.duplicate_keys);
  return 0;
}

}  // namespace harness
