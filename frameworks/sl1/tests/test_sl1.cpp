// S-L1 on every kernel backend with a device (PoCL in CI): every variant on
// every app against the workloads' references; K-means' decisions; line sizes 8/16/24; inputs
// that end mid-line; no room for a line; the monitoring decision and the
// dirty write-back on a kernel of their own; the sizing and counters on
// their own.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/dataset.h"
#include "frameworks/sl1/cache_plan.h"
#include "frameworks/sl1/tests/sl1_testing.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace harness::testing {
namespace {

const std::vector<std::string> kApps = {"upper", "wc", "grep"};

TEST_P(Sl1Test, EveryVariantOnEveryAppValidates) {
  const std::string text = generate("text-zipf", 256 << 10);
  const std::string particles = generate("particles", 256 << 10);
  const std::string tweets = generate("tweets", 200 * 1300);
  for (const std::string variant :
       {"no-l1", "hw-l1", "sl1", "sl1-nothing", "register-line", "staging", "coalesced"}) {
    for (const std::string& app : kApps) {
      SCOPED_TRACE(variant + " " + app);
      if ((variant == "staging" || variant == "coalesced") && app == "grep") {
        EXPECT_THROW(run(variant, app, text), SkipPoint);
        continue;
      }
      const PointRun r = run(variant, app, text);
      EXPECT_EQ(r.validation, "");
      EXPECT_EQ(r.measurement.counters.at("threads"), 256);
    }
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"kmeans-particles", particles},
          std::pair<std::string, const std::string&>{"opinion-finder", tweets}}) {
      SCOPED_TRACE(variant + " " + app);
      if (variant == "staging" || variant == "coalesced") {
        EXPECT_THROW(run(variant, app, input), SkipPoint);
      } else {
        EXPECT_EQ(run(variant, app, input).validation, "");
      }
    }
  }
}

// A 200-byte tweet record: the text padded to 146 bytes, the other fields'
// bytes (not read) as spaces, '\n'.
std::string tweet(const std::string& text) {
  std::string r = text;
  r.resize(146, ' ');
  r += '|';
  r.resize(199, ' ');
  return r + '\n';
}

// Opinion finder's three read-only structures: the tweets scanned in order
// hit; the dictionary (an open-addressing table probed at hashed slots) and
// the keywords (two 16-byte entries, their first halves compared in turn)
// miss, so only the tweets get a line though there is room for three.
// Words of more than 16 letters, capitals and adverb chains on records of
// its own.
TEST_P(Sl1Test, OpinionFinder) {
  const PointRun r = run("sl1", "opinion-finder", generate("tweets", 200 * 1300, 4));
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(r.measurement.counters.at("sl1_lines_per_thread"), 3);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_tweets"), 1);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_dictionary"), 0);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_keywords"), 0);
  EXPECT_GT(r.measurement.counters.at("sl1_hit_rate_tweets"), 0.9);
  std::string own;
  for (int i = 0; i < 40; ++i) {
    own += tweet("I love my PHONE, very very good battery!");
    own += tweet("phonephonephonephonex is bad");  // 21 letters: no keyword
    own += tweet("battery so really very extremely bad #phone's");
    own += tweet("Phone very the good");
  }
  for (const std::string variant : {"no-l1", "sl1", "sl1-nothing", "register-line"}) {
    for (const std::string line : {"8", "24"}) {
      std::map<std::string, std::string> params;
      if (variant == "sl1" || variant == "sl1-nothing") params["monitor"] = "50";
      if (variant == "sl1") params["line_bytes"] = line;
      EXPECT_EQ(run(variant, "opinion-finder", own, params).validation, "") << variant << line;
    }
  }
}

// K-means reads 4 doubles of a record (2 of its 16-byte lines, half of them
// hits) and writes its id in a third line; a centroid is 2 lines read the
// same way: no structure hits on more than half its accesses, so S-L1 caches
// nothing (the thesis' Kmeans also ends at 0 hits, for want of room). With
// 24-byte lines the centroids hit more often and are cached, and the
// particles, read-write, in the threads where they qualify: the ids written
// into cached lines are written back.
TEST_P(Sl1Test, KmeansDecisionsFollowTheLine) {
  const std::string particles = generate("particles", 64 * 4001, 5);
  const PointRun r16 = run("sl1", "kmeans-particles", particles);
  EXPECT_EQ(r16.validation, "");
  EXPECT_LE(r16.measurement.counters.at("sl1_monitor_hit_rate_particles"), 0.5);
  EXPECT_LE(r16.measurement.counters.at("sl1_monitor_hit_rate_centroids"), 0.5);
  EXPECT_EQ(r16.measurement.counters.at("sl1_cached_particles"), 0);
  EXPECT_EQ(r16.measurement.counters.at("sl1_cached_centroids"), 0);
  EXPECT_EQ(r16.measurement.counters.at("sl1_hit_rate"), 0);
  const PointRun r24 = run("sl1", "kmeans-particles", particles, {{"line_bytes", "24"}}, 3);
  EXPECT_EQ(r24.validation, "");
  EXPECT_EQ(r24.measurement.counters.at("sl1_cached_centroids"), 1);
  EXPECT_GT(r24.measurement.counters.at("sl1_cached_particles"), 0);
  EXPECT_GT(r24.measurement.counters.at("sl1_hit_rate"), 0.5);
}

// The sequential scan of wc misses once a line: a hit rate near 1 - 1/L.
TEST_P(Sl1Test, LineSizes) {
  const std::string text = generate("text-zipf", 256 << 10, 3);
  for (const std::string line : {"8", "16", "24"}) {
    for (const std::string& app : kApps) {
      SCOPED_TRACE(line + " " + app);
      const PointRun r = run("sl1", app, text, {{"line_bytes", line}});
      EXPECT_EQ(r.validation, "");
      EXPECT_EQ(r.measurement.counters.at("sl1_line_bytes"), std::stod(line));
      EXPECT_EQ(r.measurement.counters.at("sl1_cached_text"), 1);
      if (app == "wc") {
        const double expected = 1.0 - 1.0 / std::stod(line);
        EXPECT_NEAR(r.measurement.counters.at("sl1_hit_rate_text"), expected, 0.01);
        EXPECT_NEAR(r.measurement.counters.at("sl1_monitor_hit_rate_text"), expected, 0.02);
      }
    }
  }
}

// Lengths that are no multiple of any line, the last line without '\n', a
// tiny input and an empty one.
TEST_P(Sl1Test, InputsThatEndMidLine) {
  std::string text = generate("text-zipf", 100003, 5);
  text.back() = 'x';
  for (const std::string& input : {text, std::string("ab cd\nefg"), std::string()}) {
    for (const std::string line : {"8", "16", "24"}) {
      for (const std::string& app : kApps) {
        SCOPED_TRACE(std::to_string(input.size()) + " " + line + " " + app);
        EXPECT_EQ(run("sl1", app, input, {{"line_bytes", line}, {"monitor", "20"}}).validation, "");
      }
    }
    for (const std::string variant : {"register-line", "staging", "coalesced", "no-l1"}) {
      SCOPED_TRACE(std::to_string(input.size()) + " " + variant);
      EXPECT_EQ(run(variant, "upper", input).validation, "");
      EXPECT_EQ(run(variant, "wc", input).validation, "");
    }
  }
}

// The staged and coalesced kernels classify 8 bytes at once
// (frameworks/blocks/kernels/swar_bytes.clh): every byte value, the spaces '\t'..'\r' and ' ',
// and the neighbours of a-z and of the spaces ('`', '{', 0x88, 0xe1,
// 0xa0 = 0x20 | 0x80), in runs that cross words, pieces, parts and tiles, at
// every part size from one word to more than the text, on texts that end
// mid-word, mid-piece and mid-part, or with a whole word or piece.
TEST_P(Sl1Test, WholeTextKernelsSeeEveryByteValue) {
  std::string text;
  for (int round = 0; round < 40; ++round) {
    for (int b = 0; b < 256; ++b) text += static_cast<char>((b * 37 + round * 11) & 0xff);
    text += "a`z{ \t\n\v\f\r word\x88\xe1\xa0 A@Z[x";
  }
  // Sizes: a multiple of 16 (a whole last piece), no multiple of 8, a
  // multiple of 8 but not 16 (a last piece of one word), a few bytes.
  ASSERT_EQ(text.size() % 16, 0u);
  for (const std::size_t size :
       {text.size(), text.size() - 5, text.size() - 8, std::size_t{13}, std::size_t{1}}) {
    for (const std::string part : {"8", "16", "64", "512"}) {
      SCOPED_TRACE(std::to_string(size) + " part " + part);
      const std::string input = text.substr(0, size);
      EXPECT_EQ(run("staging", "upper", input, {{"part", part}}).validation, "");
      EXPECT_EQ(run("staging", "wc", input, {{"part", part}}).validation, "");
    }
    SCOPED_TRACE(std::to_string(size) + " coalesced");
    const std::string input = text.substr(0, size);
    EXPECT_EQ(run("coalesced", "upper", input).validation, "");
    EXPECT_EQ(run("coalesced", "wc", input).validation, "");
  }
  EXPECT_THROW(run("staging", "wc", text, {{"part", "24"}}), UsageError);
}

// The app keeps all local memory: S-L1 has no line to give (the thesis'
// Kmeans) and caches nothing; the monitoring still ran. sl1-nothing is the
// same on purpose.
TEST_P(Sl1Test, NoRoomCachesNothing) {
  const std::string text = generate("text-zipf", 128 << 10, 9);
  const std::string all = std::to_string(device_->info().local_memory_bytes);
  for (const std::string& app : kApps) {
    SCOPED_TRACE(app);
    for (const PointRun& r :
         {run("sl1", app, text, {{"app_local", all}}), run("sl1-nothing", app, text)}) {
      EXPECT_EQ(r.validation, "");
      EXPECT_EQ(r.measurement.counters.at("sl1_lines_per_thread"), 0);
      EXPECT_EQ(r.measurement.counters.at("sl1_cached_text"), 0);
      EXPECT_EQ(r.measurement.counters.at("sl1_line_accesses"), 0);
      EXPECT_EQ(r.measurement.counters.at("sl1_hit_rate"), 0);
      EXPECT_EQ(r.measurement.counters.at("sl1_decided_threads"), 256);
      EXPECT_GT(r.measurement.counters.at("sl1_monitor_hit_rate_text"), 0.9);
    }
  }
}

// Upper writes its text in place through S-L1: the read-write structure is
// cached (it is the only one) and its dirty lines, shared at slice edges with
// the neighbours, are written back byte by byte.
TEST_P(Sl1Test, UpperWritesBackDirtyLines) {
  const std::string text = generate("text-zipf", 256 << 10, 11);
  for (const std::string line : {"8", "16", "24"}) {
    const PointRun r = run("sl1", "upper", text, {{"line_bytes", line}}, 3);
    EXPECT_EQ(r.validation, "") << line;
    EXPECT_EQ(r.measurement.counters.at("sl1_cached_text"), 1) << line;
    EXPECT_GT(r.measurement.counters.at("sl1_hit_rate"), 0.8) << line;
  }
}

// Grep has two read-only structures: with room for two lines each thread
// caches both; with one, exactly one of them; a monitoring longer than every
// slice decides nothing and caches nothing.
TEST_P(Sl1Test, GrepDecisions) {
  const std::string text = generate("text-zipf", 256 << 10, 13);
  const PointRun two = run("sl1", "grep", text);
  EXPECT_EQ(two.validation, "");
  EXPECT_EQ(two.measurement.counters.at("sl1_lines_per_thread"), 2);
  EXPECT_EQ(two.measurement.counters.at("sl1_cached_text"), 1);
  EXPECT_EQ(two.measurement.counters.at("sl1_cached_pattern"), 1);
  // One 16-byte line per thread: 64 work-items x 16 bytes, plus less than one more line.
  const std::string keep = std::to_string(device_->info().local_memory_bytes - 64 * 16 - 8);
  const PointRun one = run("sl1", "grep", text, {{"app_local", keep}});
  EXPECT_EQ(one.validation, "");
  EXPECT_EQ(one.measurement.counters.at("sl1_lines_per_thread"), 1);
  EXPECT_DOUBLE_EQ(one.measurement.counters.at("sl1_cached_text") +
                       one.measurement.counters.at("sl1_cached_pattern"),
                   1);
  const PointRun never = run("sl1", "grep", text, {{"monitor", "100000000"}});
  EXPECT_EQ(never.validation, "");
  EXPECT_EQ(never.measurement.counters.at("sl1_decided_threads"), 0);
  EXPECT_EQ(never.measurement.counters.at("sl1_line_accesses"), 0);
}

// The apps that aggregate into hash tables with atomics (table_apps.cpp):
// every variant validates; staging and coalesced are skipped with their reasons.
TEST_P(Sl1Test, TableAppsValidateInEveryVariant) {
  const std::string fragments = generate("dna-fragments", 100 * 4000, 7);
  const std::string transactions = generate("transactions", 512 << 10, 7);
  for (const std::string variant :
       {"no-l1", "hw-l1", "sl1", "sl1-nothing", "register-line", "staging", "coalesced"}) {
    for (const auto& [app, input] :
         {std::pair<std::string, const std::string&>{"dna-assembly", fragments},
          std::pair<std::string, const std::string&>{"mastercard", transactions},
          std::pair<std::string, const std::string&>{"mastercard-indexed", transactions}}) {
      SCOPED_TRACE(variant + " " + app);
      if (variant == "staging" || variant == "coalesced") {
        EXPECT_THROW(run(variant, app, input), SkipPoint);
      } else {
        EXPECT_EQ(run(variant, app, input).validation, "");
      }
    }
  }
}

// A 100-byte dna-fragments record: id, the 36 bases (2-base left edge,
// 32-base part, 2-base right edge), qualities, coordinates.
std::string fragment(int id, const std::string& left, const std::string& part,
                     const std::string& right) {
  std::string digits = std::to_string(id);
  digits.insert(0, 10 - digits.size(), '0');
  return digits + ' ' + left + part + right + ' ' + std::string(36, 'I') + " 1:1101:100:200\n";
}

// Hand-made records (7: 700 bytes, a multiple of no line size): a part seen
// with several edges, the all-A part (packed key 0, the table's empty key,
// counted in its extra slot), the all-T part (all ones), a part seen once.
TEST_P(Sl1Test, DnaPartsAndEdges) {
  const std::string part(32, 'A'), other = "ACGTACGTACGTACGTACGTACGTACGTACGT";
  const std::string input = fragment(0, "AA", other, "AC") + fragment(1, "CG", other, "GT") +
                            fragment(2, "TT", part, "AA") + fragment(3, "AA", other, "AC") +
                            fragment(4, "GA", std::string(32, 'T'), "TG") +
                            fragment(5, "CC", part, "CA") +
                            fragment(6, "AC", "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTG", "GG");
  ASSERT_EQ(input.size(), 700u);
  for (const std::string variant : {"no-l1", "hw-l1", "sl1-nothing", "register-line"})
    EXPECT_EQ(run(variant, "dna-assembly", input).validation, "") << variant;
  for (const std::string line : {"8", "16", "24"}) {
    EXPECT_EQ(run("sl1", "dna-assembly", input, {{"line_bytes", line}, {"monitor", "10"}},
                  /*repetitions=*/3)
                  .validation,
              "")
        << line;
  }
}

// A thread reads the 36 bases of each record byte by byte: record r's begin
// at byte 100 r + 11, so with L-byte lines they span 5.5 (8), 3.25 (16) or
// 2.5 (24) lines on average over the records' alignments, and the hit rate
// is 1 - lines / 36. One work-group of 64 threads, 156 records each.
TEST_P(Sl1Test, DnaHitRateFollowsTheRecordLayout) {
  const std::string fragments = generate("dna-fragments", 100 * 10000, 3);
  for (const auto& [line, lines] :
       {std::pair<std::string, double>{"8", 5.5}, {"16", 3.25}, {"24", 2.5}}) {
    SCOPED_TRACE(line);
    const PointRun r = run("sl1", "dna-assembly", fragments,
                           {{"line_bytes", line}, {"groups", "1"}, {"group_size", "64"}});
    EXPECT_EQ(r.validation, "");
    EXPECT_EQ(r.measurement.counters.at("sl1_lines_per_thread"), 1);
    EXPECT_EQ(r.measurement.counters.at("sl1_cached_fragments"), 1);
    EXPECT_NEAR(r.measurement.counters.at("sl1_hit_rate"), 1.0 - lines / 36, 0.01);
    EXPECT_NEAR(r.measurement.counters.at("sl1_monitor_hit_rate_fragments"), 1.0 - lines / 36,
                0.02);
  }
}

// A transaction line: 16 digits, the merchant id, the other fields.
std::string transaction(std::uint64_t card, const std::string& merchant,
                        const std::string& rest = "2013-02-07 17:03:07|3.14|EUR|chip") {
  std::string digits = std::to_string(card);
  digits.insert(0, 16 - digits.size(), '0');
  return digits + '|' + merchant + '|' + rest + '\n';
}

// Hand-made transactions: X's customers (card 0 among them) visit 1500
// merchants with ids of 17-21 bytes sharing a prefix (more than half the
// merchant table's first 1024 slots: it grows and pass 1 runs again) and
// 32-byte ids that differ in their last byte; ids that extend or shorten X's
// do not make a customer; empty lines, a '\r' in the last field and a last
// line without '\n'.
TEST_P(Sl1Test, MastercardOwnLines) {
  const std::string x = "M0000001";
  std::string input = transaction(7, "M00000012") + transaction(8, "M000000") + "\n";
  for (std::uint64_t card : {0, 1, 2, 3}) input += transaction(card, x);
  for (int i = 0; i < 1500; ++i) {
    const std::string shop = "SHOP-LONG-PREFIX-" + std::to_string(i);
    input += transaction(1, shop);
    if (i % 3 == 0) input += transaction(2, shop) + transaction(7, shop);
    if (i % 5 == 0) input += transaction(1, shop, "x|y\r");
  }
  for (char last : {'a', 'b', 'c'}) {
    input += transaction(3, std::string(31, 'Z') + last);
    input += transaction(0, std::string(31, 'Z') + 'a') + "\n\n";
  }
  input += transaction(8, "M0000002") + transaction(3, "M0000002");
  input.pop_back();  // the last line ends without '\n'
  for (const std::string app : {"mastercard", "mastercard-indexed"}) {
    SCOPED_TRACE(app);
    for (const std::string variant : {"no-l1", "hw-l1", "sl1-nothing", "register-line"})
      EXPECT_EQ(run(variant, app, input).validation, "") << variant;
    for (const std::string line : {"8", "16", "24"}) {
      const PointRun r = run("sl1", app, input, {{"line_bytes", line}, {"monitor", "40"}});
      EXPECT_EQ(r.validation, "") << line;
    }
    // A merchant nobody visited: no customers, an empty answer.
    EXPECT_EQ(run("sl1", app, input, {{"merchant", "NOBODY"}}).validation, "");
  }
}

// Empty inputs, and fewer records than work-items (most slices empty).
TEST_P(Sl1Test, TableAppsOnEmptyAndTinyInputs) {
  const std::string one_fragment = fragment(0, "AC", std::string(32, 'G'), "TA");
  const std::string one_line = transaction(5, "M0000001");
  for (const std::string variant : {"no-l1", "sl1", "register-line"}) {
    SCOPED_TRACE(variant);
    for (const std::string& input : {std::string(), one_fragment, one_fragment + one_fragment})
      EXPECT_EQ(run(variant, "dna-assembly", input).validation, "") << input.size();
    for (const std::string& input : {std::string(), one_line, one_line + "\n" + one_line}) {
      EXPECT_EQ(run(variant, "mastercard", input).validation, "") << input.size();
      EXPECT_EQ(run(variant, "mastercard-indexed", input).validation, "") << input.size();
    }
  }
}

// Mastercard's decisions on generated data: the transactions (every byte
// scanned) and X's id (compared from its start for every record of pass 0)
// hit and are cached; the counters sum the two launches, so every thread
// decides twice.
TEST_P(Sl1Test, MastercardDecisions) {
  const PointRun r = run("sl1", "mastercard", generate("transactions", 512 << 10, 5));
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(r.measurement.counters.at("sl1_lines_per_thread"), 3);
  EXPECT_EQ(r.measurement.counters.at("sl1_decided_threads"), 2 * 256);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_transactions"), 1);
  EXPECT_GT(r.measurement.counters.at("sl1_hit_rate_transactions"), 0.9);
  EXPECT_GT(r.measurement.counters.at("sl1_monitor_hit_rate_merchant"), 0.9);
  // Cached in pass 0, the only one that reads it: half the threads' decisions.
  EXPECT_NEAR(r.measurement.counters.at("sl1_cached_merchant"), 0.5, 0.01);
}

// mastercard-indexed reads each 16-byte index entry as two 8-byte words: one
// miss and one hit per 16-byte line, a hit rate of exactly half, which does
// not qualify (more than half), so the index is never cached; the card
// digits and merchant ids it points at are.
TEST_P(Sl1Test, MastercardIndexedDecisions) {
  const PointRun r = run("sl1", "mastercard-indexed", generate("transactions", 512 << 10, 5));
  EXPECT_EQ(r.validation, "");
  EXPECT_EQ(r.measurement.counters.at("sl1_lines_per_thread"), 4);
  EXPECT_NEAR(r.measurement.counters.at("sl1_monitor_hit_rate_index"), 0.5, 0.01);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_index"), 0);
  EXPECT_EQ(r.measurement.counters.at("sl1_cached_transactions"), 1);
  EXPECT_GT(r.measurement.counters.at("sl1_hit_rate_transactions"), 0.8);
}

// The decision rule and the write-back on a kernel of their own (OpenCL:
// built from text at run time): one work-item reads structure 0 (read-only)
// at a stride and writes structure 1 (read-write) `repeat` times per step.
constexpr const char* kDecideKernel = R"(
KERNEL sl1_test(GLOBAL const uchar* a, GLOBAL uchar* b, u32 stride_a, u32 stride_b, u32 repeat,
                u32 steps, GLOBAL u32* sum, SL1_PARAMS) {
  SL1_BEGIN(ctx);
  u32 acc = 0u;
  for (u32 k = 0; k < steps; ++k) {
    acc += SL1_READ_U8(ctx, 0u, a, (u64)k * stride_a);
    for (u32 r = 0; r < repeat; ++r) SL1_WRITE_U8(ctx, 1u, b, (u64)k * stride_b + GLOBAL_ID, k + r);
  }
  BARRIER_LOCAL(); /* every work-item holds its last line of b before any flushes it */
  SL1_FLUSH(ctx, 1u, b);
  sum[0] = acc;
  SL1_END(ctx);
}
)";

struct Decision {
  bool cached_a = false, cached_b = false;
  std::uint32_t mon_hits_a = 0, mon_hits_b = 0;
  std::string b_error;  // "" when b holds exactly what was written
};

class Sl1DecideTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped() && device_->info().kind != backend::Kind::opencl)
      GTEST_SKIP() << "the test kernel is built from text: OpenCL only";
  }
  // `items` work-items of one group; work-item t writes byte k * stride_b + t.
  Decision decide(std::uint32_t stride_a, std::uint32_t stride_b, std::uint32_t repeat,
                  std::uint32_t lines, std::uint32_t line_bytes = 16, std::uint32_t items = 1) {
    constexpr std::uint32_t steps = 300, monitor = 150;
    backend::ProgramSource src;
    src.name = "sl1/test-decide-" + std::to_string(line_bytes);  // the device caches by name
    src.opencl_files = {"frameworks/sl1/kernels/sl1_cache.clh"};
    src.opencl_text = kDecideKernel;
    src.opencl_options = "-DSL1_MODE=3 -DSL1_STRUCTURES=2 -DSL1_WRITES_MASK=2u -DSL1_LINE_BYTES=" +
                         std::to_string(line_bytes);
    auto program = device_->build(src);
    const backend::Kernel k = program->kernel("sl1_test");
    const std::size_t a_bytes = steps * stride_a + 48, b_bytes = steps * stride_b + 48;
    std::vector<std::uint8_t> a_host(a_bytes, 1), b_host(b_bytes, 0xEE);
    backend::Buffer a = device_->allocate(a_bytes), b = device_->allocate(b_bytes),
                    sum = device_->allocate(4), stats = device_->allocate(items * 2 * 6 * 4);
    backend::Queue& q = device_->queue();
    q.write(a, 0, a_host.data(), a_bytes);
    q.write(b, 0, b_host.data(), b_bytes);
    q.launch(k, backend::LaunchShape{1, items}, a, b, stride_a, stride_b, repeat, steps, sum, lines,
             monitor, stats,
             backend::local_memory(std::max<std::size_t>(8, items * lines * line_bytes)));
    std::vector<std::uint32_t> st(12);
    std::uint32_t total = 0;
    q.read(st.data(), stats, 0, st.size() * 4);
    q.read(b_host.data(), b, 0, b_bytes);
    q.read(&total, sum, 0, 4);
    Decision d;
    d.cached_a = st[2] == 1;
    d.cached_b = st[6 + 2] == 1;
    d.mon_hits_a = st[1];
    d.mon_hits_b = st[6 + 1];
    if (total != steps) d.b_error = "read sum " + std::to_string(total);
    for (std::size_t i = 0; i < b_bytes && d.b_error.empty(); ++i) {
      std::uint8_t want = 0xEE;
      if (i % stride_b < items && i / stride_b < steps)
        want = static_cast<std::uint8_t>(i / stride_b + repeat - 1);
      if (b_host[i] != want)
        d.b_error = "b[" + std::to_string(i) + "] = " + std::to_string(b_host[i]) + ", want " +
                    std::to_string(want);
    }
    return d;
  }
};

TEST_P(Sl1DecideTest, ReadOnlyPreferredUnlessReadWriteHasTwiceTheHits) {
  // Both sequential, one line: the read-only one.
  Decision d = decide(1, 1, 1, 1);
  EXPECT_TRUE(d.cached_a);
  EXPECT_FALSE(d.cached_b);
  EXPECT_EQ(d.b_error, "");
  // The read-write one written twice a step: more than twice the hits of a
  // read-only one at stride 4 (75% hits).
  d = decide(4, 1, 2, 1);
  EXPECT_GT(d.mon_hits_b, 2 * d.mon_hits_a);
  EXPECT_FALSE(d.cached_a);
  EXPECT_TRUE(d.cached_b);
  EXPECT_EQ(d.b_error, "");
  // Room for both: both.
  d = decide(1, 1, 1, 2);
  EXPECT_TRUE(d.cached_a);
  EXPECT_TRUE(d.cached_b);
  EXPECT_EQ(d.b_error, "");
}

TEST_P(Sl1DecideTest, OnlyAboveHalfTheAccessesHit) {
  // Stride 8 in 16-byte lines: at most half hit (the first access misses), not cached;
  // stride 16: none.
  Decision d = decide(8, 16, 1, 2);
  EXPECT_FALSE(d.cached_a);
  EXPECT_FALSE(d.cached_b);
  EXPECT_EQ(d.b_error, "");
  d = decide(4, 4, 1, 2);
  EXPECT_TRUE(d.cached_a);
  EXPECT_TRUE(d.cached_b);
}

// Dirty bitmaps: writes every 2nd or 3rd byte leave the bytes between as
// they were, for every line size; two work-items writing alternate bytes of
// the same lines, each in its own copy, keep each other's bytes.
TEST_P(Sl1DecideTest, WriteBackOnlyDirtyBytes) {
  for (std::uint32_t line : {8u, 16u, 24u}) {
    for (std::uint32_t stride : {1u, 2u, 3u}) {
      const Decision d = decide(1, stride, 1, 2, line);
      EXPECT_TRUE(d.cached_b) << line << " " << stride;
      EXPECT_EQ(d.b_error, "") << line << " " << stride;
    }
    const Decision shared = decide(1, 2, 1, 2, line, 2);
    EXPECT_TRUE(shared.cached_b) << line;
    EXPECT_EQ(shared.b_error, "") << line;
  }
}

TEST(Sl1Plan, LinesPerThread) {
  using sl1::lines_per_thread;
  EXPECT_EQ(lines_per_thread(48 << 10, 0, 256, 16, 3), 3u);   // 192 B a thread: capped at 3
  EXPECT_EQ(lines_per_thread(48 << 10, 0, 1024, 16, 3), 3u);  // 48 B: 3 lines
  EXPECT_EQ(lines_per_thread(48 << 10, 0, 1024, 24, 3), 2u);
  EXPECT_EQ(lines_per_thread(48 << 10, 40 << 10, 1024, 16, 3), 0u);  // 8 B left: none
  EXPECT_EQ(lines_per_thread(48 << 10, 48 << 10, 256, 16, 1), 0u);
  EXPECT_EQ(lines_per_thread(48 << 10, 64 << 10, 256, 16, 1), 0u);
}

TEST(Sl1Plan, Counters) {
  // Two threads, two structures: fields monitor accesses, monitor hits,
  // cached, accesses, misses, decided.
  const std::vector<std::uint32_t> stats = {
      10, 9, 1, 100, 10, 1, /**/ 10, 2, 0, 0,  0,  1,  // thread 0
      10, 8, 1, 50,  5,  1, /**/ 10, 6, 1, 20, 20, 1,  // thread 1
  };
  const auto c = sl1::stat_counters(stats, {"text", "table"});
  EXPECT_DOUBLE_EQ(c.at("sl1_monitor_hit_rate_text"), 17.0 / 20);
  EXPECT_DOUBLE_EQ(c.at("sl1_monitor_hit_rate_table"), 8.0 / 20);
  EXPECT_DOUBLE_EQ(c.at("sl1_cached_text"), 1.0);
  EXPECT_DOUBLE_EQ(c.at("sl1_cached_table"), 0.5);
  EXPECT_DOUBLE_EQ(c.at("sl1_hit_rate_text"), 135.0 / 150);
  EXPECT_DOUBLE_EQ(c.at("sl1_hit_rate_table"), 0.0);
  EXPECT_DOUBLE_EQ(c.at("sl1_hit_rate"), 135.0 / 170);
  EXPECT_DOUBLE_EQ(c.at("sl1_line_accesses"), 170);
  EXPECT_DOUBLE_EQ(c.at("sl1_decided_threads"), 2);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Sl1Test);
INSTANTIATE_TEST_SUITE_P(Backends, Sl1Test, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Sl1DecideTest);
INSTANTIATE_TEST_SUITE_P(Backends, Sl1DecideTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
