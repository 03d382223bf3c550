// thrust/default on the cuda backend (skipped without a CUDA device): every
// app it runs (word count, inverted index, page view count and rank, k-means)
// against the app's reference on the shared edge cases, the edge cases of the
// grouping, the (hash, bytes) fallback forced by keeping few hash bits, and
// runs over slices of the records.
#include <algorithm>
#include <string>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/thrust/thrust_runtime.h"
#include "harness/backend/tests/device_fixture.h"
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
  thrustmr::Options verified;
  verified.verify_keys = true;  // the collision counter exists only when keys are verified
  mapreduce::RunResult r = expect_text(text, verified, "all equal");
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
  o.verify_keys = true;
  o.hash_bits = 2;
  mapreduce::RunResult r = expect_text(text, o, "hash_bits=2");
  EXPECT_GT(r.measurement.counters.at("hash_collisions"), 0);
  o.hash_bits = 1;
  expect_text(text, o, "hash_bits=1");
  o.hash_bits = 64;
  r = expect_text(text, o, "hash_bits=64");
  EXPECT_EQ(r.measurement.counters.at("hash_collisions"), 0);
  EXPECT_EQ(r.measurement.counters.at("keys_verified"), 1);
}

// Without verify_keys (the default) the hash is trusted: with 2 bits,
// different words merge and the output is wrong, which validation reports;
// with 64 bits the output is exact and no collision count is claimed.
TEST_P(ThrustTest, UnverifiedKeysTrustTheHash) {
  const std::string text = generated("text-zipf", 200000, 5);
  const apps::MapReduceApp& app = apps::wordcount_app();
  thrustmr::Options o;
  o.hash_bits = 2;
  mapreduce::RunResult r = run_text(text, o);
  EXPECT_NE(apps::compare_by_policy(app, reference_output(app, text), r.output, app.validation()),
            "");
  EXPECT_LE(r.output.size(), 4u);  // at most one group per hash value
  EXPECT_EQ(r.measurement.counters.at("keys_verified"), 0);
  EXPECT_EQ(r.measurement.counters.count("hash_collisions"), 0u);
  o.hash_bits = 64;
  r = expect_text(text, o, "hash_bits=64, unverified");
  EXPECT_EQ(r.measurement.counters.at("keys_verified"), 0);
}

// The cache of thrust's temporary blocks (temp_cache, on by default): the
// first run allocates them, a second run of the same size reuses every one,
// and the output is the reference's either way; without the cache every run
// allocates again, as thrust's default does.
TEST_P(ThrustTest, TemporaryBlocksAreKeptFromRunToRun) {
  const std::string text = generated("text-zipf", 300000, 7);
  const apps::MapReduceApp& app = apps::wordcount_app();
  const apps::KeyValueList expected = reference_output(app, text);
  for (const bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "temp_cache=1" : "temp_cache=0");
    thrustmr::Options o;
    o.temp_cache = keep;
    auto runtime = thrustmr::make_runtime(*device_, o);
    runtime->prepare(app);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    const mapreduce::RunResult first = runtime->run(app, bytes, text.size());
    const mapreduce::RunResult second = runtime->run(app, bytes, text.size());
    EXPECT_EQ(first.output, expected);
    EXPECT_EQ(second.output, expected);
    EXPECT_GT(first.measurement.counters.at("temp_allocations"), 0);
    if (keep) {
      EXPECT_EQ(second.measurement.counters.at("temp_allocations"), 0);
    } else {
      EXPECT_EQ(second.measurement.counters.at("temp_allocations"),
                first.measurement.counters.at("temp_allocations"));
    }
  }
}

// One runtime keeps its host vectors from run to run (never shrunk): a
// large input, then a smaller one and the large one again each
// give the reference's output, for word count and for page view dedup.
TEST_P(ThrustTest, HostVectorsKeptFromRunToRunGiveEachRunsOutput) {
  for (const apps::MapReduceApp* app : {&apps::wordcount_app(), &apps::pvc_dedup_job()}) {
    SCOPED_TRACE(app->name());
    const std::string large =
        generated(app == &apps::wordcount_app() ? "text-zipf" : "weblog", 200000, 11);
    const std::string small = large.substr(0, large.find('\n', 5000) + 1);
    auto runtime = thrustmr::make_runtime(*device_, {});
    runtime->prepare(*app);
    for (const std::string* text : {&large, &small, &large}) {
      const mapreduce::RunResult r =
          runtime->run(*app, reinterpret_cast<const std::uint8_t*>(text->data()), text->size());
      EXPECT_EQ(apps::compare_outputs(*app, reference_output(*app, *text), r.output), "")
          << text->size() << " bytes";
    }
  }
}

TEST_P(ThrustTest, PhasesAndRecordRanges) {
  const std::string text = "one two\nthree one\nTwo two\n";
  mapreduce::RunResult r = run_text(text, {});
  std::vector<std::string> names;
  for (const auto& p : r.measurement.phases) names.push_back(p.name);
  // No host split: the words are found on the device.
  EXPECT_EQ(names, (std::vector<std::string>{"copy_in", "map", "group", "copy_out"}));
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

// Each job of `app` on a thrust runtime with options `o`.
JobRuntimes thrust_runtimes(backend::Device& device, const thrustmr::Options& o) {
  return [&device, o](const std::string&) { return thrustmr::make_runtime(device, o); };
}

TEST_P(ThrustTest, EveryAppMatchesReferenceOnTheSharedCases) {
  for (const std::string& name : thrustmr::app_names()) {
    SCOPED_TRACE(name);
    expect_reference(thrust_runtimes(*device_, {}), apps::find_mapreduce_app(name),
                     "thrust/default");
  }
}

// With 1 or 2 hash bits nearly every pair of keys collides: every app whose
// keys are hashed must still group exactly (k-means has no hash).
TEST_P(ThrustTest, EveryAppMatchesReferenceWithCollidingHashes) {
  for (unsigned bits : {1u, 2u}) {
    thrustmr::Options o;
    o.verify_keys = true;
    o.hash_bits = bits;
    for (const std::string& name : thrustmr::app_names()) {
      SCOPED_TRACE(name + ", hash_bits=" + std::to_string(bits));
      expect_reference(thrust_runtimes(*device_, o), apps::find_mapreduce_app(name),
                       "thrust/default, hash_bits=" + std::to_string(bits));
    }
  }
}

// The collision counter sees the collisions of each byte-key app (page view
// count: its two jobs' counters add up) and the output stays exact.
TEST_P(ThrustTest, CollisionsAreCountedForEveryHashedApp) {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"invertedindex", generated("html-zipf", 200000, 7)},
      {"pageviewcount", generated("weblog", 200000, 7)},
      {"pageviewrank", generated("weblog", 100000, 8)},
  };
  for (const auto& [name, text] : inputs) {
    SCOPED_TRACE(name);
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    const apps::KeyValueList expected = reference_output(app, text);
    for (unsigned bits : {2u, 64u}) {
      thrustmr::Options o;
      o.verify_keys = true;
      o.hash_bits = bits;
      mapreduce::JobChain chain(app, thrust_runtimes(*device_, o));
      chain.set_app_params(app.resolve_params({}));
      chain.prepare();
      const mapreduce::RunResult r =
          chain.run(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
      EXPECT_EQ(apps::compare_by_policy(app, expected, r.output, app.validation()), "")
          << "hash_bits=" << bits;
      EXPECT_EQ(r.output, expected) << "canonical order, hash_bits=" << bits;
      if (bits == 2) {
        EXPECT_GT(r.measurement.counters.at("hash_collisions"), 0);
      } else {
        EXPECT_EQ(r.measurement.counters.at("hash_collisions"), 0);
      }
      EXPECT_GT(r.measurement.counters.at("distinct_keys"), 0);
    }
  }
}

// Inverted index keys: equal URLs under colliding hashes, an empty URL, a
// prefix of another URL, case kept (URLs are not folded).
TEST_P(ThrustTest, InvertedIndexKeepsUrlsApartUnderCollisions) {
  const std::string text =
      "<!-- page: a -->\n<a href=\"\">e</a> <a href=\"ab\"> <a href=\"a\"> <a href=\"AB\">\n"
      "<!-- page: b -->\n<a href='ab'> <a href=a> <a href=\"\"> <a href=\"ba\">\n";
  const apps::MapReduceApp& app = apps::invertedindex_app();
  for (unsigned bits : {1u, 64u}) {
    thrustmr::Options o;
    o.verify_keys = true;
    o.hash_bits = bits;
    auto runtime = thrustmr::make_runtime(*device_, o);
    runtime->prepare(app);
    const mapreduce::RunResult r =
        runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    EXPECT_EQ(r.output, reference_output(app, text)) << "hash_bits=" << bits;
    EXPECT_EQ(r.output.size(), 8u);
    EXPECT_EQ(r.measurement.counters.at("keys"), 8);
    EXPECT_EQ(r.measurement.counters.at("distinct_keys"), 5);
  }
}

// Every app that is one job, over two slices of its records (as co-processing
// runs it): the slices' outputs merged are the whole input's.
TEST_P(ThrustTest, RecordSlicesMergeToTheWholeOutput) {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"wordcount", generated("text-zipf", 100000, 4)},
      {"invertedindex", generated("html-zipf", 100000, 4)},
      {"kmeans", generated("points-f32", 5000 * 16, 4)},
  };
  for (const auto& [name, text] : inputs) {
    SCOPED_TRACE(name);
    const apps::MapReduceApp& app = apps::find_mapreduce_app(name);
    const apps::Params params = app.resolve_params({});
    auto runtime = thrustmr::make_runtime(*device_, {});
    runtime->set_app_params(params);
    runtime->prepare(app);
    const mapreduce::PreparedInput in = mapreduce::preprocess(
        app, params, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    ASSERT_GT(in.records(), 2u);
    const std::uint32_t cut = in.records() / 3;
    std::vector<apps::KeyValueList> parts;
    mapreduce::RunResult r = runtime->run_records(app, in, 0, cut);
    EXPECT_EQ(phase_names(r), (std::vector<std::string>{"copy_in", "map", "group", "copy_out"}));
    parts.push_back(std::move(r.output));
    parts.push_back(runtime->run_records(app, in, cut, in.records()).output);
    const apps::KeyValueList merged = app.merge_outputs(std::move(parts));
    EXPECT_EQ(apps::compare_by_policy(app, reference_output(app, text), merged, app.validation()),
              "");
  }
}

// Word count, inverted index and the page view jobs take no host record
// split: the words and the lines are found on the device (phase `split`), as
// a plain thrust program does, and the output is the reference's on edge
// cases of lines: none at all, empty lines, no final '\n', '\r\n'. Inverted
// index's page starts are host side data (phase `preprocess`).
TEST_P(ThrustTest, WordsAndLinesAreFoundOnTheDevice) {
  const std::string log = generated("weblog", 50000, 9);
  const std::vector<std::pair<const apps::MapReduceApp*, std::string>> runs = {
      {&apps::wordcount_app(), generated("text-zipf", 50000, 9)},
      {&apps::pvc_dedup_job(), log},
      {&apps::invertedindex_app(), generated("html-zipf", 50000, 9)},
      {&apps::invertedindex_app(), "<a href=a>\r\n<!-- page: 2 -->\n\n<a href=b> <a href=a>"},
      {&apps::pvc_dedup_job(), ""},
      {&apps::pvc_dedup_job(), "\n\nx\r\n\ny\nx"},
      {&apps::pvc_count_job(), "a\tb\n\tc\na\tz\r\nnotab\n\na\t"},
      {&apps::pvr_rank_job(), "0000000fu1\nshort\n00000001u2"},
  };
  for (const auto& [app, text] : runs) {
    SCOPED_TRACE(app->name() + ", " + std::to_string(text.size()) + " bytes");
    auto runtime = thrustmr::make_runtime(*device_, {});
    runtime->set_app_params(app->resolve_params({}));
    runtime->prepare(*app);
    const mapreduce::RunResult r =
        runtime->run(*app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    EXPECT_EQ(r.output, reference_output(*app, text));
    std::vector<std::string> phases = {"copy_in", "map", "group", "copy_out"};
    if (app != &apps::wordcount_app()) phases.insert(phases.begin() + 1, "split");
    if (app == &apps::invertedindex_app()) phases.insert(phases.begin(), "preprocess");
    EXPECT_EQ(phase_names(r), phases);
  }
}

TEST_P(ThrustTest, KMeansPhasesAndCounters) {
  const std::string text = npy({6, 2}, {0, 0, 10, 10, 0.5f, 0, 9, 10, 0, 1, 10, 9.5f});
  const apps::MapReduceApp& app = apps::kmeans_app();
  auto runtime = thrustmr::make_runtime(*device_, {});
  runtime->set_app_params(app.resolve_params({{"k", "3"}}));
  runtime->prepare(app);
  const mapreduce::RunResult r =
      runtime->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"preprocess", "copy_in", "map", "group", "copy_out"}));
  EXPECT_EQ(apps::compare_by_policy(app, reference_output(app, text, {{"k", "3"}}), r.output,
                                    app.validation()),
            "");
  // Centroids (0,0), (10,10), (0.5,0): (0,1) goes to the first, (9,10) and
  // (10,9.5) to the second.
  EXPECT_EQ(r.measurement.counters.at("points"), 6);
  EXPECT_EQ(r.measurement.counters.at("clusters"), 3);
  ASSERT_EQ(r.output.size(), 3u);
  EXPECT_EQ(app.format_key(r.output[1].first), "1");
  EXPECT_EQ(app.format_value(r.output[1].second), "3\t9.66666698\t9.83333302");
}

TEST_P(ThrustTest, MapOnlyAppsWithoutGroupingAreUsageErrors) {
  auto runtime = thrustmr::make_runtime(*device_, {});
  for (const char* name : {"stringmatch", "matrixmult", "similarity"}) {
    EXPECT_THROW(runtime->prepare(apps::find_mapreduce_app(name)), UsageError) << name;
  }
  EXPECT_NO_THROW(runtime->prepare(apps::kmeans_app()));
  EXPECT_NO_THROW(runtime->prepare(apps::pvc_dedup_job()));
}

// No device needed.
TEST(ThrustKnobs, HashBitsMustBeOneToSixtyFour) {
  EXPECT_THROW(thrustmr::options_from({{"hash_bits", "0"}}), UsageError);
  EXPECT_THROW(thrustmr::options_from({{"hash_bits", "65"}}), UsageError);
  EXPECT_EQ(thrustmr::options_from({{"hash_bits", "7"}}).hash_bits, 7u);
  EXPECT_EQ(thrustmr::options_from(defaults_of(thrustmr::params())).hash_bits, 64u);
  EXPECT_FALSE(thrustmr::options_from({}).verify_keys);
  EXPECT_TRUE(thrustmr::options_from({{"verify_keys", "1"}}).verify_keys);
  EXPECT_THROW(thrustmr::options_from({{"verify_keys", "maybe"}}), UsageError);
}

TEST(ThrustKnobs, TempCacheIsOnByDefault) {
  EXPECT_TRUE(thrustmr::options_from({}).temp_cache);
  EXPECT_FALSE(thrustmr::options_from({{"temp_cache", "0"}}).temp_cache);
}

// The apps registered for thrust/default are exactly those all of whose jobs it runs.
TEST(ThrustApps, RegisteredAppsAreThoseWhoseJobsItRuns) {
  const std::vector<std::string> names = thrustmr::app_names();
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) {
    std::vector<const apps::MapReduceApp*> jobs = app->jobs();
    if (jobs.empty()) jobs.push_back(app);
    const bool all = std::all_of(jobs.begin(), jobs.end(), [](const apps::MapReduceApp* j) {
      return thrustmr::runs(j->name());
    });
    EXPECT_EQ(all, std::find(names.begin(), names.end(), app->name()) != names.end())
        << app->name();
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ThrustTest);
INSTANTIATE_TEST_SUITE_P(Cuda, ThrustTest, ::testing::ValuesIn(cuda_backend()), backend_test_name);

}  // namespace
}  // namespace harness::testing
