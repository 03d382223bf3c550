// Statistics for repeated timing measurements: summaries (median, min, max,
// mean, sample standard deviation), a deterministic percentile-bootstrap
// interval for a ratio of medians, and the two-sided Mann-Whitney U test.
//
// Everything here is pure and deterministic: the bootstrap uses its own
// seeded PRNG (SplitMix64, unbiased bounded draws by rejection), never the
// implementation-defined std:: distributions, so the same inputs give the same
// interval on every compiler and platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harness::stats {

struct Summary {
  double median = 0, min = 0, max = 0, mean = 0, stddev = 0;
  std::size_t n = 0;
};

// Empty input -> all zero, n = 0. stddev is the sample standard deviation
// (divisor n - 1); 0 when n < 2.
Summary summarize(std::vector<double> samples);

// Median (mean of the two middle values for an even count); 0 for no samples.
double median(std::vector<double> samples);

struct Interval {
  double low = 0, high = 0;
};

// Percentile-bootstrap interval of median(b) / median(a) at `confidence`
// (0 < confidence < 1): `resamples` times, draw |a| values from a and |b|
// values from b with replacement and take the ratio of the resampled medians;
// the interval is the (1-confidence)/2 and (1+confidence)/2 quantiles of those
// ratios (linear interpolation between order statistics). Deterministic for a
// given seed. A resample whose median(a) is 0 contributes +inf (or 1 when its
// median(b) is 0 too). Either sample empty -> {NaN, NaN}. Throws
// std::invalid_argument for confidence outside (0, 1) or resamples < 1.
Interval bootstrap_ratio_of_medians(const std::vector<double>& a, const std::vector<double>& b,
                                    double confidence = 0.95, int resamples = 2000,
                                    std::uint64_t seed = 1);

// Two-sided Mann-Whitney U (Wilcoxon rank-sum) test p-value for "a and b come
// from the same distribution". Exact permutation distribution when both
// samples have at most 8 values and there are no ties; otherwise the normal
// approximation with tie correction and continuity correction. Returns 1 when
// either sample is empty or every value is tied.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace harness::stats
