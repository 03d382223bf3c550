// What the dialect files state about an app's functions and what its C++ side
// says (dialect_facts.h). Value sizes, reduce and the capability flags are
// read from the dialect (MapReduceApp's accessors return dialect()'s facts),
// so they agree by construction; these tests pin each program's facts, check
// the wiring, and check the facts the C++ side states again as code: the cut
// rule (cut_at_or_after against APP_SPLITS_ANYWHERE and app_is_separator) and
// the image count (image_inputs against APP_MAP_IMAGES).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/mapreduce/apps/registry.h"

namespace harness::apps {
namespace {

// Every program (one-job apps and the jobs of chained apps) has its facts;
// chained apps have none of their own.
TEST(DialectFacts, EveryProgramHasFacts) {
  for (const MapReduceApp* app : mapreduce_programs()) {
    EXPECT_NE(app->dialect(), nullptr) << app->name() << ": no dialect() (<name>_facts.cpp)";
  }
  for (const MapReduceApp* app : mapreduce_apps()) {
    if (app->jobs().empty()) {
      EXPECT_NE(app->dialect(), nullptr) << app->name();
      continue;
    }
    EXPECT_EQ(app->dialect(), nullptr) << app->name();
    for (const MapReduceApp* job : app->jobs()) EXPECT_NE(job->dialect(), nullptr) << job->name();
    EXPECT_FALSE(app->combine_is_u32_add() || app->reduce_counts_values() ||
                 app->keys_are_separator_runs() || app->has_image_path() ||
                 app->map_emits_one_key_size() != 0)
        << app->name() << ": a chained app's capabilities are its jobs'";
  }
}

struct Expected {
  const char* program;
  std::uint32_t value_size, output_value_size;
  bool has_reduce, combine_add_u32, reduce_counts_values, keys_are_runs;
  std::uint32_t map_key_size, map_images;
  bool splits_anywhere;
};

// The facts as the dialect files state them today: a change to a file that
// changes a fact shows here (and in the runtimes that use it).
TEST(DialectFacts, AsTheDialectFilesStateThem) {
  const Expected expected[] = {
      // program       val out  reduce add    count  runs   key img splits
      {"wordcount", 4, 4, true, true, false, true, 0, 0, true},
      {"stringmatch", 4, 4, false, false, false, false, 0, 0, false},
      {"invertedindex", 4, 4, false, false, false, false, 0, 0, false},
      {"similarity", 8, 8, false, false, false, false, 0, 0, false},
      {"matrixmult", 4, 4, false, false, false, false, 8, 2, false},
      {"kmeans", 72, 40, true, false, false, false, 4, 0, false},
      {"pvc_dedup", 4, 4, true, false, false, false, 0, 0, false},
      {"pvc_count", 4, 4, true, false, true, false, 0, 0, false},
      {"pvr_rank", 4, 4, false, false, false, false, 0, 0, false},
  };
  ASSERT_EQ(std::size(expected), mapreduce_programs().size());
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.program);
    const MapReduceApp& app = find_mapreduce_app(e.program);
    ASSERT_NE(app.dialect(), nullptr);
    const DialectFacts& f = *app.dialect();
    EXPECT_EQ(f.value_size, e.value_size);
    EXPECT_EQ(f.output_value_size, e.output_value_size);
    EXPECT_EQ(f.has_reduce, e.has_reduce);
    EXPECT_EQ(f.combine_add_u32, e.combine_add_u32);
    EXPECT_EQ(f.reduce_counts_values, e.reduce_counts_values);
    EXPECT_EQ(f.keys_are_runs, e.keys_are_runs);
    EXPECT_EQ(f.map_key_size, e.map_key_size);
    EXPECT_EQ(f.map_images, e.map_images);
    EXPECT_EQ(f.splits_anywhere, e.splits_anywhere);
    EXPECT_EQ(f.is_separator != nullptr, e.splits_anywhere);
    // The accessors runtimes call return these facts.
    EXPECT_EQ(app.value_size(), e.value_size);
    EXPECT_EQ(app.output_value_size(), e.output_value_size);
    EXPECT_EQ(app.has_reduce(), e.has_reduce);
    EXPECT_EQ(app.combine_is_u32_add(), e.combine_add_u32);
    EXPECT_EQ(app.reduce_counts_values(), e.reduce_counts_values);
    EXPECT_EQ(app.keys_are_separator_runs(), e.keys_are_runs);
    EXPECT_EQ(app.map_emits_one_key_size(), e.map_key_size);
    EXPECT_EQ(app.has_image_path(), e.map_images > 0);
  }
}

// A runs app's word-wide classes (app_run_bytes_swar, app_run_codes_swar,
// hashagg's map) say what its byte-wide ones say (app_is_separator,
// app_run_code): every byte value at every position of a word, among
// neighbours that are separators, letters and high bytes. Only the high bit
// of a run byte is set; a code stands alone in its byte.
TEST(DialectFacts, RunClassesAgreeByteAndWordWide) {
  for (const MapReduceApp* app : mapreduce_programs()) {
    const DialectFacts& f = *app->dialect();
    SCOPED_TRACE(app->name());
    EXPECT_EQ(f.run_bytes_swar != nullptr, f.keys_are_runs);
    EXPECT_EQ(f.run_codes_swar != nullptr, f.keys_are_runs);
    EXPECT_EQ(f.run_code != nullptr, f.keys_are_runs);
    if (!f.keys_are_runs) continue;
    ASSERT_NE(f.is_separator, nullptr);
    // hashagg's map reads a last partial piece padded with zero bytes, which
    // must end a run.
    EXPECT_NE(f.is_separator(0), 0);
    for (const unsigned fill : {0x00u, 0x20u, 0x61u, 0x5au, 0x7fu, 0xffu}) {
      for (unsigned pos = 0; pos < 8; ++pos) {
        for (unsigned b = 0; b < 256; ++b) {
          std::uint64_t x = 0;
          for (unsigned k = 0; k < 8; ++k) x |= std::uint64_t{k == pos ? b : fill} << (8 * k);
          const std::uint64_t run = f.run_bytes_swar(x);
          const std::uint64_t codes = f.run_codes_swar(x, run);
          for (unsigned k = 0; k < 8; ++k) {
            const auto c = static_cast<unsigned char>(x >> (8 * k));
            const bool in_run = f.is_separator(c) == 0;
            ASSERT_EQ((run >> (8 * k)) & 0xff, in_run ? 0x80u : 0u)
                << "byte " << b << " at " << pos << ", fill " << fill << ", byte " << k;
            ASSERT_EQ((codes >> (8 * k)) & 0xff, in_run ? f.run_code(c) : 0u)
                << "byte " << b << " at " << pos << ", fill " << fill << ", byte " << k;
          }
        }
      }
    }
  }
}

// A chained app states its final output's sizes and reduce itself: its last
// job's output.
TEST(DialectFacts, ChainedAppsOutputWhatTheirLastJobOutputs) {
  for (const MapReduceApp* app : mapreduce_apps()) {
    if (app->jobs().empty()) continue;
    const MapReduceApp& last = *app->jobs().back();
    EXPECT_EQ(app->output_value_size(), last.output_value_size()) << app->name();
    EXPECT_EQ(app->has_reduce(), last.has_reduce()) << app->name();
  }
}

// cut_at_or_after (host) and APP_SPLITS_ANYWHERE + app_is_separator (dialect)
// state one rule: the input may be cut exactly before the separator bytes.
TEST(DialectFacts, CutAtOrAfterIsTheDialectsSeparatorRule) {
  std::string text = "Hello, World! it's 2024\r\n\tA-B_c d\xc3\xa9j\xc3\xa0 vu.  zz";
  for (int c = 0; c < 256; ++c) text += static_cast<char>(c);
  text += "trailing";
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  for (const MapReduceApp* app : mapreduce_programs()) {
    SCOPED_TRACE(app->name());
    const DialectFacts& f = *app->dialect();
    const bool host_cuts = app->cut_at_or_after(nullptr, 0, 0) != MapReduceApp::kNoCut;
    EXPECT_EQ(host_cuts, f.splits_anywhere)
        << "cut_at_or_after and APP_SPLITS_ANYWHERE disagree on whether the input may be cut";
    if (!host_cuts || !f.is_separator) continue;
    for (std::size_t at = 0; at <= text.size(); ++at) {
      std::size_t expected = at;
      while (expected < text.size() && !f.is_separator(data[expected])) ++expected;
      ASSERT_EQ(app->cut_at_or_after(data, text.size(), at), expected)
          << "at " << at << ": the host cut is not before the first separator byte of "
          << "app_is_separator";
    }
  }
}

// image_inputs gives one image per IMAGE2D_F32 argument of app_map_image
// (APP_MAP_IMAGES), on a small input of the app's default dataset.
TEST(DialectFacts, ImageInputsAreTheDialectsImages) {
  for (const MapReduceApp* app : mapreduce_programs()) {
    SCOPED_TRACE(app->name());
    std::ostringstream out;
    datasets::find_generator(app->default_dataset()).generate(64 << 10, 42, out);
    const std::string input = out.str();
    const auto images =
        app->image_inputs(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    EXPECT_EQ(images.size(), app->dialect()->map_images);
  }
}

}  // namespace
}  // namespace harness::apps
