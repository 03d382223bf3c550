// BigKernel on every kernel backend with a device (PoCL in CI): every variant
// (single/double buffer, zero-copy, the pipeline's overlap-only,
// reduced-volume, full, and full-sl1: BigKernel + S-L1) on K-means and Netflix
// against the workloads' references with a budget that forces many rounds
// (more rounds than buffers; K-means' mapped writes), the pipeline's counters (pattern and raw
// rounds, the volume sent), an empty input, a budget too small for one round, the pattern kernel on
// hand-made lists; the assembly and the chunk planning on the host
// (tests/test_bigkernel_text_apps.cpp: opinion-finder and dna-assembly).
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/bigkernel/assembly.h"
#include "frameworks/bigkernel/bigkernel.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/bigkernel/derivable.h"
#include "frameworks/bigkernel/tests/bigkernel_testing.h"
#include "frameworks/blocks/cuda_programs.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

class BigKernelTest : public DeviceTest {
 protected:
  bool runs_here(const std::string& variant) const {
    return bigkernel_runs_here(*device_, variant);
  }
  PointRun run(const std::string& variant, const std::string& app, const std::string& input,
               std::uint64_t budget, const Params& overrides = {}, int repetitions = 2) {
    return run_point(*device_, "bigkernel", variant, app, input, budget, overrides, repetitions);
  }
};

const std::vector<std::string> kBuffered = {"single-buffer", "double-buffer"};
const std::vector<std::string>& kAll = kBigKernelVariants;

TEST_P(BigKernelTest, BufferedVariantsBothAppsInSeveralChunks) {
  const std::string particles = generate("particles", 2 << 20);
  const std::string ratings = generate("netflix-pairs", 2 << 20);
  for (const std::string& variant : kBuffered) {
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
  for (const std::string& variant : kAll) {
    if (!runs_here(variant)) continue;
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, "kmeans-particles", particles, 64 << 10).validation, "");
    EXPECT_EQ(run(variant, "netflix", ratings, 64 << 10).validation, "");
    const PointRun whole = run(variant, "netflix", ratings, 0);
    EXPECT_EQ(whole.validation, "");
    EXPECT_EQ(bigkernel_rounds(whole.measurement), 1);
  }
}

// (K-means needs its k centroids from the input: an empty one is the
// workload's error, tested with the workload.)
TEST_P(BigKernelTest, EmptyInput) {
  for (const std::string& variant : kAll) {
    if (!runs_here(variant)) continue;
    const PointRun r = run(variant, "netflix", "", 64 << 10);
    EXPECT_EQ(r.validation, "") << variant;
    EXPECT_EQ(bigkernel_rounds(r.measurement), 0) << variant;
  }
}

TEST_P(BigKernelTest, BudgetTooSmallForOneRound) {
  const std::string particles = generate("particles", 64 * 100, 3);
  const std::string ratings = generate("netflix-pairs", 40 * 100, 3);
  for (const std::string& variant : kAll) {
    if (!runs_here(variant)) continue;
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

// The pipeline's variants in many rounds (more rounds than its two buffers),
// K-means' mapped writes among them; the counters say what was sent.
TEST_P(BigKernelTest, PipelineVariantsInManyRounds) {
  const std::string particles = generate("particles", 1 << 20);
  const std::string ratings = generate("netflix-pairs", 1 << 20);
  for (const std::string variant : {"overlap-only", "reduced-volume", "full", "full-sl1"}) {
    for (const auto& [app, input, read_share] :
         {std::tuple<std::string, const std::string&, double>{"kmeans-particles", particles, 0.5},
          std::tuple<std::string, const std::string&, double>{"netflix", ratings, 0.3}}) {
      SCOPED_TRACE(variant + " " + app);
      const PointRun r = run(variant, app, input, 256 << 10);
      EXPECT_EQ(r.validation, "");
      const auto& c = r.measurement.counters;
      EXPECT_GT(c.at("rounds"), 4);
      // Whole records for overlap-only; exactly the bytes read for the others
      // (table 4.1's read shares).
      const double records = static_cast<double>(input.size() / (app == "netflix" ? 40 : 64));
      const double rb = app == "netflix" ? 40 : 64;
      if (variant == "overlap-only") {
        EXPECT_EQ(c.at("value_bytes"), records * rb);
        EXPECT_EQ(c.at("pattern_rounds") + c.at("raw_rounds"), 0);
      } else {
        // Coalesced segments start at multiples of 8 B: at most 7 B more a read a round.
        EXPECT_GE(c.at("value_bytes"), records * rb * read_share);
        EXPECT_LE(c.at("value_bytes"), records * rb * read_share + c.at("rounds") * 4 * 7);
        EXPECT_EQ(c.at("pattern_rounds"), c.at("rounds"));  // both apps read base + t x stride
        EXPECT_EQ(c.at("raw_rounds"), 0);
      }
      for (const std::string phase : {"copy_in", "compute", "assembly"}) {
        EXPECT_GT(phase_ms(r.measurement, phase), 0) << phase;
      }
      if (variant == "full-sl1") {
        // 4 (K-means) or 3 (Netflix) reads a thread never finish S-L1's 300
        // monitored accesses: no thread decides, no value goes through a line.
        EXPECT_EQ(c.at("sl1_decided_threads"), 0);
        EXPECT_EQ(c.at("sl1_line_accesses"), 0);
      }
    }
  }
}

// Pattern recognition off: every round sends its raw address list back (far
// more bytes than the descriptors) and the assembly reads it; same answer.
TEST_P(BigKernelTest, RawAddressesWithoutPatternRecognition) {
  const std::string ratings = generate("netflix-pairs", 1 << 20, 9);
  for (const std::string variant : {"reduced-volume", "full", "full-sl1"}) {
    SCOPED_TRACE(variant);
    const PointRun with = run(variant, "netflix", ratings, 256 << 10);
    const PointRun without = run(variant, "netflix", ratings, 256 << 10, {{"patterns", "false"}});
    EXPECT_EQ(with.validation, "");
    EXPECT_EQ(without.validation, "");
    EXPECT_EQ(without.measurement.counters.at("raw_rounds"),
              without.measurement.counters.at("rounds"));
    EXPECT_EQ(without.measurement.counters.at("pattern_rounds"), 0);
    EXPECT_GT(without.measurement.counters.at("address_bytes"),
              50 * with.measurement.counters.at("address_bytes"));
    EXPECT_EQ(without.measurement.counters.at("value_bytes"),
              with.measurement.counters.at("value_bytes"));
  }
}

// Rounds of more than 768 KiB of values (a worker takes 256 KiB at least):
// 1, 3 and 16 workers may all be used, and give the same answer.
TEST_P(BigKernelTest, AssemblyThreadsDoNotChangeTheAnswer) {
  const std::string particles = generate("particles", 8 << 20, 11);
  for (const std::string threads : {"1", "3", "16"}) {
    const PointRun r =
        run("full", "kmeans-particles", particles, 16 << 20, {{"assembly_threads", threads}}, 1);
    EXPECT_EQ(r.validation, "") << threads;
    const auto& c = r.measurement.counters;
    EXPECT_EQ(c.at("assembly_threads"), std::stod(threads));
    ASSERT_GT(c.at("value_bytes") / c.at("rounds"), 3.0 * (256 << 10)) << "rounds too small";
    if (threads == "16")
      EXPECT_GE(c.at("assembly_workers_used"), 3);
    else
      EXPECT_EQ(c.at("assembly_workers_used"), std::stod(threads));
  }
}

// kernels/pattern.clh on hand-made lists: an affine list holds (its
// descriptor names thread 0's reads and the stride); one address off, one
// thread with another count or another width breaks it.
TEST_P(BigKernelTest, PatternKernelOnHandMadeLists) {
  backend::Device& dev = *device_;
  backend::Queue& q = dev.queue();
  auto program =
      dev.build(program_source("bigkernel/pattern", {"frameworks/bigkernel/kernels/pattern.clh"}));
  const backend::Kernel kernel = program->kernel("bk_find_pattern");
  const std::uint32_t threads = 300, list_threads = 512, reads = 3, max_entries = 4;
  auto find = [&](std::vector<std::uint64_t> list, std::vector<std::uint32_t> counts) {
    backend::Buffer l = dev.allocate(list.size() * 8), c = dev.allocate(counts.size() * 4);
    backend::Buffer d = dev.allocate(bigkernel::descriptor_words(max_entries) * 8);
    q.write(l, 0, list.data(), list.size() * 8);
    q.write(c, 0, counts.data(), counts.size() * 4);
    q.fill_zero(d, 0, 8);
    q.launch(kernel, backend::LaunchShape::cover(threads, 128), l, c, threads, list_threads,
             max_entries, d);
    std::vector<std::uint64_t> words(bigkernel::descriptor_words(max_entries));
    q.read(words.data(), d, 0, words.size() * 8);
    return bigkernel::read_descriptor(words.data(), max_entries);
  };
  std::vector<std::uint64_t> list(std::size_t{reads} * list_threads, 0);
  std::vector<std::uint32_t> counts(list_threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    counts[t] = reads;
    for (std::uint32_t n = 0; n < reads; ++n) {
      const std::uint64_t width_log2 = n == 2 ? 1 : 2;
      list[std::size_t{n} * list_threads + t] = (1000 + 40ull * t + 4 * n) | width_log2 << 60;
    }
  }
  const bigkernel::AddressPattern holds = find(list, counts);
  ASSERT_TRUE(holds.holds);
  EXPECT_EQ(holds.count, reads);
  EXPECT_EQ(holds.stride, 40u);
  ASSERT_EQ(holds.first.size(), reads);
  EXPECT_EQ(bigkernel::entry_offset(holds.first[1]), 1004u);
  EXPECT_EQ(bigkernel::entry_width(holds.first[2]), 2u);

  auto off_by_one = list;
  off_by_one[std::size_t{1} * list_threads + 299] += 1;
  EXPECT_FALSE(find(off_by_one, counts).holds);
  auto short_thread = counts;
  short_thread[77] = 2;
  EXPECT_FALSE(find(list, short_thread).holds);
  auto other_width = list;
  other_width[std::size_t{0} * list_threads + 5] ^= std::uint64_t{1} << 60;
  EXPECT_FALSE(find(other_width, counts).holds);
  auto too_many = counts;
  for (std::uint32_t t = 0; t < threads; ++t) too_many[t] = max_entries + 1;
  EXPECT_FALSE(find(list, too_many).holds);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

// The layouts COMPUTE reads (kernels/bigkernel.clh): coalesced segments
// rounded to 8 bytes, thread-major values at multiples of their widths.
// Two address generations of a round (mapped reads returning 0, then 1)
// agree for a derivable kernel; a count or an entry that differs is named
// with its record and read. Lists are access-major: entry n of thread t at
// list[n * threads + t], width as log2 in bits 60-63.
TEST(Derivable, FirstAddressDifference) {
  constexpr std::uint64_t k4 = std::uint64_t{2} << 60, k1 = 0;
  // 3 threads, up to 2 reads each: thread t reads 4 B at 100 t, then 1 B at 100 t + 7.
  const std::vector<std::uint64_t> list = {k4 | 0, k4 | 100, k4 | 200, k1 | 7, k1 | 107, k1 | 207};
  const std::vector<std::uint32_t> counts = {2, 2, 2};
  EXPECT_EQ(bigkernel::first_address_difference(list.data(), counts.data(), list.data(),
                                                counts.data(), 3, 2, 50),
            "");
  // Thread 1's second read moved by the value its first read returned.
  std::vector<std::uint64_t> moved = list;
  moved[4] = k1 | 108;
  EXPECT_EQ(bigkernel::first_address_difference(list.data(), counts.data(), moved.data(),
                                                counts.data(), 3, 2, 50),
            "record 51's read 1 is 1 B at mapped byte 107 when mapped data reads 0, 1 B at byte "
            "108 when it reads 1");
  // Thread 2 made one more read (a loop bounded by a mapped value), past the
  // list's capacity: the counts tell.
  std::vector<std::uint32_t> more = counts;
  more[2] = 3;
  EXPECT_EQ(bigkernel::first_address_difference(list.data(), counts.data(), list.data(),
                                                more.data(), 3, 2, 0),
            "record 2 makes 2 mapped reads when mapped data reads 0, 3 when it reads 1");
  // Entries past a thread's count are not compared.
  std::vector<std::uint32_t> fewer = {2, 1, 2};
  std::vector<std::uint64_t> stale = list;
  stale[4] = 12345;
  EXPECT_EQ(bigkernel::first_address_difference(list.data(), fewer.data(), stale.data(),
                                                fewer.data(), 3, 2, 0),
            "");
}

TEST(Assembly, Layouts) {
  const auto c = bigkernel::value_layout(bigkernel::Layout::coalesced, 3, {4, 2, 8});
  EXPECT_EQ(c.offset, (std::vector<std::uint64_t>{0, 16, 24}));
  EXPECT_EQ(c.bytes, 48u);
  EXPECT_EQ(c.at(2, 1), 20u);
  const auto t = bigkernel::value_layout(bigkernel::Layout::thread, 3, {2, 4, 8});
  EXPECT_EQ(t.offset, (std::vector<std::uint64_t>{0, 4, 8}));
  EXPECT_EQ(t.thread_bytes, 16u);
  EXPECT_EQ(t.bytes, 48u);
  EXPECT_EQ(t.at(2, 1), 36u);
  // netflix's reads: 12 B a thread, no padding.
  EXPECT_EQ(bigkernel::value_layout(bigkernel::Layout::thread, 5, {4, 4, 2, 2}).bytes, 60u);
}

// By pattern and by raw addresses, the same values land in the same places;
// a read past the array or of another width is a one-line error.
TEST(Assembly, PatternAndRawAgree) {
  std::vector<std::uint8_t> mapped(4096);
  for (std::size_t i = 0; i < mapped.size(); ++i) mapped[i] = static_cast<std::uint8_t>(i * 7);
  const std::uint32_t threads = 50, list_threads = 64;
  bigkernel::AddressPattern p;
  p.holds = true;
  p.count = 2;
  p.stride = 40;
  p.first = {4 | std::uint64_t{2} << 60, 12 | std::uint64_t{1} << 60};
  std::vector<std::uint64_t> list(2 * list_threads, 0);
  std::vector<std::uint32_t> counts(list_threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    counts[t] = 2;
    for (std::uint32_t n = 0; n < 2; ++n) list[n * list_threads + t] = p.first[n] + 40ull * t;
  }
  EXPECT_EQ(bigkernel::widths_of(list.data(), counts.data(), threads, list_threads),
            (std::vector<std::uint32_t>{4, 2}));
  for (auto layout : {bigkernel::Layout::coalesced, bigkernel::Layout::thread}) {
    const auto v = bigkernel::value_layout(layout, list_threads, {4, 2});
    std::vector<std::uint8_t> a(v.bytes, 0), b(v.bytes, 0);
    bigkernel::assemble_by_pattern(mapped.data(), mapped.size(), p, v, 0, 20, a.data());
    bigkernel::assemble_by_pattern(mapped.data(), mapped.size(), p, v, 20, threads, a.data());
    bigkernel::assemble_raw(mapped.data(), mapped.size(), list.data(), counts.data(), list_threads,
                            v, 0, threads, b.data());
    EXPECT_EQ(a, b);
    std::uint32_t value = 0;
    std::memcpy(&value, a.data() + v.at(7, 0), 4);
    std::uint32_t expected = 0;
    std::memcpy(&expected, mapped.data() + 4 + 40 * 7, 4);
    EXPECT_EQ(value, expected);
  }
  const auto v = bigkernel::value_layout(bigkernel::Layout::coalesced, list_threads, {4, 2});
  std::vector<std::uint8_t> out(v.bytes);
  EXPECT_THROW(bigkernel::assemble_by_pattern(mapped.data(), 40 * 30, p, v, 0, threads, out.data()),
               RunError);
  list[1 * list_threads + 9] = 12 | std::uint64_t{3} << 60;  // thread 9's second read: 8 B
  try {
    bigkernel::assemble_raw(mapped.data(), mapped.size(), list.data(), counts.data(), list_threads,
                            v, 0, threads, out.data());
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("thread 9"), std::string::npos) << e.what();
  }
}

// Single-byte reads of adjacent bytes (opinion-finder's text, DNA's bases),
// here a 2-byte read between two runs of them: by pattern (adjacent reads
// copied as one run in the thread layout) and by raw addresses, the same
// values in the same places, each value its mapped byte.
TEST(Assembly, RunsOfSingleByteReads) {
  std::vector<std::uint8_t> mapped(200 * 40);
  for (std::size_t i = 0; i < mapped.size(); ++i) mapped[i] = static_cast<std::uint8_t>(i * 13 + 5);
  const std::uint32_t threads = 37, list_threads = 64, stride = 200;
  bigkernel::AddressPattern p;
  p.holds = true;
  p.stride = stride;
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t b = 3; b < 150; ++b) offsets.push_back(b);  // 147 bytes, one read each
  offsets.insert(offsets.begin() + 20, 160);                     // a 2-byte read among them
  for (std::size_t n = 0; n < offsets.size(); ++n)
    p.first.push_back(offsets[n] | (n == 20 ? std::uint64_t{1} << 60 : 0));
  p.count = static_cast<std::uint32_t>(p.first.size());
  std::vector<std::uint64_t> list(p.count * std::size_t{list_threads}, 0);
  std::vector<std::uint32_t> counts(list_threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    counts[t] = p.count;
    for (std::uint32_t n = 0; n < p.count; ++n)
      list[std::size_t{n} * list_threads + t] = p.first[n] + std::uint64_t{stride} * t;
  }
  const auto widths = bigkernel::widths_of(list.data(), counts.data(), threads, list_threads);
  for (auto layout : {bigkernel::Layout::coalesced, bigkernel::Layout::thread}) {
    const auto v = bigkernel::value_layout(layout, threads, widths);
    std::vector<std::uint8_t> a(v.bytes, 0), b(v.bytes, 0);
    bigkernel::assemble_by_pattern(mapped.data(), mapped.size(), p, v, 0, 11, a.data());
    bigkernel::assemble_by_pattern(mapped.data(), mapped.size(), p, v, 11, threads, a.data());
    bigkernel::assemble_raw(mapped.data(), mapped.size(), list.data(), counts.data(), list_threads,
                            v, 0, threads, b.data());
    EXPECT_EQ(a, b);
    for (std::uint32_t t : {0u, 17u, threads - 1}) {
      for (std::uint32_t n : {0u, 19u, 21u, p.count - 1}) {
        EXPECT_EQ(a[v.at(t, n)], mapped[offsets[n] + stride * t]) << t << " " << n;
      }
      std::uint16_t two = 0, expected = 0;
      std::memcpy(&two, a.data() + v.at(t, 20), 2);
      std::memcpy(&expected, mapped.data() + 160 + stride * t, 2);
      EXPECT_EQ(two, expected);
    }
  }
}

TEST(ChunkPlan, LargestChunkThatFitsEveryLane) {
  const bigkernel::LaneBytes lane = [](std::uint64_t r) { return 100 * r; };
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 10000, lane, 1u << 30), 50u);
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 1u << 30), 100u);
  EXPECT_EQ(bigkernel::records_per_chunk(10, 1, 10000, lane, 1u << 30), 10u);  // the input
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 1, 10000, lane, 7), 7u);        // the cap
  EXPECT_EQ(bigkernel::records_per_chunk(1000, 2, 199, lane, 1u << 30), 0u);   // not one
  EXPECT_EQ(bigkernel::records_per_chunk(0, 2, 10000, lane, 1u << 30), 1u);    // empty input
}

TEST(ChunkPlan, RoundsOfWholeGroupsOrEights) {
  EXPECT_EQ(bigkernel::whole_groups_or_eights(8960, 256), 8960u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(9000, 256), 8960u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(256, 256), 256u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(255, 256), 248u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(87, 256), 80u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(8, 256), 8u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(7, 256), 7u);
  EXPECT_EQ(bigkernel::whole_groups_or_eights(0, 256), 0u);
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
