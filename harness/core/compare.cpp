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
#include <optional>
#include <set>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/results.h"
#include "harness/core/sizes.h"
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
  std::string key;                            // as in the file, its size label in one spelling
  std::string status;                         // "ok", "failed", "error" or "" when absent
  std::vector<double> samples;                // the metric, one value per repetition that has it
  std::vector<std::string> segments;          // key split at '/'
  std::map<std::string, std::string> params;  // "params" (strings as they read)
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

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = s.find(sep, from);
    out.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return out;
    from = at + 1;
  }
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

// A point key: framework/variant/app/backend:index/dataset/size[/axis=value]...
constexpr std::size_t kFramework = 0, kVariant = 1, kApp = 2, kDevice = 3, kDataset = 4, kSize = 5;
constexpr std::size_t kKeyFields = 6;

// The size label in one spelling ("1 MiB", "1048576" -> "1MiB"); others as they are.
std::string normal_size(const std::string& label) {
  try {
    return format_size(parse_size(label));
  } catch (const UsageError&) {
    return label;
  }
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
  d.description = join(parts, ", ");

  for (const json& p : doc.at("points")) {
    if (!p.is_object()) continue;
    Point point;
    point.key = string_at(p, "key");
    if (point.key.empty()) continue;
    point.segments = split(point.key, '/');
    if (point.segments.size() >= kKeyFields) {
      point.segments[kSize] = normal_size(point.segments[kSize]);
      point.key = join(point.segments, "/");
    }
    if (const auto params = p.find("params"); params != p.end() && params->is_object()) {
      for (const auto& [k, v] : params->items())
        point.params[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
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

// One field of a point for --by: its value and the key segments it occupies
// (replaced by '*' in the key the two sides match on). No value: the point
// has no such field.
struct FieldValue {
  std::optional<std::string> value;
  std::vector<std::size_t> segments;
};

FieldValue field_of(const Point& p, const std::string& field) {
  const auto& s = p.segments;
  const bool keyed = s.size() >= kKeyFields;
  if (field == "variant" || field == "framework" || field == "app" || field == "backend" ||
      field == "device" || field == "dataset" || field == "size") {
    if (!keyed) return {};
    if (field == "variant") return {s[kFramework] + "/" + s[kVariant], {kFramework, kVariant}};
    if (field == "framework") return {s[kFramework], {kFramework}};
    if (field == "app") return {s[kApp], {kApp}};
    if (field == "backend") return {s[kDevice].substr(0, s[kDevice].find(':')), {kDevice}};
    if (field == "device") return {s[kDevice], {kDevice}};
    if (field == "dataset") return {s[kDataset], {kDataset}};
    return {s[kSize], {kSize}};
  }
  for (std::size_t i = keyed ? kKeyFields : s.size(); i < s.size(); ++i) {
    const auto eq = s[i].find('=');
    if (eq != std::string::npos && s[i].substr(0, eq) == field) return {s[i].substr(eq + 1), {i}};
  }
  if (const auto it = p.params.find(field); it != p.params.end()) return {it->second, {}};
  return {};
}

// A point's values of the --by fields (nullopt when it lacks one) and the
// key it matches on.
struct Selected {
  const Point* point;
  std::vector<std::string> values;
  std::string match_key;
};

std::optional<Selected> select(const Point& p, const std::vector<std::string>& fields) {
  Selected out{&p, {}, {}};
  std::vector<std::string> segments = p.segments;
  std::vector<bool> drop(segments.size(), false);
  for (const auto& f : fields) {
    FieldValue v = field_of(p, f);
    if (!v.value) return std::nullopt;
    out.values.push_back(*v.value);
    // A field's first segment becomes '*', its others go ("mars/default/wc" -> "*/wc").
    for (std::size_t k = 0; k < v.segments.size(); ++k) {
      segments[v.segments[k]] = "*";
      if (k > 0) drop[v.segments[k]] = true;
    }
  }
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (!drop[i]) kept.push_back(segments[i]);
  }
  out.match_key = join(kept, "/");
  return out;
}

// Whether the user's value names a point's value of `field` (a variant may be
// named without its framework).
bool names(const std::string& field, const std::string& given, const std::string& value) {
  if (given == value) return true;
  if (field == "variant") return value.substr(value.find('/') + 1) == given;
  if (field == "size") return normal_size(given) == value;
  return false;
}

bool names_all(const std::vector<std::string>& fields, const std::vector<std::string>& given,
               const std::vector<std::string>& values) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!names(fields[i], given[i], values[i])) return false;
  }
  return true;
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

// The field a key segment belongs to, for the nearest-key hint.
std::string segment_field(const Point& p, std::size_t i) {
  if (p.segments.size() < kKeyFields) return "key";
  if (i == kFramework || i == kVariant) return "variant";
  if (i == kApp) return "app";
  if (i == kDevice) return "device";
  if (i == kDataset) return "dataset";
  if (i == kSize) return "size";
  const auto eq = p.segments[i].find('=');
  return eq == std::string::npos ? "key" : p.segments[i].substr(0, eq);
}

// Distinct values of the --by fields among a document's points, in file order.
std::vector<std::string> values_in(const Document& d, const std::vector<std::string>& fields) {
  std::vector<std::string> out;
  for (const Point& p : d.points) {
    if (auto s = select(p, fields)) {
      const std::string v = join(s->values, ",");
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
  }
  return out;
}

// The value that selects one side: the user's, else the only one its file holds.
std::vector<std::string> side_value(const std::string& given, const std::string& which,
                                    const Document& d, const std::vector<std::string>& fields,
                                    const std::string& other_given, bool one_file) {
  const std::vector<std::string> present = values_in(d, fields);
  const std::string by = join(fields, ",");
  if (present.empty()) {
    throw UsageError(fmt::format("compare: no point of '{}' has {} {}", d.path,
                                 fields.size() > 1 ? "the fields" : "a", by));
  }
  std::string chosen = given;
  if (chosen.empty()) {
    std::vector<std::string> left = present;
    if (one_file && !other_given.empty()) {
      const auto other = split(other_given, ',');
      left.erase(std::remove_if(left.begin(), left.end(),
                                [&](const std::string& v) {
                                  return other.size() == fields.size() &&
                                         names_all(fields, other, split(v, ','));
                                }),
                 left.end());
    }
    if (left.size() != 1) {
      throw UsageError(
          fmt::format("compare: '{}' holds {} values of {} ({}): name side {} with --{}", d.path,
                      present.size(), by, join(present, ", "), which, which == "A" ? "a" : "b"));
    }
    chosen = left.front();
  }
  const auto parts = split(chosen, ',');
  if (parts.size() != fields.size()) {
    throw UsageError(fmt::format("compare: --{} '{}' needs one value for each of --by {}",
                                 which == "A" ? "a" : "b", chosen, by));
  }
  std::vector<std::string> named;
  for (const auto& v : present) {
    if (names_all(fields, parts, split(v, ','))) named.push_back(v);
  }
  if (named.empty()) {
    throw UsageError(fmt::format("compare: no point of '{}' has {} '{}' (it has: {})", d.path, by,
                                 chosen, join(present, ", ")));
  }
  if (named.size() > 1) {
    throw UsageError(fmt::format("compare: {} '{}' names several in '{}' ({}): give one of them",
                                 by, chosen, d.path, join(named, ", ")));
  }
  return split(named.front(), ',');
}

struct Side {
  const Document* doc = nullptr;
  std::string label;                         // "variant = mars/default", or ""
  std::vector<Selected> points;              // file order
  std::map<std::string, std::size_t> index;  // match key -> position
};

Side make_side(const Document& d, const std::vector<std::string>& fields,
               const std::vector<std::string>& value) {
  Side side;
  side.doc = &d;
  if (!fields.empty()) side.label = join(fields, ",") + " = " + join(value, ",");
  for (const Point& p : d.points) {
    std::optional<Selected> s =
        fields.empty() ? std::optional<Selected>(Selected{&p, {}, p.key}) : select(p, fields);
    if (!s || (!fields.empty() && !names_all(fields, value, s->values))) continue;
    if (side.index.count(s->match_key)) continue;  // the first (within one file keys are unique)
    if (!fields.empty()) side.label = join(fields, ",") + " = " + join(s->values, ",");
    side.index.emplace(s->match_key, side.points.size());
    side.points.push_back(std::move(*s));
  }
  return side;
}

// Nothing matched: the nearest pairs of keys (fewest differing parts) and,
// when one field tells every such pair apart, the --by that matches them.
void explain_no_match(const Side& a, const Side& b, const std::vector<std::string>& files,
                      const std::vector<std::string>& fields, std::ostream& out) {
  struct Near {
    std::size_t distance;
    const Selected* a;
    const Selected* b;
    std::vector<std::size_t> differ;
  };
  // Key segments that the --by fields cover (those differ on purpose).
  const auto covered = [&fields](const Point& p) {
    std::set<std::size_t> segs;
    for (const auto& f : fields) {
      for (std::size_t k : field_of(p, f).segments) segs.insert(k);
    }
    return segs;
  };
  std::vector<Near> nearest;
  for (std::size_t i = 0; i < a.points.size() && i < 500; ++i) {
    const Selected& pa = a.points[i];
    const auto& sa = pa.point->segments;
    const std::set<std::size_t> skip = covered(*pa.point);
    std::optional<Near> best;
    for (std::size_t j = 0; j < b.points.size() && j < 500; ++j) {
      const auto& sb = b.points[j].point->segments;
      if (sb.size() != sa.size()) continue;
      std::vector<std::size_t> differ;
      for (std::size_t k = 0; k < sa.size(); ++k) {
        if (sa[k] != sb[k] && !skip.count(k)) differ.push_back(k);
      }
      if (!best || differ.size() < best->distance)
        best = Near{differ.size(), &pa, &b.points[j], differ};
    }
    if (best) nearest.push_back(*best);
  }
  std::stable_sort(nearest.begin(), nearest.end(),
                   [](const Near& x, const Near& y) { return x.distance < y.distance; });
  if (nearest.size() > 5) nearest.resize(5);
  out << "No point of A matches a point of B.\n";
  if (nearest.empty()) {
    out << fmt::format("A has {} point(s), B {}; no two keys have the same number of parts.\n",
                       a.points.size(), b.points.size());
    return;
  }
  out << "Nearest keys (the parts that differ):\n";
  std::set<std::string> differing_fields;
  bool one_field = true;
  for (const Near& n : nearest) {
    std::set<std::string> names_here;
    std::vector<std::string> shown;
    for (std::size_t k : n.differ) {
      const std::string f = segment_field(*n.a->point, k);
      if (names_here.insert(f).second) {
        const FieldValue va = field_of(*n.a->point, f), vb = field_of(*n.b->point, f);
        shown.push_back(
            fmt::format("{} {} | {}", f, va.value.value_or("?"), vb.value.value_or("?")));
      }
    }
    out << fmt::format("  A {}\n  B {}\n    differ in {}\n", n.a->match_key, n.b->match_key,
                       join(shown, "; "));
    if (n.distance == nearest.front().distance) {  // the hint comes from the nearest pairs
      one_field = one_field && names_here.size() == 1;
      differing_fields.insert(names_here.begin(), names_here.end());
    }
  }
  if (one_field && differing_fields.size() == 1 && *differing_fields.begin() != "key") {
    const std::string f = *differing_fields.begin();
    const FieldValue va = field_of(*nearest.front().a->point, f);
    const FieldValue vb = field_of(*nearest.front().b->point, f);
    std::vector<std::string> by = fields;
    by.push_back(f);
    std::string a_value = join(
        a.points.empty() || fields.empty() ? std::vector<std::string>{} : nearest.front().a->values,
        ",");
    std::string b_value =
        join(fields.empty() ? std::vector<std::string>{} : nearest.front().b->values, ",");
    a_value += (a_value.empty() ? "" : ",") + va.value.value_or("?");
    b_value += (b_value.empty() ? "" : ",") + vb.value.value_or("?");
    out << fmt::format("Try: harness compare {} --by {} --a {} --b {}\n", join(files, " "),
                       join(by, ","), a_value, b_value);
  }
}

}  // namespace

int compare_results(const std::string& path_a, const std::string& path_b, const std::string& metric,
                    std::ostream& out) {
  CompareOptions o;
  o.metric = metric;
  return compare_results(std::vector<std::string>{path_a, path_b}, o, out);
}

int compare_results(const std::vector<std::string>& files, const CompareOptions& o,
                    std::ostream& out) {
  const std::string& metric = o.metric;
  if (metric.empty()) throw UsageError("compare: the metric name is empty");
  if (files.empty() || files.size() > 2) throw UsageError("compare: give one or two results files");
  if (files.size() == 1 && o.by.empty())
    throw UsageError(
        "compare: one results file needs --by (the field that tells its two sets apart)");
  const Document da = read_document(files.front(), metric);
  const Document db = files.size() == 2 ? read_document(files.back(), metric) : Document{};
  const Document& a_doc = da;
  const Document& b_doc = files.size() == 2 ? db : da;

  const auto has_samples = [](const Document& d) {
    return std::any_of(d.points.begin(), d.points.end(),
                       [](const Point& p) { return !p.samples.empty(); });
  };
  if (metric != "total_ms" && !has_samples(a_doc) && !has_samples(b_doc)) {
    std::set<std::string> phases = a_doc.phases;
    phases.insert(b_doc.phases.begin(), b_doc.phases.end());
    std::string known;
    for (const auto& name : phases) known += (known.empty() ? "" : ", ") + name;
    throw UsageError(
        fmt::format("compare: no repetition in '{}' or '{}' has phase '{}' "
                    "(metrics: total_ms{}{})",
                    a_doc.path, b_doc.path, metric, known.empty() ? "" : ", ", known));
  }

  std::vector<std::string> fields;
  if (!o.by.empty()) {
    for (const auto& f : split(o.by, ',')) {
      if (f.empty()) throw UsageError("compare: --by '" + o.by + "' names an empty field");
      fields.push_back(f);
    }
  }
  const bool one_file = files.size() == 1;
  std::vector<std::string> value_a, value_b;
  if (!fields.empty()) {
    value_a = side_value(o.a, "A", a_doc, fields, o.b, one_file);
    value_b = side_value(o.b, "B", b_doc, fields, o.a, one_file);
    if (one_file && join(value_a, ",") == join(value_b, ","))
      throw UsageError("compare: --a and --b name the same points (" + join(value_a, ",") + ")");
  }
  const Side a = make_side(a_doc, fields, value_a);
  const Side b = make_side(b_doc, fields, value_b);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Row> rows;
  std::vector<std::string> only_a, only_b;
  double log_sum = 0.0;
  std::size_t log_count = 0;
  std::size_t significant_faster = 0, significant_slower = 0, not_comparable = 0;
  bool too_few_for_p = false;  // some pair where even complete separation gives p >= alpha

  for (const Selected& sa : a.points) {
    const Point& pa = *sa.point;
    const auto it = b.index.find(sa.match_key);
    if (it == b.index.end()) {
      only_a.push_back(sa.match_key);
      continue;
    }
    const Point& pb = *b.points[it->second].point;
    Row row;
    row.key = sa.match_key;
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
  for (const Selected& sb : b.points) {
    if (a.index.find(sb.match_key) == a.index.end()) only_b.push_back(sb.match_key);
  }

  out << fmt::format("Comparing {} ({}), B relative to A\n", metric,
                     "milliseconds, median of repetitions");
  const auto describe = [](const Side& s) {
    std::string d = s.doc->path;
    if (!s.doc->description.empty()) d += "  [" + s.doc->description + "]";
    if (!s.label.empty()) d += "  " + s.label;
    return d;
  };
  out << fmt::format("  A: {}\n", describe(a));
  out << fmt::format("  B: {}\n", describe(b));
  if (!fields.empty()) {
    out << fmt::format("  points matched on every part of their key but {} (* in the key)\n",
                       join(fields, ", "));
  }
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
    explain_no_match(a, b, files, fields, out);
    return 1;
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
  list_only("A", a.doc->path, only_a);
  list_only("B", b.doc->path, only_b);
  const auto list_duplicates = [&out](const char* which, const std::vector<std::string>& keys) {
    for (const auto& k : keys) {
      out << fmt::format(
          "note: key '{}' appears more than once in {}; the last occurrence is used\n", k, which);
    }
  };
  list_duplicates("A", a_doc.duplicate_keys);
  if (!one_file) list_duplicates("B", b_doc.duplicate_keys);
  return 0;
}

}  // namespace harness
