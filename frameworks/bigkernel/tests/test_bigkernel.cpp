// BigKernel's baselines on every kernel backend with a device (PoCL in CI):
// both variants on both apps against the workloads' references with a budget
// that forces several chunks, chunks of whole records, an empty input, a
// budget too small for one round; the chunk planning on its own.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/bigkernel/bigkernel.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/blocks/cuda_programs.h"
#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {
namespace {

std::string generate(const std::string& generator, std::uint64_t size, std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

struct PointRun {
  std::string validation;  // "" when it matched the reference
  Measurement measurement;
};

class BigKernelTest : public DeviceTest {
 protected:
  PointRun run(const std::string& variant, const std::string& app, const std::string& input,
               std::uint64_t budget, int repetitions = 2) {
    register_all();
    const VariantInfo& v = Registry::instance().find_variant("bigkernel", variant);
    const AppInfo& a = Registry::instance().find_app(app);
    device_->set_memory_budget(budget);
    PointContext ctx;
    ctx.device = device_.get();
    ctx.devices = {device_.get()};
    ctx.app = app;
    ctx.input = reinterpret_cast<const std::uint8_t*>(input.data());
    ctx.input_size = input.size();
    ctx.params = point_defaults(v, a);
    ctx.validation = a.validation;
    auto point = v.make(ctx);
    point->prepare();
    PointRun r;
    for (int i = 0; i < repetitions; ++i) {  // the second run reuses the pool's buffers
      point->before_repetition();
      r.measurement = point->run_once();
      r.validation = point->validate_last();
      if (!r.validation.empty()) break;
    }
    return r;
  }
};

TEST_P(BigKernelTest, BothVariantsBothAppsInSeveralChunks) {
  const std::string particles = generate("particles", 2 << 20);
  const std::string ratings = generate("netflix-pairs", 2 << 20);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"kmeans-particles", particles},
          std::pair<std::string, const std::string&>{"netflix", ratings}}) {
      SCOPED_TRACE(variant + " " + app);
      const PointRun r = run(variant, app, input, 256 << 10);
      EXPECT_EQ(r.validation, "");
      EXPECT_GT(r.measurement.counters.at("chunks"), 4);
      EXPECT_EQ(r.measurement.counters.at("lanes"), variant == "single-buffer" ? 1 : 2);
      // Whole records: each chunk's bytes are a multiple of the record.
      const double rb = app == "netflix" ? 40 : 64;
      const double chunk_bytes = r.measurement.counters.at("chunk_bytes");
      EXPECT_EQ(chunk_bytes, rb * r.measurement.counters.at("records_per_chunk"));
      EXPECT_LE(r.measurement.counters.at("lanes") * chunk_bytes, 256 << 10);
    }
  }
}

// A record count that leaves a short last chunk, and an input of one chunk.
TEST_P(BigKernelTest, ShortLastChunkAndOneChunk) {
  const std::string particles = generate("particles", 64 * 3001, 7);
  const std::string ratings = generate("netflix-pairs", 40 * 5003, 7);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, "kmeans-particles", particles, 64 << 10).validation, "");
    EXPECT_EQ(run(variant, "netflix", ratings, 64 << 10).validation, "");
    const PointRun whole = run(variant, "netflix", ratings, 0);
    EXPECT_EQ(whole.validation, "");
    EXPECT_EQ(whole.measurement.counters.at("chunks"), 1);
  }
}

TEST_P(BigKernelTest, EmptyInput) {
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    const PointRun r = run(variant, "netflix", "", 64 << 10);
    EXPECT_EQ(r.validation, "") << variant;
    EXPECT_EQ(r.measurement.counters.at("chunks"), 0) << variant;
  }
}

TEST_P(BigKernelTest, BudgetTooSmallForOneRound) {
  const std::string particles = generate("particles", 64 * 100, 3);
  const std::string ratings = generate("netflix-pairs", 40 * 100, 3);
  for (const std::string variant : {"single-buffer", "double-buffer"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"kmeans-particles", particles},
          std::pair<std::string, const std::string&>{"netflix", ratings}}) {
      SCOPED_TRACE(variant + " " + app);
      try {
        run(variant, app, input, 512);
        ADD_FAILURE() << "no error";
      } catch (const RunError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("budget 512B"), std::string::npos) << what;
        EXPECT_NE(what.find("one round needs"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      }
    }
  }
}

// The same kmeans source built in the three modes: ADDRGEN records every
// thread's four coordinate reads (access-major, thread-minor), the host
// assembles the values they name, COMPUTE on them writes the ids PLAIN writes.
TEST_P(BigKernelTest, AddressGenerationThenComputeMatchesPlain) {
  if (GetParam() != backend::Kind::opencl) GTEST_SKIP() << "modes other than plain: OpenCL only";
  const std::string input = generate("particles", 64 * 300, 5);
  const std::uint32_t records = 300, k = 4, capacity = 4;
  std::vector<double> centroids;
  for (std::uint32_t c = 0; c < k; ++c) {
    for (int d = 0; d < 4; ++d) {
      double v;
      std::memcpy(&v, input.data() + 64 * c + 8 * d, 8);
      centroids.push_back(v);
    }
  }
  backend::Device& dev = *device_;
  backend::Queue& q = dev.queue();
  const auto shape = backend::LaunchShape::cover(records, 64);
  const std::uint32_t threads = shape.groups * shape.group_size;
  auto program = [&](const char* mode) {
    backend::ProgramSource src = program_source(std::string("bigkernel-test/kmeans/") + mode,
                                                {"frameworks/bigkernel/apps/kmeans_particles.clh"});
    src.cuda = nullptr;
    src.opencl_options = std::string("-D") + mode + "=1";
    return dev.build(src);
  };
  backend::Buffer data = dev.allocate(input.size()), cents = dev.allocate(centroids.size() * 8);
  backend::Buffer writes = dev.allocate(records * 8),
                  list = dev.allocate(8ull * capacity * threads);
  backend::Buffer counts = dev.allocate(4ull * threads);
  q.write(data, 0, input.data(), input.size());
  q.write(cents, 0, centroids.data(), centroids.size() * 8);

  auto plain = program("BK_MODE_PLAIN");
  q.launch(plain->kernel("bk_kmeans_particles"), shape, data, std::uint64_t{0}, std::uint32_t{64},
           writes, std::uint64_t{0}, records, cents, k);
  std::vector<std::int64_t> expected(records), got(records);
  q.read(expected.data(), writes, 0, records * 8);

  auto addrgen = program("BK_MODE_ADDRGEN");
  q.launch(addrgen->kernel("bk_kmeans_particles"), shape, list, capacity, std::uint64_t{0},
           std::uint32_t{64}, writes, counts, std::uint64_t{0}, records, cents, k);
  std::vector<std::uint64_t> addresses(std::size_t{capacity} * threads);
  std::vector<std::uint32_t> made(threads);
  q.read(addresses.data(), list, 0, addresses.size() * 8);
  q.read(made.data(), counts, 0, made.size() * 4);
  std::vector<std::uint64_t> values(addresses.size(), 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    ASSERT_EQ(made[t], t < records ? capacity : 0u) << "thread " << t;
    for (std::uint32_t n = 0; n < made[t]; ++n) {
      const std::uint64_t a = addresses[std::size_t{n} * threads + t];
      ASSERT_EQ(a >> 60, 3u);  // 8-byte reads
      ASSERT_EQ(a & ((std::uint64_t{1} << 60) - 1), 64ull * t + 8 * n);
      std::memcpy(&values[std::size_t{n} * threads + t], input.data() + (a & 0xffffffff), 8);
    }
  }
  q.write(list, 0, values.data(), values.size() * 8);
  q.fill_zero(writes, 0, records * 8);
  auto compute = program("BK_MODE_COMPUTE");
  q.launch(compute->kernel("bk_kmeans_particles"), shape, list, capacity, std::uint64_t{0},
           std::uint32_t{64}, writes, counts, std::uint64_t{0}, records, cents, k);
  q.read(got.data(), writes, 0, records * 8);
  EXPECT_EQ(got, expected);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

TEST(ChunkPlan, LargestChunkThatFitsEveryLane) {
  const bigkernel::LaneBytes lane = [](std::uint64_t r) { return 100 * r; };
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 10000, lane, 1u << 30), 50u);
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 1u << 30), 100u);
  EXPECT_EQ(bigkernel::records_per_chunk(10, 1, 10000, lane, 1u << 30), 10u);  // the input
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 7), 7u);        // the cap
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 199, lane, 1u << 30), 0u);   // not one
  EXPECT_EQ(bigkernel::records_per_chunk(0, 2, 10000, lane, 1u << 30), 1u);    // empty input
}

TEST(ChunkPlan, ChunksCoverEveryRecordOnce) {
  const auto c = bigkernel::chunks(10, 4);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].first, 0u);
  EXPECT_EQ(c[1].first, 4u);
  EXPECT_EQ(c[2].first, 8u);
  EXPECT_EQ(c[2].count, 2u);
  EXPECT_TRUE(bigkernel::chunks(0, 4).empty());
}

}  // namespace
}  // namespace harness::testing
