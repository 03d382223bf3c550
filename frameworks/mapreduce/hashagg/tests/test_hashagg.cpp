// hashagg on every kernel backend present (PoCL in CI): both variants against
// the reference on the shared cases of every app it runs, with many small
// chunks and lanes, odd segments, no local table, colliding hashes in the
// global table, one hot key, keys at the local table's length limit, a table
// that grows; phases and counters. The other apps: test_hashagg_apps.cpp.
#include <cctype>
#include <string>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"
#include "frameworks/mapreduce/hashagg/kernels/hashagg_types.clh"
#include "frameworks/mapreduce/hashagg/tests/hashagg_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

bool runs(const apps::MapReduceApp& app) {
  return app.jobs().empty() && app.combine_is_u32_add() &&
         app.cut_at_or_after(nullptr, 0, 0) != apps::MapReduceApp::kNoCut;
}

class HashAggTest : public HashAggFixture {};

TEST_P(HashAggTest, MatchesReference) {
  if (!runs(app())) GTEST_SKIP() << "the records path: test_hashagg_apps.cpp";
  expect_reference(runtimes(hashagg::Options{}), app(), "hashagg/pipelined");
  expect_reference(runtimes(resident()), app(), "hashagg/resident");
  expect_reference(runtimes(small_pieces()), app(), "pipelined, 4 KiB chunks, 2 lanes, 3x32, 7");
  hashagg::Options no_local = small_pieces();
  no_local.local = false;
  expect_reference(runtimes(no_local), app(), "pipelined, no local table");
  hashagg::Options map_path = small_pieces();
  map_path.runs = false;
  expect_reference(runtimes(map_path), app(), "pipelined, app_map path");
  hashagg::Options map_resident = resident();
  map_resident.runs = false;
  expect_reference(runtimes(map_resident), app(), "resident, app_map path");
  hashagg::Options colliding = resident();
  colliding.hash_mask = 0xf;  // 16 hash values: long probe runs in the global table
  expect_reference(runtimes(colliding), app(), "resident, 4 hash bits");
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashAggTest);
INSTANTIATE_TEST_SUITE_P(BackendsAndApps, HashAggTest,
                         ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                                            ::testing::ValuesIn(mapreduce_app_names())),
                         backend_app_test_name);

using HashAggWordCount = DeviceTest;

mapreduce::RunResult run_words(backend::Device& device, const hashagg::Options& o,
                               const std::string& text, mapreduce::Runtime* reuse = nullptr) {
  const apps::MapReduceApp& app = apps::wordcount_app();
  std::unique_ptr<mapreduce::Runtime> own;
  if (!reuse) {
    own = hashagg::make_runtime(device, o);
    reuse = own.get();
  }
  reuse->set_app_params(app.resolve_params({}));
  reuse->prepare(app);
  mapreduce::RunResult r =
      reuse->run(app, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(apps::compare_outputs(app, reference_output(app, text), r.output), "");
  return r;
}

// Keys of every length around the local table's limit (HA_LOCAL_KEY_BYTES)
// and the runs path's packed keys (12 letters for word count), in both cases, words whose 32-bit
// FNV-1a hashes collide, one hot word, and keys with an equal first packed word (same length and
// first three letters).
TEST_P(HashAggWordCount, KeyShapesAndCollisions) {
  const auto [a, b] = fnv_colliding_words();
  std::string text;
  for (int rep = 0; rep < 20; ++rep) {
    for (std::uint32_t len = 1; len <= 16; ++len) {
      text += std::string(len, static_cast<char>('a' + len)) + " ";
      text += std::string(len, static_cast<char>('A' + len)) + ",";
      text += "abc" + std::string(len, static_cast<char>('a' + rep % 7)) + ".";
    }
    text += a + " " + b + " " + a + "\n";
    text += "hot hot hot HOT hot\n";
  }
  for (const bool local : {true, false}) {
    for (const bool runs : {true, false}) {
      hashagg::Options o = small_pieces();
      o.local = local;
      o.runs = runs;
      run_words(*device_, o, text);
      hashagg::Options r = resident();
      r.local = local;
      r.runs = runs;
      run_words(*device_, r, text);
    }
  }
}

// The runs path reads 16-byte pieces (HA_RUN_PIECE) and classifies them 8
// bytes at a time: words of 1 to 40 letters, mixed case, starting at every
// offset of a piece, so that they end inside it, at its last byte, in the
// next piece and past that (packed up to 12 letters, byte-keyed beyond);
// separated by every byte value that is not a letter, 0x80-0xff, '@', '[',
// '`' and '{' among them, one or several in a row; texts that end mid-word
// and mid-piece; a text of words too long to pack only (more in a tile than
// the work-group lists apart, HA_RUN_LONG_KEYS). Resident, and in 4 KiB
// chunks.
TEST_P(HashAggWordCount, RunsAtEveryOffsetOfAPiece) {
  std::string separators;
  for (int c = 0; c < 256; ++c) {
    if (!std::isalpha(c) || c > 0x7f) separators += static_cast<char>(c);
  }
  std::string text;
  std::size_t next_separator = 0;
  const auto separator = [&] { return separators[next_separator++ % separators.size()]; };
  for (std::uint32_t len = 1; len <= 40; ++len) {
    for (std::uint32_t offset = 0; offset < HA_RUN_PIECE; ++offset) {
      do {
        text += separator();
      } while (text.size() % HA_RUN_PIECE != offset);
      for (std::uint32_t i = 0; i < len; ++i) {
        const char letter = static_cast<char>('a' + (len * 7 + i * (offset + 1)) % 26);
        text += i % 3 == 1 ? static_cast<char>(letter - 'a' + 'A') : letter;
      }
    }
  }
  std::string long_words;
  for (std::uint32_t i = 0; i < 3000; ++i) {
    for (std::uint32_t j = 0; j < 13 + i % 9; ++j)
      long_words += static_cast<char>('a' + (i + j * j) % 26);
    long_words += ' ';
  }
  for (const std::string& t : {text, text + "Tail", text.substr(0, text.size() - 21), long_words}) {
    run_words(*device_, resident(), t);
    run_words(*device_, small_pieces(), t);
  }
}

// One key everywhere: every work-item adds to one slot of its local table,
// every flush to one global entry. One-letter words (8 per 16-byte segment)
// stage more keys per tile than HA_STAGE_CAPACITY: the rest go to the table
// directly.
TEST_P(HashAggWordCount, OneHotKey) {
  for (const char* word : {"the ", "a "}) {
    std::string text;
    for (int i = 0; i < 50000; ++i) text += word;
    for (const bool runs : {true, false}) {
      hashagg::Options o = resident();
      o.runs = runs;
      const mapreduce::RunResult r = run_words(*device_, o, text);
      ASSERT_EQ(r.output.size(), 1u);
      EXPECT_EQ(r.output[0].first + " ", word);
    }
  }
}

// The first table (1024 entries) is too small for a zipf input's distinct
// words: the first run grows it and maps again, the next reuses its size.
TEST_P(HashAggWordCount, TableGrowsOnceAndIsReused) {
  const std::string text = generated("text-zipf", 400000, 11);
  for (const bool pipelined : {false, true}) {
    hashagg::Options o = pipelined ? small_pieces() : resident();
    auto runtime = hashagg::make_runtime(*device_, o);
    const mapreduce::RunResult first = run_words(*device_, o, text, runtime.get());
    EXPECT_GE(first.measurement.counters.at("retries"), 1.0);
    EXPECT_GT(first.measurement.counters.at("table_entries"), 1024.0);
    const mapreduce::RunResult second = run_words(*device_, o, text, runtime.get());
    EXPECT_EQ(second.measurement.counters.at("retries"), 0.0);
  }
}

// More distinct short words than the first short-key table has slots (4096):
// the first run finds it full, grows it 4x and maps again; the next run
// reuses the size. Also with 4 hash bits (every key probes from one of 16 slots).
TEST_P(HashAggWordCount, ShortKeyTableGrowsOnceAndIsReused) {
  std::string text;
  for (int i = 0; i < 6000; ++i) {
    for (int v = i + 1; v > 0; v /= 26) text += static_cast<char>('a' + v % 26);
    text += i % 3 == 0 ? "\n" : " ";
  }
  for (const std::uint32_t hash_mask : {0xffffffffu, 0xfu}) {
    hashagg::Options o = resident();
    o.hash_mask = hash_mask;
    auto runtime = hashagg::make_runtime(*device_, o);
    const mapreduce::RunResult first = run_words(*device_, o, text, runtime.get());
    EXPECT_GE(first.measurement.counters.at("retries"), 1.0);
    EXPECT_GE(first.measurement.counters.at("short_slots"), 16384.0);
    const mapreduce::RunResult second = run_words(*device_, o, text, runtime.get());
    EXPECT_EQ(second.measurement.counters.at("retries"), 0.0);
    EXPECT_EQ(second.output.size(), 6000u);
  }
}

TEST_P(HashAggWordCount, PhasesAndCounters) {
  const std::string text = generated("text-zipf", 100000, 5);
  const mapreduce::RunResult p = run_words(*device_, small_pieces(), text);
  EXPECT_EQ(phase_names(p), (std::vector<std::string>{"pipeline", "group", "reduce", "copy_out"}));
  EXPECT_GT(p.measurement.counters.at("chunks"), 10.0);
  EXPECT_GT(p.measurement.counters.at("copy_in_busy_ms"), 0.0);
  EXPECT_GT(p.measurement.counters.at("map_busy_ms"), 0.0);
  const mapreduce::RunResult r = run_words(*device_, resident(), text);
  EXPECT_EQ(phase_names(r),
            (std::vector<std::string>{"copy_in", "map", "group", "reduce", "copy_out"}));
  EXPECT_EQ(r.measurement.counters.at("chunks"), 1.0);
  EXPECT_EQ(r.measurement.counters.at("runs_path"), 1.0);
}

// The register budget is the runs path's (word count's occupancy); another
// app's program under it spills (k-means' pairs map).
TEST(HashAggProgram, OnlyTheRunsPathTakesARegisterBudget) {
  for (const apps::MapReduceApp* app : apps::mapreduce_programs()) {
    EXPECT_EQ(hashagg::program_source(*app).max_registers > 0, app->keys_are_separator_runs())
        << app->name();
  }
}

TEST(HashAggOptions, BadKnobsAreUsageErrors) {
  Params p = defaults_of(hashagg::params());
  EXPECT_NO_THROW(hashagg::options_from(p));
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"group_size", "48"},
                                                        {"group_size", "16"},
                                                        {"segment", "0"},
                                                        {"chunk_kib", "0"},
                                                        {"lanes", "0"},
                                                        {"local", "maybe"}}) {
    Params bad = p;
    bad[name] = value;
    EXPECT_THROW(hashagg::options_from(bad), UsageError) << name << "=" << value;
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HashAggWordCount);
INSTANTIATE_TEST_SUITE_P(Backends, HashAggWordCount, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

}  // namespace
}  // namespace harness::testing
