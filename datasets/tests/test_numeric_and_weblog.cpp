// The .npy generators (matrix-f32, features-f32, points-f32) and the web log
// (weblog): exact file sizes, shapes, determinism, distributions the apps rely on.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>

#include "datasets/dataset.h"
#include "datasets/npy.h"
#include "datasets/weblog.h"

namespace harness::datasets {
namespace {

std::string generate(const std::string& name, std::uint64_t size, std::uint64_t seed = 42) {
  std::ostringstream out;
  find_generator(name).generate(size, seed, out);
  return std::move(out).str();
}
const auto* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

TEST(NpyGenerators, WriteTheirOutputBytesWithTheDocumentedShapes) {
  struct Case {
    const char* name;
    std::uint64_t size;
    std::vector<std::vector<std::uint64_t>> shapes;
  };
  for (const Case& c :
       {Case{"matrix-f32", 8 * 1024 * 1024, {{1024, 1024}, {1024, 1024}}},
        Case{"matrix-f32", 8 * 47 * 47 + 100, {{47, 47}, {47, 47}}},
        Case{"features-f32", 512 * 1024, {{1024, 128}}},
        Case{"points-f32", 16 * 4096 + 15, {{4096, 4}}}, Case{"points-f32", 10, {{0, 4}}}}) {
    const std::string file = generate(c.name, c.size);
    EXPECT_EQ(file.size(), find_generator(c.name).output_bytes(c.size)) << c.name;
    const auto arrays = parse_npy_arrays(bytes(file), file.size(), c.name);
    ASSERT_EQ(arrays.size(), c.shapes.size()) << c.name;
    for (std::size_t i = 0; i < arrays.size(); ++i) EXPECT_EQ(arrays[i].shape, c.shapes[i]);
    EXPECT_EQ(arrays.back().end(), file.size());
    EXPECT_EQ(generate(c.name, c.size), file) << "deterministic";
    if (c.size > 100) {
      EXPECT_NE(generate(c.name, c.size, 7), file) << "seeded";
    }
  }
}

TEST(NpyGenerators, ValuesHaveTheDocumentedRanges) {
  const std::string m = generate("matrix-f32", 8 * 64 * 64);
  const auto a = parse_npy_arrays(bytes(m), m.size(), "m");
  const auto* f = reinterpret_cast<const float*>(m.data() + a[0].data_offset);
  for (std::size_t i = 0; i < 64 * 64; ++i) ASSERT_TRUE(f[i] >= 0 && f[i] < 1);
  const std::string d = generate("features-f32", 512 * 200);
  const auto* x =
      reinterpret_cast<const float*>(d.data() + parse_npy(bytes(d), d.size(), 0, "d").data_offset);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < 200 * 128; ++i) {
    ASSERT_GE(x[i], 0.0f);
    zeros += x[i] == 0.0f;
  }
  EXPECT_GT(zeros, 200u * 128 / 2);  // sparse: most weights zero
  EXPECT_LT(zeros, 200u * 128 * 9 / 10);
  const std::string p = generate("points-f32", 16 * 2000);
  const auto* q =
      reinterpret_cast<const float*>(p.data() + parse_npy(bytes(p), p.size(), 0, "p").data_offset);
  std::set<int> cells;  // points gather around centres: few occupied 10x10x10x10 cells
  for (std::size_t i = 0; i < 2000; ++i) {
    cells.insert(static_cast<int>(q[4 * i] / 10) * 1000 +
                 static_cast<int>(q[4 * i + 1] / 10) * 100 +
                 static_cast<int>(q[4 * i + 2] / 10) * 10 + static_cast<int>(q[4 * i + 3] / 10));
  }
  EXPECT_LT(cells.size(), 400u);
}

TEST(Weblog, ExactSizeWholeLinesZipfUrlsAndRepeatedEntries) {
  for (std::uint64_t size : {std::uint64_t{1}, std::uint64_t{299}, std::uint64_t{5000},
                             (std::uint64_t{4} << 20) + 777}) {
    const std::string log = generate("weblog", size);
    ASSERT_EQ(log.size(), size);
    EXPECT_EQ(log.back(), '\n');
  }
  const std::string log = generate("weblog", 2 << 20);
  EXPECT_EQ(generate("weblog", 2 << 20), log);
  std::unordered_map<std::string, int> entries, urls;
  std::size_t lines = 0, start = 0;
  while (start < log.size()) {
    const std::size_t nl = log.find('\n', start);
    const std::string line = log.substr(start, nl - start);
    start = nl + 1;
    ++lines;
    ASSERT_EQ(std::count(line.begin(), line.end(), '\t'), 2) << line;
    ++entries[line];
    ++urls[line.substr(0, line.find('\t'))];
  }
  EXPECT_LT(entries.size(), lines * 85 / 100);  // a quarter are reloads, plus repeat visits
  const std::vector<std::string> by_rank = weblog_urls(42);
  EXPECT_GT(urls[by_rank[0]], urls[by_rank[100]] * 20);  // Zipf(1): rank 0 ~ 50x rank 100
  EXPECT_EQ(by_rank.size(), std::set<std::string>(by_rank.begin(), by_rank.end()).size());
}

}  // namespace
}  // namespace harness::datasets
