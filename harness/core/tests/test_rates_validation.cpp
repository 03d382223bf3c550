// Declared work -> rates and fractions of ceilings, and the validation kinds,
// each with a wrong result that must fail naming what differs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "harness/core/errors.h"
#include "harness/core/host_ceilings.h"
#include "harness/core/rates.h"
#include "harness/core/validation.h"

namespace harness {
namespace {

nlohmann::json ceiling(const char* name, double value, int index = 0) {
  return {{"backend", "cuda"}, {"device_index", index}, {"name", name}, {"value", value}};
}

const nlohmann::json* find(const nlohmann::json& rates, const std::string& name) {
  for (const auto& r : rates) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

TEST(Work, AccumulatesByLevelPhaseAndKind) {
  Work w;
  w.input_bytes = 100;
  w.reads(level::dram, 10, "map").reads(level::dram, 5, "map").writes(level::dram, 7, "map");
  w.items("records", 3).items("records", 4);
  ASSERT_EQ(w.traffic().size(), 1u);
  EXPECT_EQ(w.traffic()[0].read, 15u);
  EXPECT_EQ(w.traffic()[0].written, 7u);
  EXPECT_EQ(w.item("records"), 7u);
  EXPECT_EQ(w.item("absent"), 0u);
  auto j = w.to_json();
  EXPECT_EQ(j["items"]["records"], 7);
  EXPECT_EQ(j["bytes"][0]["phase"], "map");
}

// Work done in parts (chained jobs, co-processing) adds up entry by entry.
TEST(Work, AddsAnotherPartsItemsAndBytes) {
  Work a, b;
  a.input_bytes = 100;
  a.reads(level::dram, 10, "map").items("records", 3);
  b.input_bytes = 50;
  b.reads(level::dram, 5, "map").writes(level::host, 4).items("records", 4).items("pairs", 9);
  b.reads(level::h2d, 0, "copy_in");  // an empty entry is not carried over
  a.add(b);
  EXPECT_EQ(a.input_bytes, 100u);
  EXPECT_EQ(a.item("records"), 7u);
  EXPECT_EQ(a.item("pairs"), 9u);
  ASSERT_EQ(a.traffic().size(), 2u);
  EXPECT_EQ(a.traffic()[0].read, 15u);
  EXPECT_EQ(a.traffic()[1].level, level::host);
  EXPECT_EQ(a.traffic()[1].written, 4u);
}

TEST(Rates, BytesOverTheirPhaseAsAFractionOfTheMatchingCeiling) {
  Work w;
  w.reads(level::dram, 3'000'000'000ull, "reduce").writes(level::dram, 1'000'000'000ull, "reduce");
  w.reads(level::h2d, 500'000'000ull, "copy_in");
  w.items("elements", 2'000'000'000ull);
  nlohmann::json ceilings = {ceiling("d2d_copy", 2000), ceiling("h2d_pinned", 50),
                             ceiling("d2d_copy", 1, 1)};
  // 4 GB in 2 ms = 2000 GB/s; 0.5 GB in 20 ms = 25 GB/s; 2 G items in 1 s.
  auto rates =
      compute_rates(w, {{"total_ms", 1000}, {"reduce", 2}, {"copy_in", 20}}, ceilings, "cuda", 0);
  const auto* dram = find(rates, "dram@reduce");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ((*dram)["value"].get<double>(), 2000.0);
  EXPECT_EQ((*dram)["ceiling"], "d2d_copy");
  EXPECT_DOUBLE_EQ((*dram)["fraction"].get<double>(), 1.0);
  const auto* h2d = find(rates, "h2d@copy_in");
  ASSERT_NE(h2d, nullptr);
  EXPECT_DOUBLE_EQ((*h2d)["fraction"].get<double>(), 0.5);
  const auto* items = find(rates, "elements");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ((*items)["unit"], "G/s");
  EXPECT_DOUBLE_EQ((*items)["value"].get<double>(), 2.0);
  EXPECT_TRUE((*items)["fraction"].is_null());
}

TEST(Rates, CopiesFromPageableInputAreJudgedByThePageableCeiling) {
  Work w;
  w.reads(level::h2d, 1'000'000'000ull, "copy_in");
  nlohmann::json ceilings = {ceiling("h2d_pinned", 50), ceiling("h2d_pageable", 10)};
  auto pinned = compute_rates(w, {{"total_ms", 200}, {"copy_in", 100}}, ceilings, "cuda", 0);
  EXPECT_EQ(pinned[0]["ceiling"], "h2d_pinned");
  EXPECT_DOUBLE_EQ(pinned[0]["fraction"].get<double>(), 0.2);
  auto pageable =
      compute_rates(w, {{"total_ms", 200}, {"copy_in", 100}}, ceilings, "cuda", 0, "pageable");
  EXPECT_EQ(pageable[0]["ceiling"], "h2d_pageable");
  EXPECT_DOUBLE_EQ(pageable[0]["fraction"].get<double>(), 1.0);
}

TEST(Rates, PrefersDramReadAndSkipsUnmeasuredPhases) {
  Work w;
  w.reads(level::dram, 1'000'000'000ull).reads(level::l2, 1'000'000'000ull, "never_ran");
  nlohmann::json ceilings = {ceiling("d2d_copy", 2000), ceiling("dram_read", 2500)};
  auto rates = compute_rates(w, {{"total_ms", 1}}, ceilings, "cuda", 0);
  ASSERT_EQ(rates.size(), 1u);
  EXPECT_EQ(rates[0]["ceiling"], "dram_read");
  EXPECT_DOUBLE_EQ(rates[0]["fraction"].get<double>(), 1000.0 / 2500.0);
  // Another device's ceilings do not apply.
  auto other = compute_rates(w, {{"total_ms", 1}}, ceilings, "opencl", 0);
  EXPECT_TRUE(other[0]["fraction"].is_null());
}

TEST(Validation, ToleranceNamesTheFirstDifferencesAndRejectsNaN) {
  ValidationPolicy p{"tolerance", 1e-3, 0};
  std::vector<double> e = {1, 2, 3, 4, 5};
  EXPECT_EQ(compare_within_tolerance(e, std::vector<double>{1.0005, 2, 3, 4, 5}, p), "");
  std::string bad = compare_within_tolerance(e, std::vector<double>{1, 2.1, 3, 4, 5.5}, p);
  EXPECT_NE(bad.find("2 of 5 values"), std::string::npos) << bad;
  EXPECT_NE(bad.find("[1] expected 2, got 2.1"), std::string::npos) << bad;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(compare_within_tolerance(e, std::vector<double>{1, 2, nan, 4, 5}, p), "");
  EXPECT_NE(compare_within_tolerance(e, std::vector<double>{1, 2}, p).find("expected 5 values"),
            std::string::npos);
  ValidationPolicy abs{"tolerance", 0, 0.5};
  EXPECT_EQ(compare_within_tolerance(std::vector<double>{0}, std::vector<double>{0.4}, abs), "");
}

TEST(Validation, SetsIgnoreOrderButNotMultiplicity) {
  Pairs e = {{"a", "1"}, {"b", "2"}, {"b", "2"}};
  EXPECT_EQ(compare_as_sets(e, {{"b", "2"}, {"a", "1"}, {"b", "2"}}), "");
  std::string bad = compare_as_sets(e, {{"b", "2"}, {"a", "1"}, {"c", "\x01"}});
  EXPECT_NE(bad.find("1 missing: (b, 2)"), std::string::npos) << bad;
  EXPECT_NE(bad.find("1 unexpected: (c, \\x01)"), std::string::npos) << bad;
}

TEST(Validation, SanityNeedsPositiveFiniteValues) {
  EXPECT_EQ(check_sane({{"gbps", 12.5}, {"ms", 0.1}}), "");
  std::string bad =
      check_sane({{"gbps", 0}, {"ms", std::numeric_limits<double>::infinity()}, {"ok", 1}});
  EXPECT_NE(bad.find("gbps = 0"), std::string::npos) << bad;
  EXPECT_NE(bad.find("ms = inf"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("ok ="), std::string::npos) << bad;
}

TEST(Validation, PoliciesAreChecked) {
  EXPECT_THROW(check_policy({"fuzzy", 0, 0}), UsageError);
  EXPECT_THROW(check_policy({"tolerance", 0, 0}), UsageError);
  EXPECT_THROW(check_policy({"tolerance", -1, 0}), UsageError);
  EXPECT_NO_THROW(check_policy({"exact", 0, 0}));
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

// The host's read bandwidth: one entry named host_read for the cpu backend,
// a positive finite rate, and level host's bytes are judged against it.
TEST(HostCeilings, HostReadIsMeasuredAndJudgesHostTraffic) {
  const nlohmann::json got = measure_host_ceilings(std::size_t{32} << 20, 2);
  ASSERT_EQ(got.size(), 1u);
  const nlohmann::json& c = got[0];
  EXPECT_EQ(c["name"], "host_read");
  EXPECT_EQ(c["backend"], "cpu");
  EXPECT_EQ(c["device_index"], 0);
  EXPECT_EQ(c["unit"], "GB/s");
  const double gbps = c["value"].get<double>();
  EXPECT_GT(gbps, 0.05);  // 32 MiB in less than 0.7 s
  EXPECT_TRUE(std::isfinite(gbps));

  Work w;
  w.reads(level::host, 1'000'000'000);
  const nlohmann::json rates = compute_rates(w, {{"total_ms", 100.0}}, got, "cpu", 0, "pageable");
  ASSERT_EQ(rates.size(), 1u);
  EXPECT_EQ(rates[0]["ceiling"], "host_read");
  EXPECT_DOUBLE_EQ(rates[0]["value"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(rates[0]["fraction"].get<double>(), 10.0 / gbps);
}

}  // namespace
}  // namespace harness
