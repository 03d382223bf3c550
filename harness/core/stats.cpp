#include "harness/core/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace harness::stats {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, passes BigCrush, and
// fully specified here so bootstrap results are identical everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0, without modulo bias (rejection of the short
  // final interval).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t r = next();
      if (r >= threshold) return r % n;
    }
  }

 private:
  std::uint64_t state_;
};

double median_in_place(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2.0;
}

// Quantile of sorted data, linear interpolation between order statistics
// (Hyndman & Fan type 7, the default of R and NumPy).
double quantile_sorted(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const double lo_f = std::floor(h);
  const auto lo = static_cast<std::size_t>(lo_f);
  const double frac = h - lo_f;
  if (lo + 1 >= sorted.size() || frac == 0.0) return sorted[lo];
  const double x0 = sorted[lo], x1 = sorted[lo + 1];
  if (x0 == x1) return x0;
  if (std::isinf(x0) || std::isinf(x1)) return frac < 0.5 ? x0 : x1;
  return x0 + frac * (x1 - x0);
}

double safe_ratio(double numerator, double denominator) {
  if (denominator == 0.0) {
    return numerator == 0.0 ? 1.0 : std::numeric_limits<double>::infinity();
  }
  return numerator / denominator;
}

// Exact two-sided p-value of U (pairs with a > b) for sample sizes n1, n2
// without ties: counts of rank arrangements by U, built with the recurrence
// f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u) (is the largest value from a or b).
double exact_mann_whitney_p(std::size_t n1, std::size_t n2, double u) {
  // counts[i][j] is a vector over u = 0..i*j; rolling over i would do, but the
  // sizes are at most 8 x 8 so the full table is tiny.
  std::vector<std::vector<std::vector<double>>> f(n1 + 1, std::vector<std::vector<double>>(n2 + 1));
  for (std::size_t i = 0; i <= n1; ++i) {
    for (std::size_t j = 0; j <= n2; ++j) {
      auto& cell = f[i][j];
      cell.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        cell[0] = 1.0;
        continue;
      }
      const auto& from_a = f[i - 1][j];  // largest from a: it beats all j of b
      for (std::size_t k = 0; k < from_a.size(); ++k) cell[k + j] += from_a[k];
      const auto& from_b = f[i][j - 1];
      for (std::size_t k = 0; k < from_b.size(); ++k) cell[k] += from_b[k];
    }
  }
  const auto& dist = f[n1][n2];
  const double total = std::accumulate(dist.begin(), dist.end(), 0.0);
  const auto uu = static_cast<std::size_t>(std::llround(u));
  double le = 0.0, ge = 0.0;
  for (std::size_t k = 0; k < dist.size(); ++k) {
    if (k <= uu) le += dist[k];
    if (k >= uu) ge += dist[k];
  }
  return std::min(1.0, 2.0 * std::min(le, ge) / total);
}

}  // namespace

double median(std::vector<double> samples) { return median_in_place(samples); }

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  const double n = static_cast<double>(samples.size());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  if (samples.size() >= 2) {
    double ss = 0.0;
    for (const double x : samples) ss += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(ss / (n - 1.0));
  }
  s.median = median_in_place(samples);
  return s;
}

Interval bootstrap_ratio_of_medians(const std::vector<double>& a, const std::vector<double>& b,
                                    double confidence, int resamples, std::uint64_t seed) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument("bootstrap_ratio_of_medians: confidence must be in (0, 1)");
  }
  if (resamples < 1) {
    throw std::invalid_argument("bootstrap_ratio_of_medians: resamples must be >= 1");
  }
  if (a.empty() || b.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan};
  }
  SplitMix64 rng(seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  std::vector<double> ra(a.size()), rb(b.size());
  for (int r = 0; r < resamples; ++r) {
    for (auto& x : ra) x = a[rng.below(a.size())];
    for (auto& x : rb) x = b[rng.below(b.size())];
    ratios.push_back(safe_ratio(median_in_place(rb), median_in_place(ra)));
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1.0 - confidence) / 2.0;
  return {quantile_sorted(ratios, tail), quantile_sorted(ratios, 1.0 - tail)};
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return 1.0;

  // Midranks over the pooled sample; `from_a` marks the origin of each value.
  struct Item {
    double value;
    bool from_a;
  };
  std::vector<Item> pooled;
  pooled.reserve(n1 + n2);
  for (const double x : a) pooled.push_back({x, true});
  for (const double x : b) pooled.push_back({x, false});
  std::sort(pooled.begin(), pooled.end(),
            [](const Item& l, const Item& r) { return l.value < r.value; });

  const std::size_t n = pooled.size();
  double rank_sum_a = 0.0;
  double tie_term = 0.0;  // sum over tie groups of t^3 - t
  bool ties = false;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && pooled[j].value == pooled[i].value) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].from_a) rank_sum_a += midrank;
    }
    if (j - i > 1) {
      ties = true;
      tie_term += t * t * t - t;
    }
    i = j;
  }

  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2);
  const double u = rank_sum_a - dn1 * (dn1 + 1.0) / 2.0;

  if (!ties && n1 <= 8 && n2 <= 8) return exact_mann_whitney_p(n1, n2, u);

  const double dn = static_cast<double>(n);
  const double mu = dn1 * dn2 / 2.0;
  const double variance = dn1 * dn2 / 12.0 * ((dn + 1.0) - tie_term / (dn * (dn - 1.0)));
  if (!(variance > 0.0)) return 1.0;  // every value tied
  const double z = std::max(0.0, std::fabs(u - mu) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace harness::stats
