// `harness compare A.json B.json [--metric M]`: side-by-side comparison of two
// results documents (results/README.md), point by point.
#pragma once

#include <ostream>
#include <string>

namespace harness {

// Matches the points of two results documents by "key" and writes a
// fixed-width table to `out`: for each matched point the median of `metric` in
// A and in B (milliseconds), the time ratio B/A (< 1 means B is faster), the
// speedup A/B with its 95% percentile-bootstrap interval, the two-sided
// Mann-Whitney p-value and a mark: "faster" / "slower" (B relative to A, at
// p < 0.05) or "~". Points present in only one document are listed after the
// table, followed by the geometric mean of the speedups.
//
// `metric` is "total_ms" (repetitions[].total_ms) or a phase name such as
// "map" (repetitions[].phases_ms.<name>); a point without samples of the
// metric in either file shows "n/a".
//
// Throws harness::UsageError naming the file for an unreadable file, invalid
// JSON, a document that is not a results object with a "points" array, or a
// missing or unsupported "schema_version". Returns 0 (the process exit code).
int compare_results(const std::string& path_a, const std::string& path_b, const std::string& metric,
                    std::ostream& out);

}  // namespace harness
