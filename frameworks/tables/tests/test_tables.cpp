// The tables family: both line counters on known snippets, every row of
// mars.tab5 counted positive from the embedded sources, and a point of
// tables/user-code run on the cpu backend with no input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "frameworks/tables/tables.h"
#include "harness/core/embedded_files.h"
#include "harness/runner/runner.h"
#include "harness/suite/register_all.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

struct Snippet {
  const char* text;
  std::uint64_t lines;
};

TEST(TablesCodeLines, KnownSnippets) {
  const Snippet snippets[] = {
      {"", 0},
      {"int a;", 1},
      {"int a;\n\n  \t\nint b;\n", 2},
      {"// only a comment\nint a;  // trailing\n", 1},
      {"/* one\n two\n three */\nint a;\n", 1},
      {"int a; /* a\n b */ int b;\n", 2},     // code before and after a block
      {"/* x */ /* y */\n/**/\n", 0},         // lines of comments only
      {"a /* b // c */ d\n// /* e\nf\n", 2},  // // inside a block; /* inside a line comment
      {"x = 1 /* unclosed\ny\n", 2},          // an unclosed /* is code, as the regex leaves it
      {"  \r\n\f\n*/\n", 1},                  // a stray */ is code
  };
  for (const auto& s : snippets) {
    EXPECT_EQ(tables::code_lines(s.text), s.lines) << s.text;
    EXPECT_EQ(tables::code_lines_state_machine(s.text), s.lines) << s.text;
  }
}

TEST(TablesCodeLines, EveryRowCountedPositiveAndBothCountersAgree) {
  ASSERT_EQ(tables::user_code_rows().size(), 6u);
  for (const auto& row : tables::user_code_rows()) {
    std::uint64_t a = 0, b = 0;
    for (const auto& path : tables::user_code_files(row)) {
      const auto text = embedded_file(path);
      ASSERT_TRUE(text.has_value()) << path;
      a += tables::code_lines(*text);
      b += tables::code_lines_state_machine(*text);
    }
    EXPECT_GT(a, 0u) << row.app;
    EXPECT_EQ(a, b) << row.app;
    EXPECT_GT(row.paper_mars, 0u);
    EXPECT_GT(row.paper_phoenix, 0u);
  }
}

TEST(TablesRun, UserCodePointRunsOnTheCpuBackendWithoutInput) {
  register_all();
  const fs::path dir =
      fs::temp_directory_path() / ("harness-tables-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  SinglePoint sp;
  sp.framework = "tables";
  sp.variant = "user-code";
  sp.app = "mars-pvr";
  sp.backend = backend::Kind::cpu;
  sp.reps = 2;
  sp.data_dir = dir / "data";
  sp.out_path = dir / "point.json";
  sp.dump_output = dir / "row.tsv";
  run_single(sp);
  std::ifstream in(sp.out_path);
  const auto p = nlohmann::json::parse(in)["points"][0];
  fs::remove_all(dir);
  EXPECT_EQ(p["status"], "ok") << p.dump();
  EXPECT_EQ(p["validation"]["status"], "passed") << p.dump();
  EXPECT_GT(p["counters"]["user_lines"].get<double>(), 0);
  EXPECT_EQ(p["counters"]["paper_mars_lines"], 152);
  EXPECT_EQ(p["counters"]["paper_phoenix_lines"], 166);
  EXPECT_EQ(p["work"]["items"]["source_files"], 6);
}

}  // namespace
}  // namespace harness
