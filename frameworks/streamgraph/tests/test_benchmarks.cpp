// The eight benchmarks: each validates through its sink at small N on the
// CPU executor, a corrupted filter makes the sink fail, the references pass
// their own known-answer checks, and table 1's counts follow the scaling.
#include <gtest/gtest.h>

#include <cmath>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/des.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/executor_cpu.h"
#include "frameworks/streamgraph/schedule.h"
#include "frameworks/streamgraph/stats.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {
namespace {

// Enough executions for several checked blocks (FMRadio checks one item per execution).
std::int64_t iterations_for(const std::string& name) { return name == "FMRadio" ? 40 : 3; }

TEST(StreamGraphBenchmarks, EveryBenchmarkValidatesAtSmallN) {
  for (const BenchmarkInfo& info : benchmark_list()) {
    for (int n : info.small_n) {
      SCOPED_TRACE(info.name + " N=" + std::to_string(n));
      Benchmark b = make_benchmark(info.name, n);
      const Schedule s = make_schedule(b.graph);
      const std::int64_t iterations = iterations_for(info.name);
      const CpuRunResult r = run_sequential(b.graph, s, iterations);
      EXPECT_EQ(r.iterations, iterations);
      EXPECT_TRUE(b.report->passed())
          << b.report->first_mismatch() << " (" << b.report->mismatches() << " of "
          << b.report->items_checked() << ")";
      EXPECT_GE(b.report->items_checked(), 3u);
    }
  }
}

TEST(StreamGraphBenchmarks, ACorruptedFilterFailsTheSink) {
  for (const BenchmarkInfo& info : benchmark_list()) {
    const int n = info.small_n[1];
    SCOPED_TRACE(info.name + " N=" + std::to_string(n));
    Benchmark b = make_benchmark(info.name, n);
    const Schedule s = make_schedule(b.graph);
    // The stateless filter nearest the middle of the firing order: perturb its first output item.
    NodeId victim = -1;
    for (std::size_t i = s.order.size() / 2; i < s.order.size(); ++i) {
      const Node& node = b.graph.node(s.order[i]);
      if (node.kind == NodeKind::filter && !node.filter.stateful && node.filter.push > 0) {
        victim = s.order[i];
        break;
      }
    }
    ASSERT_GE(victim, 0);
    HostWork& work = b.graph.node(victim).filter.work;
    if (work.f32) {
      work.f32 = [inner = work.f32](const float* in, float* out) {
        inner(in, out);
        out[0] += 0.5f;
      };
    } else {
      work.u32 = [inner = work.u32](const std::uint32_t* in, std::uint32_t* out) {
        inner(in, out);
        out[0] ^= 1u;
      };
    }
    run_sequential(b.graph, s, iterations_for(info.name));
    EXPECT_FALSE(b.report->passed())
        << "corrupting '" << b.graph.node(victim).name << "' went unnoticed";
    EXPECT_GT(b.report->mismatches(), 0u);
    EXPECT_FALSE(b.report->first_mismatch().empty());
  }
}

// The sink only keeps what it pops; the references run when the report is
// read (after a timed run), block by block, and again for later items.
TEST(StreamGraphBenchmarks, SinkChecksWhenItsReportIsRead) {
  int reference_calls = 0;
  auto report = std::make_shared<SinkReport>();
  const FilterSpec sink = checking_sink_u32(
      2,
      [&reference_calls](std::uint64_t block) {
        ++reference_calls;
        return std::vector<std::uint32_t>{static_cast<std::uint32_t>(2 * block),
                                          static_cast<std::uint32_t>(2 * block + 1)};
      },
      report);
  const auto& pop = sink.work.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < 5; ++i) pop(&i, nullptr);  // two blocks and one item
  EXPECT_EQ(reference_calls, 0);
  EXPECT_EQ(report->items_checked(), 4u);
  EXPECT_EQ(reference_calls, 2);
  EXPECT_TRUE(report->passed());
  const std::uint32_t wrong = 7;  // item 1 of block 2 should be 5
  pop(&wrong, nullptr);
  EXPECT_EQ(report->items_checked(), 6u);
  EXPECT_EQ(report->mismatches(), 1u);
  EXPECT_EQ(report->first_mismatch(), "item 1 of block 2 is 7, expected 5");
}

TEST(StreamGraphBenchmarks, DesReferenceMatchesKnownAnswers) {
  // FIPS 46 worked example, and a key/plaintext pair that encrypts to zero.
  EXPECT_EQ(des::reference_encrypt(0x133457799BBCDFF1ull, 0x0123456789ABCDEFull, 16),
            0x85E813540F0AB405ull);
  EXPECT_EQ(des::reference_encrypt(0x0E329232EA6D0D73ull, 0x8787878787878787ull, 16), 0ull);
}

TEST(StreamGraphBenchmarks, GraphsGrowWithN) {
  auto stats = [](const std::string& name, int n) {
    Benchmark b = make_benchmark(name, n);
    return graph_stats(b.graph, make_schedule(b.graph));
  };
  // Bitonic: (N/2) log N (log N + 1) / 2 compare-exchange filters, plus source and sink.
  EXPECT_EQ(stats("Bitonic", 8).filters, 24 + 2);
  EXPECT_EQ(stats("Bitonic", 16).filters, 80 + 2);
  EXPECT_EQ(stats("BitonicRec", 8).filters, 24 + 2);
  // DES: 14 filters per round, 7 around them.
  EXPECT_EQ(stats("DES", 16).filters, 14 * 16 + 7);
  EXPECT_EQ(stats("DES", 4).operators, 20 * 4 + 7);
  // FFT: log N - 1 reorders, log N combines.
  EXPECT_EQ(stats("FFT", 32).filters, 4 + 5 + 2);
  // DCT: 2N one-dimensional DCTs.
  EXPECT_EQ(stats("DCT", 8).filters, 16 + 2);
  // FMRadio: 4 filters per band, front filter, demodulator, summer.
  EXPECT_EQ(stats("FMRadio", 8).filters, 4 * 11 + 3 + 2);
  // MatrixMult(3): nb row blocks of 2 filters, nb^2 column blocks of 3.
  EXPECT_EQ(stats("MatrixMult", 2).filters, 2 * 2 + 3 * 4 + 2);
  EXPECT_EQ(stats("MatrixMult3", 2).filters, 2 * 3 + 3 * 9 + 2);
  for (const BenchmarkInfo& info : benchmark_list()) {
    const GraphStats small = stats(info.name, info.small_n[1]);
    const GraphStats large = stats(info.name, info.small_n[3]);
    EXPECT_EQ(small.stateful_filters, 2) << info.name;
    EXPECT_LT(small.operators, large.operators) << info.name;
    EXPECT_LE(small.shared_memory_bytes, large.shared_memory_bytes) << info.name;
    EXPECT_GT(small.shared_memory_bytes, 0u) << info.name;
    EXPECT_LE(small.shared_memory_bytes, small.total_buffer_bytes) << info.name;
  }
}

TEST(StreamGraphBenchmarks, BadNamesAndSizesAreUsageErrors) {
  EXPECT_THROW(make_benchmark("Sorting", 8), UsageError);
  EXPECT_THROW(make_benchmark("Bitonic", 6), UsageError);
  EXPECT_THROW(make_benchmark("FFT", 0), UsageError);
  EXPECT_THROW(make_benchmark("DES", 0), UsageError);
}

}  // namespace
}  // namespace harness::streamgraph
