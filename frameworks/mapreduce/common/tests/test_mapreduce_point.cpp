// The MapReduce point (point_factory): app parameters reach the runtime and
// the reference, the validation kind picks the comparison, a wrong answer
// fails, inputs past the 4 GiB limit fail before anything runs.
#include <gtest/gtest.h>

#include <sstream>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/job_chain.h"
#include "frameworks/mapreduce/common/mapreduce_runtime.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

// The cpu runtime, optionally dropping the last output pair (a missed match).
class Dropping final : public mapreduce::Runtime {
 public:
  Dropping(const std::string& app, bool drop) : inner_(cpu::make_runtime(app, {1})), drop_(drop) {}
  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* in,
                           std::size_t n) override {
    inner_->set_app_params(app_params());
    mapreduce::RunResult r = inner_->run(app, in, n);
    if (drop_ && !r.output.empty()) r.output.pop_back();
    return r;
  }

 private:
  std::unique_ptr<mapreduce::Runtime> inner_;
  bool drop_;
};

const std::string kText = "aaaa\naaa\nbaab\n";

std::unique_ptr<PointRunner> point(const std::string& app, Params params, const std::string& kind,
                                   bool drop = false, const std::string* text = &kText) {
  PointContext ctx;
  ctx.app = app;
  ctx.input = reinterpret_cast<const std::uint8_t*>(text->data());
  ctx.input_size = text->size();
  ctx.params = std::move(params);
  ctx.validation.kind = kind;
  auto make = mapreduce::point_factory(
      [app, drop](const PointContext&) { return std::make_unique<Dropping>(app, drop); });
  return make(ctx);
}

std::string dump(const PointRunner& p) {
  std::ostringstream out;
  p.dump_output(out);
  return out.str();
}

TEST(MapReducePoint, AppParametersReachTheRuntimeAndTheReference) {
  // "threads" is a variant knob: the app ignores it.
  auto p = point("stringmatch", {{"pattern", "aa"}, {"threads", "1"}}, "set");
  p->prepare();
  p->run_once();
  EXPECT_EQ(p->validate_last(), "");
  EXPECT_EQ(dump(*p), "aa\t0\naa\t1\naa\t2\naa\t5\naa\t6\naa\t10\n");
  EXPECT_EQ(p->work().item("output_keys"), 6u);
  // Another pattern on the same input gets its own reference.
  auto q = point("stringmatch", {{"pattern", "baab"}}, "set");
  q->prepare();
  q->run_once();
  EXPECT_EQ(q->validate_last(), "");
  EXPECT_EQ(dump(*q), "baab\t9\n");
  // No pattern: the app's default.
  auto d = point("stringmatch", {}, "set");
  d->prepare();
  d->run_once();
  EXPECT_EQ(d->validate_last(), "");
  EXPECT_EQ(dump(*d), "");
}

TEST(MapReducePoint, AMissingMatchFailsSetAndExactValidation) {
  auto set = point("stringmatch", {{"pattern", "aa"}}, "set", true);
  set->prepare();
  set->run_once();
  EXPECT_EQ(set->validate_last(), "expected 6 pairs, got 5; 1 missing: (aa, 10)");
  auto exact = point("stringmatch", {{"pattern", "aa"}}, "exact", true);
  exact->prepare();
  exact->run_once();
  EXPECT_NE(exact->validate_last().find("1 missing keys"), std::string::npos);
  const std::string html = "<!-- page: p -->\n<a href=x> <a href=y>\n";
  auto ii = point("invertedindex", {}, "set", true, &html);
  ii->prepare();
  ii->run_once();
  EXPECT_EQ(ii->validate_last(), "expected 2 pairs, got 1; 1 missing: (y, 0)");
}

TEST(MapReducePoint, BadParametersAndKindsAreUsageErrors) {
  EXPECT_THROW(point("stringmatch", {{"pattern", ""}}, "set"), UsageError);
  EXPECT_THROW(point("stringmatch", {}, "sanity"), UsageError);
  EXPECT_THROW(point("nope", {}, "exact"), UsageError);
}

// A chained app runs each job on its own runtime; a job without one is a
// usage error naming it, before anything runs.
TEST(JobChain, EveryJobNeedsARuntime) {
  std::vector<std::string> made;
  mapreduce::JobChain chain(apps::pageviewrank_app(), [&made](const std::string& job) {
    made.push_back(job);
    return cpu::make_runtime(job, {1});
  });
  EXPECT_EQ(made, (std::vector<std::string>{"pvc_dedup", "pvc_count", "pvr_rank"}));
  try {
    mapreduce::JobChain broken(apps::pageviewcount_app(), [](const std::string& job) {
      return job == "pvc_count" ? nullptr : cpu::make_runtime(job, {1});
    });
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no runtime for job 'pvc_count'"), std::string::npos)
        << e.what();
  }
}

// Runs another runtime, recording for each run whether its caller asked for
// canonical order.
class RecordingRuntime final : public mapreduce::Runtime {
 public:
  RecordingRuntime(std::unique_ptr<mapreduce::Runtime> inner, std::vector<bool>& canonical)
      : inner_(std::move(inner)), canonical_(canonical) {}
  void prepare(const apps::MapReduceApp& app) override { inner_->prepare(app); }
  mapreduce::RunResult run(const apps::MapReduceApp& app, const std::uint8_t* input,
                           std::size_t size) override {
    canonical_.push_back(canonical_output());
    inner_->set_app_params(app_params());
    inner_->set_canonical_output(canonical_output());
    return inner_->run(app, input, size);
  }

 private:
  std::unique_ptr<mapreduce::Runtime> inner_;
  std::vector<bool>& canonical_;
};

// Only the last job's output is sorted (earlier ones only feed the next job,
// in whatever order their runtime made them), and the answer still holds.
TEST(JobChain, OnlyTheLastJobsOutputIsPutInCanonicalOrder) {
  std::vector<bool> canonical;
  const apps::MapReduceApp& pvr = apps::pageviewrank_app();
  mapreduce::JobChain chain(pvr, [&canonical](const std::string& job) {
    return std::make_unique<RecordingRuntime>(cpu::make_runtime(job, {2}), canonical);
  });
  chain.set_app_params({{"top", "50"}});
  chain.prepare();
  const std::string log = generated("weblog", 200000, 5);
  const mapreduce::RunResult r =
      chain.run(reinterpret_cast<const std::uint8_t*>(log.data()), log.size());
  EXPECT_EQ(canonical, (std::vector<bool>{false, false, true}));
  const apps::KeyValueList expected =
      pvr.reference({{"top", "50"}}, reinterpret_cast<const std::uint8_t*>(log.data()), log.size());
  ASSERT_EQ(expected.size(), 50u);
  EXPECT_EQ(apps::compare_outputs(pvr, expected, r.output), "");
}

// String match's values are input positions, which need more than 32 bits
// past 4 GiB, so such an input cannot run in pieces either.
TEST(MapReducePoint, InputsOf4GiBFailBeforeTheReferenceWhenTheAppCannotRunInPieces) {
  PointContext ctx;
  ctx.app = "stringmatch";
  ctx.input = nullptr;  // never read
  ctx.input_size = std::size_t{5} << 30;
  auto p = mapreduce::point_factory(
      [](const PointContext&) { return cpu::make_runtime("stringmatch", {1}); })(ctx);
  try {
    p->prepare();
    FAIL() << "no RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("smaller than 4 GiB"), std::string::npos) << e.what();
  }
}

// Inputs at the runtimes' limit run in pieces cut at line ends, merged: shown
// with a limit of a few KB (the real one is 4 GiB).
mapreduce::RunResult run_in_pieces(const apps::MapReduceApp& app, const std::string& text,
                                   std::size_t limit) {
  mapreduce::JobChain chain(app,
                            [](const std::string& job) { return cpu::make_runtime(job, {2}); });
  chain.set_max_run_bytes(limit);
  chain.set_app_params({});
  chain.prepare();
  return chain.run(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

TEST(JobChain, InputsAtTheLimitRunInPiecesCutAtLineEnds) {
  const std::string text = generated("text-zipf", 100000, 9);
  mapreduce::RunResult r = run_in_pieces(apps::wordcount_app(), text, 4096);
  EXPECT_GE(r.measurement.counters.at("pieces"), 100000.0 / 4096);
  EXPECT_EQ(apps::compare_outputs(apps::wordcount_app(),
                                  reference_output(apps::wordcount_app(), text), r.output),
            "");
  // Both jobs of page view count run in pieces; an entry repeated in two
  // pieces is still counted once.
  std::string log = generated("weblog", 50000, 9);
  log += log;
  const apps::MapReduceApp& pvc = apps::pageviewcount_app();
  r = run_in_pieces(pvc, log, 3000);
  EXPECT_GT(r.measurement.counters.at("pieces"), 30);
  EXPECT_EQ(apps::compare_outputs(pvc, reference_output(pvc, log), r.output), "");
  EXPECT_EQ(run_in_pieces(pvc, log, log.size() + 1).measurement.counters.count("pieces"), 0u);
}

TEST(JobChain, PiecesFailForPositionsAndForALineOverTheLimit) {
  const std::string text = generated("text-zipf", 20000, 9);
  EXPECT_THROW(run_in_pieces(apps::stringmatch_app(), text, 4096), RunError);
  const std::string long_line = std::string(5000, 'a') + "\nb\n";
  EXPECT_THROW(run_in_pieces(apps::wordcount_app(), long_line, 4096), RunError);
}

}  // namespace
}  // namespace harness::testing
