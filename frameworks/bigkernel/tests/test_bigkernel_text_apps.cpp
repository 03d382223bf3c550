// BigKernel on its byte-granular apps, opinion-finder (146 single-byte reads
// of a 200-byte tweet) and dna-assembly (36 of a 100-byte fragment), on every
// kernel backend with a device (PoCL in CI): every variant in several rounds
// (more rounds than buffers) against the workload's serial reference, the
// bytes sent equal to table 4.1's read share, pattern recognition on and off
// (the same answer, raw lists of width-1 reads), a short last round and one
// round, the hand-written examples repeated over many rounds (dna's all-A
// part packs to key 0: the chunk table's key-0 slot in every chunk), another
// subject, a bad one, and an empty input.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "frameworks/bigkernel/tests/bigkernel_testing.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/opinion_finder/opinion_format.h"
#include "frameworks/workloads/registry.h"
#include "frameworks/workloads/tests/fixed_text_test_support.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

// An app's input and the GPU memory budgets that give it many rounds: the
// pipeline's reduced-volume rounds hold an address list of 8 B a read.
struct TextApp {
  std::string dataset;
  std::uint64_t record_bytes;
  std::uint32_t reads;
  std::uint64_t buffered_budget, pipeline_budget;
};

TextApp text_app(const std::string& app) {
  namespace op = workloads::opinion;
  namespace dna = workloads::dna;
  if (app == op::kName) return {"tweets", op::kRecordBytes, op::kTextBytes, 256 << 10, 1 << 20};
  return {"dna-fragments", dna::kRecordBytes, dna::kFragmentBases, 128 << 10, 384 << 10};
}

bool pipeline(const std::string& variant) {
  return variant == "overlap-only" || variant == "reduced-volume" || variant == "full" ||
         variant == "full-sl1";
}

class BigKernelTextAppTest : public DeviceAppTest {
 protected:
  PointRun run(const std::string& variant, const std::string& input, std::uint64_t budget,
               const Params& overrides = {}, int repetitions = 2) {
    return run_point(*device_, "bigkernel", variant, app_name(), input, budget, overrides,
                     repetitions);
  }
  std::uint64_t budget(const std::string& variant) const {
    const TextApp a = text_app(app_name());
    return pipeline(variant) ? a.pipeline_budget : a.buffered_budget;
  }
  // The workload's hand-written example (examples/small.txt).
  std::string example() const {
    const std::string folder = app_name() == "opinion-finder" ? "opinion_finder" : "dna_assembly";
    namespace ts = workloads::test_support;
    return ts::read_file(ts::source_dir() / "frameworks/workloads" / folder / "examples/small.txt");
  }
  // run() and budget() for the shared checks of bigkernel_testing.h.
  RunVariant run_variant() {
    return [this](const std::string& variant, const std::string& input, std::uint64_t budget,
                  int repetitions) { return run(variant, input, budget, {}, repetitions); };
  }
  VariantBudget variant_budget() const {
    return [this](const std::string& variant) { return budget(variant); };
  }
};

TEST_P(BigKernelTextAppTest, EveryVariantInSeveralRounds) {
  const TextApp a = text_app(app_name());
  const std::string input = generate(a.dataset, 1 << 20);
  for (const std::string& variant : kBigKernelVariants) {
    if (!bigkernel_runs_here(*device_, variant)) continue;
    SCOPED_TRACE(variant);
    const PointRun r = run(variant, input, budget(variant));
    EXPECT_EQ(r.validation, "");
    if (variant != "zero-copy") {
      EXPECT_GT(bigkernel_rounds(r.measurement), 2);
    }
    if (pipeline(variant)) {
      for (const std::string phase : {"copy_in", "compute", "assembly"}) {
        EXPECT_GT(phase_ms(r.measurement, phase), 0) << phase;
      }
    }
  }
}

// The bytes sent over the input: table 4.1's read share (the workload's
// paper facts) exactly with the thread layout (single-byte values pack
// without padding), and up to the coalesced segments' 8-byte rounding with
// the full layout; every round follows base + t x stride.
TEST_P(BigKernelTextAppTest, ReadShareIsTable4_1s) {
  const TextApp a = text_app(app_name());
  const std::string input = generate(a.dataset, 1 << 20, 5);
  const std::optional<double> paper_share = workloads::find_workload(app_name()).paper().read_share;
  ASSERT_TRUE(paper_share.has_value());
  const double share = *paper_share;
  const double records = static_cast<double>(input.size() / a.record_bytes);
  ASSERT_GT(records, 0);
  EXPECT_DOUBLE_EQ(share, static_cast<double>(a.reads) / static_cast<double>(a.record_bytes));
  for (const std::string variant : {"reduced-volume", "full"}) {
    SCOPED_TRACE(variant);
    const PointRun r = run(variant, input, budget(variant), {}, 1);
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_EQ(c.at("pattern_rounds"), c.at("rounds"));
    EXPECT_EQ(c.at("raw_rounds"), 0);
    if (std::string(variant) == "reduced-volume") {
      EXPECT_EQ(c.at("value_bytes"), records * a.reads);
      EXPECT_DOUBLE_EQ(c.at("volume_fraction"), share);
    } else {
      EXPECT_GE(c.at("value_bytes"), records * a.reads);
      EXPECT_LE(c.at("value_bytes"), records * a.reads + c.at("rounds") * a.reads * 7);
      EXPECT_NEAR(c.at("volume_fraction"), share, 0.01);
    }
  }
  // overlap-only sends whole records.
  const PointRun whole = run("overlap-only", input, budget("overlap-only"), {}, 1);
  EXPECT_EQ(whole.measurement.counters.at("value_bytes"),
            records * static_cast<double>(a.record_bytes));
}

// Without pattern recognition every round sends its raw address list back
// (8 B for each single-byte read: far more than the input) and the assembly
// reads it; the answer and the values sent are the same.
TEST_P(BigKernelTextAppTest, PatternsOnAndOffGiveTheSameAnswer) {
  const TextApp a = text_app(app_name());
  const std::string input = generate(a.dataset, 512 << 10, 9);
  for (const std::string variant : {"reduced-volume", "full"}) {
    SCOPED_TRACE(variant);
    const PointRun with = run(variant, input, budget(variant));
    const PointRun without = run(variant, input, budget(variant), {{"patterns", "false"}});
    EXPECT_EQ(with.validation, "");
    EXPECT_EQ(without.validation, "");
    const auto &on = with.measurement.counters, &off = without.measurement.counters;
    EXPECT_EQ(off.at("raw_rounds"), off.at("rounds"));
    EXPECT_EQ(off.at("pattern_rounds"), 0);
    EXPECT_EQ(on.at("pattern_rounds"), on.at("rounds"));
    EXPECT_GT(off.at("address_bytes"), 50 * on.at("address_bytes"));
    EXPECT_GT(off.at("address_bytes"), static_cast<double>(input.size()));
    EXPECT_EQ(off.at("value_bytes"), on.at("value_bytes"));
  }
}

// A record count that leaves a short last round, and the whole input in one.
TEST_P(BigKernelTextAppTest, ShortLastRoundAndOneRound) {
  const TextApp a = text_app(app_name());
  const std::string input = generate(a.dataset, a.record_bytes * 3001, 7);
  expect_short_last_round_and_one_round(*device_, input, run_variant(), variant_budget());
}

// The hand-written example (opinion-finder: a word ending at byte 145, UTF-8,
// capped adverbs; dna-assembly: the all-A part, key 0, and the all-T part)
// repeated into many rounds, so every chunk's table has the key-0 row.
TEST_P(BigKernelTextAppTest, HandWrittenExampleInManyRounds) {
  const std::string once = example();
  ASSERT_FALSE(once.empty());
  std::string repeated;
  for (int i = 0; i < 300; ++i) repeated += once;
  for (const std::string variant : {"double-buffer", "full"}) {
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, once, budget(variant), {}, 1).validation, "");
    const PointRun r = run(variant, repeated, budget(variant), {}, 1);
    EXPECT_EQ(r.validation, "");
    EXPECT_GT(bigkernel_rounds(r.measurement), 2);
  }
}

TEST_P(BigKernelTextAppTest, EmptyInput) {
  expect_empty_input_in_no_round(*device_, run_variant(), variant_budget());
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelTextAppTest);
INSTANTIATE_TEST_SUITE_P(
    Backends, BigKernelTextAppTest,
    ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                       ::testing::Values(std::string("opinion-finder"),
                                         std::string("dna-assembly"))),
    [](const ::testing::TestParamInfo<std::tuple<backend::Kind, std::string>>& i) {
      std::string name = backend_app_test_name(i);
      for (char& c : name) c = c == '-' ? '_' : c;
      return name;
    });

// opinion-finder's subject reaches the kernel (its keywords in device memory):
// another subject gives another answer, still the reference's; a bad one is a
// one-line usage error before anything runs.
class BigKernelOpinionTest : public DeviceTest {};

TEST_P(BigKernelOpinionTest, AnotherSubjectAndABadOne) {
  const std::string input = generate("tweets", 512 << 10, 3);
  for (const std::string variant : {"single-buffer", "full"}) {
    SCOPED_TRACE(variant);
    for (const std::string subject : {"coffee", " Weather , TRAFFIC,love "}) {
      const PointRun r = run_point(*device_, "bigkernel", variant, "opinion-finder", input, 1 << 20,
                                   {{"subject", subject}}, 1);
      EXPECT_EQ(r.validation, "") << subject;
    }
    try {
      run_point(*device_, "bigkernel", variant, "opinion-finder", input, 1 << 20,
                {{"subject", "phone,bat-tery"}}, 1);
      ADD_FAILURE() << "no error";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("bat-tery"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelOpinionTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelOpinionTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
