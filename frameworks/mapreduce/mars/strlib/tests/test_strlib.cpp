// The Mars string library: the strops generator, the independent reference,
// the C-library baseline, and every GPU variant (char, char4) of every
// operation on every kernel backend present (PoCL in CI) against the
// reference, on edge cases (empty strings, lengths 1-3 at every alignment,
// needles longer than the haystack, strchr of '\0') and generated sets; a
// corrupted result is caught; every variant and app end to end through the
// runner.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "datasets/strops.h"
#include "frameworks/mapreduce/mars/strlib/strlib.h"
#include "harness/core/errors.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"

namespace harness {
namespace {

namespace fs = std::filesystem;
using namespace mars::strlib;

std::vector<std::uint8_t> generate(std::uint64_t bytes, std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::strops_generator().generate(bytes, seed, out);
  const std::string s = out.str();
  return {s.begin(), s.end()};
}

OpSet generated_set(std::size_t ops, std::uint64_t seed = 42) {
  auto bytes = generate(ops * datasets::kStropsRecordBytes, seed);
  return parse_strops(bytes.data(), bytes.size());
}

// Hand-made operations: every length 0..9 of A against every length 0..6 of B
// (so strings start and end at every alignment, and src/dst alignments
// differ), with needles and characters chosen to hit, miss, and stress the
// edges; plus named corner cases.
std::vector<StrOp> edge_ops() {
  std::vector<StrOp> ops;
  const std::string letters = "abcabdabcxyzabcabd";
  for (std::size_t la = 0; la <= 9; ++la) {
    for (std::size_t lb = 0; lb <= 6; ++lb) {
      StrOp op;
      op.a = letters.substr(0, la);
      op.b = lb <= la ? letters.substr(0, lb) : letters.substr(0, la) + std::string(lb - la, 'q');
      if (lb % 3 == 1 && lb <= la) op.b[lb - 1] = 'z';  // differs at the last byte
      op.needle = letters.substr(la % 3, (lb % 4) + 1);
      op.c = static_cast<unsigned char>("abcdxz"[(la + lb) % 6]);
      ops.push_back(op);
    }
  }
  auto add = [&](std::string a, std::string b, std::string needle, unsigned char c) {
    ops.push_back({std::move(a), std::move(b), std::move(needle), c});
  };
  add("", "", "", 0);                            // all empty; strchr '\0' finds index 0
  add("abc", "", "abcd", 0);                     // needle longer than haystack; strchr '\0' = 3
  add("ab", "abc", "abcdefghij", 'c');           // longer needle, strcmp prefix
  add("abcabcabd", "abcabcabc", "abcabd", 'd');  // partial matches before the match, at the end
  add("aaaaaaaab", "aaaaaaaab", "aab", 'b');     // equal strings; overlapping candidates
  add("x", "y", "x", 'x');                       // length 1
  add("xy", "xz", "y", 'y');                     // length 2
  add("xyz", "xyz", "yz", 'z');                  // length 3
  add("\xff\x80z", "\x01z", "\x80", 0x80);       // bytes above 127 compare unsigned
  add(std::string(31, 'm'), std::string(31, 'm') + "n", "mmmmmmmmmmn", 'n');
  add("hello world", "hello", "", 'o');  // empty needle is found at 0
  return ops;
}

void expect_libc_matches(const OpSet& set) {
  for (Op op : all_ops()) {
    const DstLayout layout = dst_layout(op, set);
    const Output expected = reference(op, set, layout);
    Output got;
    got.bytes = initial_dst(op, set, layout);
    got.values.assign(set.size(), kPoisonValue);
    run_libc(op, set, layout, got.bytes.data(), got.values.data(), 3);
    EXPECT_EQ(compare_outputs(op, set, layout, expected, got), "") << op_name(op);
  }
}

std::vector<backend::Kind> kernel_backends() {
  std::vector<backend::Kind> kinds;
  for (backend::Kind kind : backend::compiled_kinds()) {
    if (kind != backend::Kind::cpu && !backend::list_devices(kind).empty()) kinds.push_back(kind);
  }
  return kinds;
}

// Runs every op in both versions on the set; checks each against the reference.
void expect_gpu_matches(backend::Device& device, const OpSet& set, std::uint32_t group = 64) {
  for (Op op : all_ops()) {
    const DstLayout layout = dst_layout(op, set);
    const Output expected = reference(op, set, layout);
    for (bool char4 : {false, true}) {
      GpuStrlib gpu(device, op, char4, set, layout, group);
      for (int rep = 0; rep < 2; ++rep) {  // buffers reused
        Output got;
        gpu.reset();
        gpu.run(got);
        EXPECT_EQ(compare_outputs(op, set, layout, expected, got), "")
            << op_name(op) << (char4 ? " char4" : " char") << " on " << device.info().name;
      }
    }
  }
}

TEST(StrlibDataset, RecordsAreDeterministicPrefixStableAndWellFormed) {
  const auto a = generate(80 * 20000), b = generate(80 * 20000);
  EXPECT_EQ(a, b);
  const auto prefix = generate(80 * 100);
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), a.begin()));
  EXPECT_NE(generate(800, 43), generate(800, 42));
  const OpSet set = parse_strops(a.data(), a.size());
  ASSERT_EQ(set.size(), 20000u);
  double total = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    ASSERT_GE(set.a_len[i], 1u);
    ASSERT_LE(set.a_len[i], 31u);
    ASSERT_GE(set.n_len[i], 1u);
    ASSERT_LE(set.n_len[i], 8u);
    total += set.a_len[i] + set.b_len[i];
  }
  EXPECT_NEAR(total / (2.0 * static_cast<double>(set.size())), 16.0, 0.3);
  EXPECT_EQ(parse_strops(a.data(), 159).size(), 1u);  // a partial record is ignored
}

TEST(StrlibDataset, MatchRatesAreTheDocumentedOnes) {
  const OpSet set = generated_set(100000);
  auto rate = [&](Op op, bool equal) {
    const Output out = reference(op, set, dst_layout(op, set));
    std::size_t hits = 0;
    for (std::int32_t v : out.values) hits += equal ? v == 0 : v >= 0;
    return static_cast<double>(hits) / static_cast<double>(set.size());
  };
  // README.md: strcmp equal 26%, strchr found 50%, strstr found 53%.
  EXPECT_NEAR(rate(Op::strcmp_op, true), 0.26, 0.01);
  EXPECT_NEAR(rate(Op::strchr_op, false), 0.50, 0.01);
  EXPECT_NEAR(rate(Op::strstr_op, false), 0.53, 0.01);
}

TEST(StrlibReference, FollowsTheCLibrarysDefinitions) {
  const std::vector<StrOp> ops = {
      {"abc", "abd", "bc", 'c'}, {"abc", "", "abcd", 0}, {"", "a", "", 'a'}, {"b", "a", "x", 'b'}};
  const OpSet set = make_opset(ops);
  auto values = [&](Op op) { return reference(op, set, dst_layout(op, set)).values; };
  EXPECT_EQ(values(Op::strcmp_op), (std::vector<std::int32_t>{-1, 1, -1, 1}));
  EXPECT_EQ(values(Op::strchr_op), (std::vector<std::int32_t>{2, 3, -1, 0}));
  EXPECT_EQ(values(Op::strstr_op), (std::vector<std::int32_t>{1, -1, 0, -1}));
  const DstLayout cat = dst_layout(Op::strcat_op, set);
  EXPECT_EQ(cat.off, (std::vector<std::uint32_t>{0, 7, 11, 13}));
  const auto bytes = reference(Op::strcat_op, set, cat).bytes;
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), std::string("abcabd\0abc\0a\0ba\0", 16));
  const auto set_bytes = reference(Op::memset_op, set, dst_layout(Op::memset_op, set)).bytes;
  EXPECT_EQ(std::string(set_bytes.begin(), set_bytes.end()), std::string("ccc\0\0\0b", 7));
  EXPECT_THROW(make_opset(std::vector<StrOp>{{std::string("a\0b", 3), "", "", 'a'}}), UsageError);
}

TEST(StrlibLibc, MatchesTheReferenceOnEdgeCasesAndGeneratedSets) {
  expect_libc_matches(make_opset(edge_ops()));
  expect_libc_matches(generated_set(5000));
}

TEST(StrlibValidation, ACorruptedResultIsCaughtNamingTheOperation) {
  const OpSet set = make_opset(edge_ops());
  for (Op op : all_ops()) {
    const DstLayout layout = dst_layout(op, set);
    const Output expected = reference(op, set, layout);
    Output got = expected;
    std::size_t victim = 0;
    if (writes_bytes(op)) {
      victim = 37;  // A "abcab": every writing op writes bytes for it
      got.bytes[layout.off[victim]] ^= 0x20;
    } else {
      victim = 5;
      got.values[victim] = got.values[victim] == 0 ? 1 : 0;
    }
    const std::string msg = compare_outputs(op, set, layout, expected, got);
    EXPECT_NE(msg.find("1 of " + std::to_string(set.size())), std::string::npos) << msg;
    EXPECT_NE(msg.find("op " + std::to_string(victim) + " " + op_name(op) + "("), std::string::npos)
        << msg;
    got = expected;
    if (writes_bytes(op)) {
      got.bytes.resize(expected.bytes.size() - 1);
    } else {
      got.values.pop_back();
    }
    EXPECT_NE(compare_outputs(op, set, layout, expected, got), "") << op_name(op);
  }
}

TEST(StrlibGpu, EveryOperationInBothVersionsMatchesTheReference) {
  const auto kinds = kernel_backends();
  if (kinds.empty()) GTEST_SKIP() << "no kernel backend device";
  const OpSet edges = make_opset(edge_ops());
  const OpSet generated = generated_set(3000, 7);
  for (backend::Kind kind : kinds) {
    auto device = backend::open_device(kind, 0);
    expect_gpu_matches(*device, edges, 32);
    expect_gpu_matches(*device, generated, 64);
  }
}

TEST(StrlibGpu, AWrongKernelResultFailsValidation) {
  const auto kinds = kernel_backends();
  if (kinds.empty()) GTEST_SKIP() << "no kernel backend device";
  const OpSet set = make_opset(edge_ops());
  auto device = backend::open_device(kinds.front(), 0);
  // strcat's answer checked as if it were strcpy's: the kernel ran correctly
  // but the result is not the expected one, and validation says so.
  const DstLayout cat = dst_layout(Op::strcat_op, set);
  GpuStrlib gpu(*device, Op::strcat_op, true, set, cat, 64);
  Output got;
  gpu.reset();
  gpu.run(got);
  Output expected = reference(Op::strcat_op, set, cat);
  EXPECT_EQ(compare_outputs(Op::strcat_op, set, cat, expected, got), "");
  got.bytes[cat.off[40] + 1] = 'Q';
  EXPECT_NE(compare_outputs(Op::strcat_op, set, cat, expected, got).find("op 40 strcat("),
            std::string::npos);
}

class StrlibRun : public ::testing::Test {
 protected:
  void SetUp() override {
    register_all();
    dir_ = fs::temp_directory_path() / ("harness-strlib-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json run(const std::string& variant, const std::string& app, backend::Kind kind) {
    SinglePoint sp;
    sp.framework = "marsstr";
    sp.variant = variant;
    sp.app = app;
    sp.dataset = "strops";
    sp.size = "16000B";  // 200 operations
    sp.backend = kind;
    sp.reps = 2;
    sp.data_dir = dir_ / "data";
    sp.out_path = dir_ / "point.json";
    sp.dump_output = dir_ / "dump.tsv";
    sp.ceilings = false;
    summary_ = run_single(sp);
    std::ifstream in(sp.out_path);
    return nlohmann::json::parse(in)["points"][0];
  }
  fs::path dir_;
  RunSummary summary_;
};

TEST_F(StrlibRun, EveryVariantAndAppValidatesThroughTheRunner) {
  std::vector<std::pair<std::string, backend::Kind>> targets = {{"cpu-libc", backend::Kind::cpu}};
  for (backend::Kind kind : kernel_backends()) {
    targets.push_back({"gpu-char", kind});
    targets.push_back({"gpu-char4", kind});
  }
  for (const auto& [variant, kind] : targets) {
    for (Op op : all_ops()) {
      auto p = run(variant, op_name(op), kind);
      const std::string where = variant + " " + op_name(op) + " " + backend::kind_name(kind);
      EXPECT_EQ(p["status"], "ok") << where << ": " << p.dump();
      EXPECT_EQ(p["validation"]["status"], "passed") << where;
      EXPECT_EQ(p["validation"]["kind"], "exact") << where;
      EXPECT_EQ(p["work"]["items"]["ops"], 200) << where;
      std::ifstream dump(dir_ / "dump.tsv");
      int lines = 0;
      for (std::string line; std::getline(dump, line);) ++lines;
      EXPECT_EQ(lines, 200) << where;
    }
  }
}

}  // namespace
}  // namespace harness
