// The last wall time `harness reproduce --dry-run` shows: from the document a
// run would replace, else the slowest reference document of the preset and
// backend; documents without wall_s fall back to their timestamps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/cli/last_time.h"

namespace harness::cli {
namespace {

using nlohmann::json;

json doc(const std::string& id, const std::string& preset, std::optional<double> wall,
         std::vector<std::string> backends = {"cuda"}) {
  json d = {{"experiment", {{"id", id}, {"preset", preset}}},
            {"started_at", "2026-11-26T01:00:00Z"},
            {"updated_at", "2026-11-26T01:02:05Z"},
            {"points", json::array()}};
  for (const auto& b : backends) d["points"].push_back({{"backend", b}, {"status", "ok"}});
  d["points"].push_back({{"backend", "cpu"}, {"status", "skipped"}});  // skipped: not a backend run
  if (wall) d["wall_s"] = *wall;
  return d;
}

void write(const std::filesystem::path& p, const json& d) { std::ofstream(p) << d.dump(); }

TEST(LastTime, WallSecondsOrTimestamps) {
  EXPECT_EQ(document_wall_seconds(doc("x", "gpu", 12.5)), 12.5);
  EXPECT_EQ(document_wall_seconds(doc("x", "gpu", std::nullopt)), 125.0);
  json bad = doc("x", "gpu", std::nullopt);
  bad["updated_at"] = "yesterday";
  EXPECT_FALSE(document_wall_seconds(bad).has_value());
}

TEST(LastTime, OutDirFirstThenTheSlowestReferenceOfThePresetAndBackend) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("last-time-test-" + std::to_string(::getpid()));
  const auto ref = dir / "reference";
  std::filesystem::create_directories(ref);
  write(ref / "a.fig1.cuda.h100.json", doc("a.fig1", "gpu", 30.0));
  write(ref / "a.fig1.cuda.h200.json", doc("a.fig1", "gpu", 40.0));
  write(ref / "a.fig1.opencl.h100.json", doc("a.fig1", "gpu", 90.0, {"opencl"}));
  write(ref / "a.fig1.paper.cuda.h100.json", doc("a.fig1", "paper", 500.0));
  write(ref / "a.fig10.cuda.h100.json", doc("a.fig10", "gpu", 700.0));  // another id
  const std::string missing = (dir / "none.json").string();

  LastTime t = last_wall_time("a.fig1", "gpu", "cuda", missing, ref.string());
  ASSERT_TRUE(t.seconds.has_value());
  EXPECT_EQ(*t.seconds, 40.0);
  EXPECT_NE(t.source.find("a.fig1.cuda.h200.json"), std::string::npos);
  // No backend: cuda's slowest plus opencl's.
  t = last_wall_time("a.fig1", "gpu", "", missing, ref.string());
  EXPECT_EQ(*t.seconds, 130.0);
  EXPECT_NE(t.source.find(" + "), std::string::npos);
  // ...unless a whole run (both backends in one document) took longer.
  write(ref / "a.fig1.h100.json", doc("a.fig1", "gpu", 150.0, {"cuda", "opencl"}));
  EXPECT_EQ(*last_wall_time("a.fig1", "gpu", "", missing, ref.string()).seconds, 150.0);
  EXPECT_EQ(*last_wall_time("a.fig1", "gpu", "opencl", missing, ref.string()).seconds, 90.0);
  EXPECT_EQ(*last_wall_time("a.fig1", "paper", "", missing, ref.string()).seconds, 500.0);
  EXPECT_FALSE(last_wall_time("a.fig2", "gpu", "cuda", missing, ref.string()).seconds);

  const auto out = dir / "a.fig1@cuda.json";  // an earlier run in the out-dir wins
  write(out, doc("a.fig1", "gpu", 7.0));
  t = last_wall_time("a.fig1", "gpu", "cuda", out.string(), ref.string());
  EXPECT_EQ(*t.seconds, 7.0);
  EXPECT_EQ(t.source, out.string());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace harness::cli
