// thrust/default on the cuda backend (skipped without a CUDA device): word
// count against the app's reference, the edge cases of the grouping, and the
// (hash, bytes) fallback forced by keeping few hash bits.
#include <string>

#include "frameworks/apps/registry.h"
#include "frameworks/common/tests/device_fixture.h"
#include "frameworks/common/tests/mapreduce_inputs.h"
#include "frameworks/thrust/thrust_runtime.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

// The cuda backend when this build has it (else no tests are instantiated).
std::vector<backend::Kind> cuda_backend() {
  std::vector<backend::Kind> kinds;
  for (backend::Kind k : kernel_backends()) {
    if (k == backend::Kind::cuda) kinds.push_back(k);
  }
  return kinds;
}

class ThrustTest : public DeviceTest {
 protected:
  mapreduce::RunResult run_text(const std::string& text, const thrustmr::Options& o) {
    const apps::MapReduceApp& app = apps::wordcount_app();
    auto runtime = thrustmr::make_runtime(*device_, o);
    runtime->prepare(app);
    return runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  }
  // Runs `text` and checks the output against the reference, in canonical order.
  mapreduce::RunResult expect_text(const std::string& text, const thrustmr::Options& o,
                                   const std::string& label) {
    const apps::MapReduceApp& app = apps::wordcount_app();
    mapreduce::RunResult r = run_text(text, o);
    const apps::KeyValueList expected = reference_output(app, text);
    EXPECT_EQ(apps::compare_outputs(app, expected, r.output), "") << label;
    EXPECT_EQ(r.output, expected) << "canonical order: " << label;
    return r;
  }
};

TEST_P(ThrustTest, WordCountMatchesReference) {
  thrustmr::Options o;
  expect_reference([&](const std::string&) { return thrustmr::make_runtime(*device_, o); },
                   apps::wordcount_app(), "thrust/default");
}

TEST_P(ThrustTest, EmptyAndWordlessInputs) {
  thrustmr::Options o;
  EXPECT_TRUE(expect_text("", o, "empty").output.empty());
  mapreduce::RunResult r = expect_text("123 ... !!\n\n", o, "no words");
  EXPECT_TRUE(r.output.empty());
  EXPECT_EQ(r.measurement.counters.at("words"), 0);
}

TEST_P(ThrustTest, AllKeysEqual) {
  std::string text;
  for (int i = 0; i < 50000; ++i) text += i % 3 == 0 ? "Same same\n" : "SAME ";
  mapreduce::RunResult r = expect_text(text, {}, "all equal");
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.output[0].first, "same");
  EXPECT_EQ(r.measurement.counters.at("hash_collisions"), 0);
}

TEST_P(ThrustTest, AllKeysDistinct) {
  std::string text;
  for (std::uint32_t i = 0; i < 40000; ++i) {
    for (std::uint32_t v = i, n = 0; n < 4; v /= 26, ++n) text += static_cast<char>('a' + v % 26);
    text += i % 10 == 9 ? '\n' : ' ';
  }
  mapreduce::RunResult r = expect_text(text, {}, "all distinct");
  EXPECT_EQ(r.output.size(), 40000u);
  EXPECT_EQ(r.measurement.counters.at("distinct_words"), 40000);
}

// With 2 hash bits nearly every pair of words collides: the check must see
// it and the (hash, bytes) fallback must still count every word apart.
TEST_P(ThrustTest, CollisionsFallBackToHashThenBytes) {
  const std::string text = generated("text-zipf", 200000, 5) + "\nab ba AB abc ab\n";
  thrustmr::Options o;
  o.hash_bits = 2;
  mapreduce::RunResult r = expect_text(text, o, "hash_bits=2");
  EXPECT_GT(r.measurement.counters.at("hash_collisions"), 0);
  o.hash_bits = 1;
  expect_text(text, o, "hash_bits=1");
  o.hash_bits = 64;
  r = expect_text(text, o, "hash_bits=64");
  EXPECT_EQ(r.measurement.counters.at("hash_collisions"), 0);
}

TEST_P(ThrustTest, PhasesAndRecordRanges) {
  const std::string text = "one two\nthree one\nTwo two\n";
  mapreduce::RunResult r = run_text(text, {});
  std::vector<std::string> names;
  for (const auto& p : r.measurement.phases) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"preprocess", "copy_in", "map", "group", "copy_out"}));
  // Records [1, 3) alone: "three one\nTwo two\n".
  const apps::MapReduceApp& app = apps::wordcount_app();
  auto runtime = thrustmr::make_runtime(*device_, {});
  runtime->prepare(app);
  const mapreduce::PreparedInput in = mapreduce::preprocess(
      app, {}, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  ASSERT_EQ(in.records(), 3u);
  r = runtime->run_records(app, in, 1, 3);
  const std::string tail = text.substr(in.offsets[1]);
  EXPECT_EQ(r.output, reference_output(app, tail));
}

TEST_P(ThrustTest, OtherAppsAreUsageErrors) {
  auto runtime = thrustmr::make_runtime(*device_, {});
  EXPECT_THROW(runtime->prepare(apps::find_mapreduce_app("kmeans")), UsageError);
}

// No device needed.
TEST(ThrustKnobs, HashBitsMustBeOneToSixtyFour) {
  EXPECT_THROW(thrustmr::options_from({{"hash_bits", "0"}}), UsageError);
  EXPECT_THROW(thrustmr::options_from({{"hash_bits", "65"}}), UsageError);
  EXPECT_EQ(thrustmr::options_from({{"hash_bits", "7"}}).hash_bits, 7u);
  EXPECT_EQ(thrustmr::options_from(thrustmr::default_params()).hash_bits, 64u);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ThrustTest);
INSTANTIATE_TEST_SUITE_P(Cuda, ThrustTest, ::testing::ValuesIn(cuda_backend()), backend_test_name);

}  // namespace
}  // namespace harness::testing
