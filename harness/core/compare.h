// `harness compare`: side-by-side comparison of two sets of points from
// results documents (results/README.md), point by point: by key across two
// files, or two labelled sets (two variants, backends, axis values, ...)
// matched on everything else, across two files or within one.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace harness {

struct CompareOptions {
  // "total_ms" (repetitions[].total_ms) or a phase name such as "map"
  // (repetitions[].phases_ms.<name>).
  std::string metric = "total_ms";
  // "" : points match by key. Otherwise the field(s), comma-separated, that
  // tell the two sets apart: "variant" (framework/variant), "framework",
  // "app", "backend", "device" (backend:index), "dataset" (generator),
  // "size" (dataset label), or an axis or parameter name. Points then match
  // on every other part of their key.
  std::string by;
  // The value of `by` that selects side A and side B ("mars/default" or
  // "default" for a variant; comma-separated for several fields). Empty: the
  // one value its file holds.
  std::string a, b;
};

// Compares the points of `files` (one or two results documents; one only
// with `by`: both sides come from it; two: A from the first, B from the
// second) and writes a fixed-width table to `out`: for each matched point the
// median of the metric in A and in B (milliseconds), the time ratio B/A (< 1
// means B is faster), the speedup A/B with its 95% percentile-bootstrap
// interval, the two-sided Mann-Whitney p-value and a mark: "faster" /
// "slower" (B relative to A, at p < 0.05) or "~". Points present on only one
// side are listed after the table, followed by the geometric mean of the
// speedups. Size labels in keys are compared in one spelling ("1 MiB" and
// "1048576" are "1MiB").
//
// Returns 0 when at least one point matched; 1 when none did, after listing
// the nearest keys of the two sides (which parts differ) and, where one field
// tells them apart, the --by that would match them.
//
// Throws harness::UsageError naming the file for an unreadable file, invalid
// JSON, a document that is not a results object with a "points" array, or a
// missing or unsupported "schema_version"; and for a `by` value that no
// point has (naming the values present).
int compare_results(const std::vector<std::string>& files, const CompareOptions& options,
                    std::ostream& out);

// The two-file comparison by key (compare_results({a, b}, {metric}, out)).
int compare_results(const std::string& path_a, const std::string& path_b, const std::string& metric,
                    std::ostream& out);

}  // namespace harness
