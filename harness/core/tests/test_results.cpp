// The results document: rewritten after every point, complete after finish(),
// and carrying the wall time its run has cost so far (`wall_s`).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "harness/core/errors.h"
#include "harness/core/results.h"

namespace harness {
namespace {

nlohmann::json read(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(ResultsDocument, RecordsItsWallTimeAtEveryRewrite) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("results-doc-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "x.json").string();
  ResultsDocument doc(path, {{"id", "x"}}, {{"host", "h"}});
  const nlohmann::json first = read(path);
  EXPECT_FALSE(first["complete"].get<bool>());
  ASSERT_TRUE(first.contains("wall_s"));
  EXPECT_GE(first["wall_s"].get<double>(), 0.0);

  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  doc.add_point({{"key", "a"}});
  const nlohmann::json second = read(path);
  EXPECT_GE(second["wall_s"].get<double>(), 0.03);
  EXPECT_EQ(second["points"].size(), 1u);

  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  doc.finish();
  const nlohmann::json last = read(path);
  EXPECT_TRUE(last["complete"].get<bool>());
  EXPECT_GE(last["wall_s"].get<double>(), second["wall_s"].get<double>() + 0.02);
  EXPECT_LT(last["wall_s"].get<double>(), 60.0);
  std::filesystem::remove_all(dir);
}

TEST(ResultsDocument, AnUnwritablePathFailsBeforeAnythingIsMeasured) {
  EXPECT_THROW(ResultsDocument("/nonexistent-dir/x/y.json", {{"id", "x"}}, {}), RunError);
}

}  // namespace
}  // namespace harness
