#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "harness/core/stats.h"

namespace hs = harness::stats;

TEST(StatsMedian, OddCount) { EXPECT_DOUBLE_EQ(hs::median({5.0, 1.0, 3.0}), 3.0); }

TEST(StatsMedian, EvenCount) { EXPECT_DOUBLE_EQ(hs::median({4.0, 1.0, 3.0, 2.0}), 2.5); }

TEST(StatsMedian, SingleAndEmpty) {
  EXPECT_DOUBLE_EQ(hs::median({7.5}), 7.5);
  EXPECT_DOUBLE_EQ(hs::median({}), 0.0);
}

TEST(StatsSummarize, KnownData) {
  // mean 5, squared deviations sum to 32, sample variance 32/7.
  const hs::Summary s = hs::summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);
}

TEST(StatsSummarize, EmptyAndSingle) {
  const hs::Summary e = hs::summarize({});
  EXPECT_EQ(e.n, 0u);
  EXPECT_EQ(e.median, 0.0);
  EXPECT_EQ(e.min, 0.0);
  EXPECT_EQ(e.max, 0.0);
  EXPECT_EQ(e.mean, 0.0);
  EXPECT_EQ(e.stddev, 0.0);

  const hs::Summary one = hs::summarize({3.25});
  EXPECT_EQ(one.n, 1u);
  EXPECT_DOUBLE_EQ(one.median, 3.25);
  EXPECT_DOUBLE_EQ(one.min, 3.25);
  EXPECT_DOUBLE_EQ(one.max, 3.25);
  EXPECT_DOUBLE_EQ(one.mean, 3.25);
  EXPECT_EQ(one.stddev, 0.0);
}

namespace {
// Samples around `center` with a small deterministic spread (+-2%).
std::vector<double> around(double center, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(center * (1.0 + 0.004 * (i % 11 - 5)));
  return v;
}
}  // namespace

TEST(StatsBootstrap, ContainsTrueRatioForSeparatedSamples) {
  const auto a = around(10.0, 10);
  const auto b = around(20.0, 10);
  const hs::Interval ci = hs::bootstrap_ratio_of_medians(a, b);
  EXPECT_LE(ci.low, 2.0);
  EXPECT_GE(ci.high, 2.0);
  EXPECT_LT(ci.low, ci.high);
  EXPECT_GT(ci.low, 1.9);
  EXPECT_LT(ci.high, 2.1);
}

TEST(StatsBootstrap, Deterministic) {
  const std::vector<double> a = {1.0, 1.3, 0.9, 1.1, 1.25, 0.95, 1.05};
  const std::vector<double> b = {2.1, 1.7, 2.6, 1.9, 2.4, 2.0, 2.2};
  const hs::Interval x = hs::bootstrap_ratio_of_medians(a, b, 0.95, 2000, 7);
  const hs::Interval y = hs::bootstrap_ratio_of_medians(a, b, 0.95, 2000, 7);
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
  // A wider confidence gives a wider (or equal) interval from the same draws.
  const hs::Interval wide = hs::bootstrap_ratio_of_medians(a, b, 0.99, 2000, 7);
  EXPECT_LE(wide.low, x.low);
  EXPECT_GE(wide.high, x.high);
  const double point = hs::median(b) / hs::median(a);
  EXPECT_LE(x.low, point);
  EXPECT_GE(x.high, point);
}

TEST(StatsBootstrap, EdgeCases) {
  const hs::Interval empty = hs::bootstrap_ratio_of_medians({}, {1.0});
  EXPECT_TRUE(std::isnan(empty.low));
  EXPECT_TRUE(std::isnan(empty.high));
  const hs::Interval same = hs::bootstrap_ratio_of_medians({4.0}, {8.0});
  EXPECT_DOUBLE_EQ(same.low, 2.0);
  EXPECT_DOUBLE_EQ(same.high, 2.0);
  EXPECT_THROW(hs::bootstrap_ratio_of_medians({1.0}, {1.0}, 1.5), std::invalid_argument);
  EXPECT_THROW(hs::bootstrap_ratio_of_medians({1.0}, {1.0}, 0.95, 0), std::invalid_argument);
}

TEST(StatsMannWhitney, ClearlyDifferentSamplesN10) {
  const auto a = around(10.0, 10);
  const auto b = around(12.0, 10);
  const double p = hs::mann_whitney_p(a, b);
  EXPECT_LT(p, 0.01);
  // Complete separation, no ties, n = 10 + 10 (normal approximation):
  // U = 0, mu = 50, sigma = sqrt(100 * 21 / 12), z = 49.5 / sigma.
  EXPECT_NEAR(p, std::erfc((49.5 / std::sqrt(175.0)) / std::sqrt(2.0)), 1e-12);
  EXPECT_DOUBLE_EQ(hs::mann_whitney_p(b, a), p);  // two-sided: symmetric
}

TEST(StatsMannWhitney, IdenticalDistributions) {
  // Interleaved values from the same range.
  const std::vector<double> a = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19};
  const std::vector<double> b = {2, 4, 6, 8, 10, 12, 14, 16, 18, 20};
  EXPECT_GT(hs::mann_whitney_p(a, b), 0.3);
  // The same values on both sides: all ties across samples.
  EXPECT_GT(hs::mann_whitney_p(a, a), 0.3);
  EXPECT_DOUBLE_EQ(hs::mann_whitney_p({1, 1, 1}, {1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(hs::mann_whitney_p({}, {1.0}), 1.0);
}

TEST(StatsMannWhitney, ExactSmallSamples) {
  // n = 3 + 3, complete separation: P(U = 0) = 1 / C(6, 3) = 1/20, two-sided 0.1.
  EXPECT_NEAR(hs::mann_whitney_p({1, 2, 3}, {4, 5, 6}), 0.1, 1e-12);
  // n = 5 + 5 complete separation: 2 / C(10, 5) = 2 / 252.
  EXPECT_NEAR(hs::mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252.0, 1e-12);
  // One swapped pair, n = 4 + 4: P(U <= 1) = 2 / 70, two-sided 4/70.
  EXPECT_NEAR(hs::mann_whitney_p({1, 2, 3, 5}, {4, 6, 7, 8}), 4.0 / 70.0, 1e-12);
  // Exact p for identical-looking interleaving is large.
  EXPECT_GT(hs::mann_whitney_p({1, 3, 5, 7}, {2, 4, 6, 8}), 0.3);
}
