// BigKernel on its variable-length-record apps (wc, mastercard,
// mastercard-indexed: records.h), on every kernel backend with a device
// (PoCL in CI): every variant in several rounds against the workload's
// serial reference (mastercard's two passes in each), record patterns on and
// off (the same answer; raw lists far larger), a short last round and one
// round, the workloads' hand-written examples in many rounds, a record much
// longer than the others across what would be a round boundary, mastercard
// with every transaction at X (its lists full), an empty input, a budget too
// small for the longest record, and an input corrupted after the reference
// was taken failing validation. On the device: the record-pattern kernel on
// hand-made lists; on the host: the pieces of whole lines, the record table
// and the record pattern's assembly.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "frameworks/bigkernel/assembly.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/bigkernel/records.h"
#include "frameworks/bigkernel/tests/bigkernel_testing.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/workloads/registry.h"
#include "frameworks/workloads/tests/fixed_text_test_support.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

bool pipeline(const std::string& variant) {
  return variant == "overlap-only" || variant == "reduced-volume" || variant == "full" ||
         variant == "full-sl1";
}

// Every round a pipeline variant ran (rounds x passes), or a buffered one's chunks.
double all_rounds(const Measurement& m) { return bigkernel_rounds(m) * m.counters.at("passes"); }

class BigKernelVariableAppTest : public DeviceAppTest {
 protected:
  bool wc() const { return app_name() == "wc"; }
  std::string dataset() const { return wc() ? "text-zipf" : "transactions"; }
  PointRun run(const std::string& variant, const std::string& input, std::uint64_t budget,
               const Params& overrides = {}, int repetitions = 2) {
    Params p = {{"piece", "512"}};
    for (const auto& [k, v] : overrides) p[k] = v;
    return run_point(*device_, "bigkernel", variant, app_name(), input, budget, p, repetitions);
  }
  // Several rounds of 256 KiB: the pipeline's rounds hold an address list of
  // 8 B a read (a byte of a piece, or of a card and merchant id).
  static std::uint64_t budget(const std::string& variant) {
    return pipeline(variant) ? 256 << 10 : 64 << 10;
  }
  // Budgets of several rounds with the long record below (whose address
  // list takes 8 B for each of its bytes in wc's and mastercard's rounds).
  std::uint64_t long_budget(const std::string& variant) const {
    if (variant == "reduced-volume" || variant == "full" || variant == "full-sl1")
      return app_name() == "mastercard-indexed" ? 64 << 10 : 512 << 10;
    return 32 << 10;
  }
  // A record much longer than the others: a line of 6000 B (wc: words; the
  // transactions: a long last field, which mastercard-indexed does not read).
  std::string long_record() const {
    std::string line = wc() ? "" : "5100000000000011|M0000001|";
    for (int i = 0; line.size() < 6000; ++i) line += i % 7 ? "word " : "\t";
    return line + "\n";
  }
  // run() and budget() for the shared checks of bigkernel_testing.h.
  RunVariant run_variant() {
    return [this](const std::string& variant, const std::string& input, std::uint64_t budget,
                  int repetitions) { return run(variant, input, budget, {}, repetitions); };
  }
  VariantBudget variant_budget() const {
    return [this](const std::string& variant) { return budget(variant); };
  }
};

// A round of a few thousand pieces of 1 KiB takes the assembly workers its
// values call for (one per 256 KiB), not one per 4096 records: 3 workers
// for rounds of about 1.5 MiB of values, and the same answer as one worker.
TEST_P(BigKernelVariableAppTest, RoundsOfLargeRecordsTakeEveryWorker) {
  if (app_name() == "mastercard-indexed") GTEST_SKIP() << "its records are index entries of 16 B";
  const std::string input = generate(dataset(), 4 << 20);
  const Params three = {{"piece", "1KiB"}, {"assembly_threads", "3"}};
  const PointRun r = run("full", input, 32 << 20, three, 1);
  ASSERT_EQ(r.validation, "");
  const double per_round = r.measurement.counters.at("value_bytes") / all_rounds(r.measurement);
  ASSERT_GT(per_round, 3.0 * (256 << 10)) << "the budget should give rounds of > 768 KiB";
  EXPECT_EQ(r.measurement.counters.at("assembly_workers_used"), 3);
  const PointRun one =
      run("full", input, 32 << 20, {{"piece", "1KiB"}, {"assembly_threads", "1"}}, 1);
  EXPECT_EQ(one.validation, "");
  EXPECT_EQ(one.measurement.counters.at("assembly_workers_used"), 1);
}

TEST_P(BigKernelVariableAppTest, EveryVariantInSeveralRounds) {
  const std::string input = generate(dataset(), 256 << 10);
  for (const std::string& variant : kBigKernelVariants) {
    if (!bigkernel_runs_here(*device_, variant)) continue;
    SCOPED_TRACE(variant);
    const PointRun r = run(variant, input, budget(variant));
    EXPECT_EQ(r.validation, "");
    const auto& c = r.measurement.counters;
    EXPECT_EQ(c.at("passes"), wc() ? 1 : 2);
    if (variant != "zero-copy") {
      EXPECT_GT(bigkernel_rounds(r.measurement), 2);
    }
    if (pipeline(variant)) {
      for (const std::string phase : {"copy_in", "compute", "assembly"}) {
        EXPECT_GT(phase_ms(r.measurement, phase), 0) << phase;
      }
      // Every round sends its records' entries of the record table.
      EXPECT_GT(c.at("record_table_bytes"), 0);
    }
    if (variant == "overlap-only") {  // whole records, once a pass
      EXPECT_EQ(c.at("value_bytes"), static_cast<double>(input.size()) * c.at("passes"));
    }
    if (variant == "full-sl1") {
      // S-L1's statistics of the last rounds: a piece's single-byte reads
      // (about 1 KiB of them) outlast the 300 monitored accesses, and a
      // 16 B line then serves 15 of every 16; the indexed kernel's 20-odd
      // reads a record never finish monitoring, so no line is used.
      if (app_name() == "mastercard-indexed") {
        EXPECT_EQ(c.at("sl1_decided_threads"), 0);
        EXPECT_EQ(c.at("sl1_line_accesses"), 0);
      } else {
        EXPECT_GT(c.at("sl1_decided_threads"), 0);
        EXPECT_GT(c.at("sl1_hit_rate_values"), 0.9);
        EXPECT_GT(c.at("sl1_cached_values"), 0.9);
      }
    }
    if (variant == "reduced-volume") {
      // The bytes read, a thread's packed after one another up to the
      // longest record's: wc and mastercard read every byte, the indexed
      // kernel the 16 digits and the merchant id (about a quarter).
      const double share = c.at("volume_fraction") / c.at("passes");
      if (app_name() == "mastercard-indexed") {
        EXPECT_GT(share, 0.2);
        EXPECT_LT(share, 0.3);
      } else {
        EXPECT_GE(share, 1.0);
        EXPECT_LT(share, 1.5);
      }
    }
  }
}

// Record patterns: every thread's reads are the first of one sequence of
// offsets from its record's start, so each round sends back a descriptor and
// the counts; without recognition, the raw list (8 B a read). Same answer,
// same values sent.
TEST_P(BigKernelVariableAppTest, RecordPatternsOnAndOff) {
  const std::string input = generate(dataset(), 128 << 10, 9);
  for (const std::string variant : {"reduced-volume", "full"}) {
    SCOPED_TRACE(variant);
    const PointRun with = run(variant, input, budget(variant));
    const PointRun without = run(variant, input, budget(variant), {{"patterns", "false"}});
    EXPECT_EQ(with.validation, "");
    EXPECT_EQ(without.validation, "");
    const auto &on = with.measurement.counters, &off = without.measurement.counters;
    EXPECT_EQ(on.at("pattern_rounds"), all_rounds(with.measurement));
    EXPECT_EQ(on.at("raw_rounds"), 0);
    EXPECT_EQ(off.at("raw_rounds"), all_rounds(without.measurement));
    EXPECT_EQ(off.at("pattern_rounds"), 0);
    EXPECT_GT(off.at("address_bytes"), 10 * on.at("address_bytes"));
    EXPECT_EQ(off.at("value_bytes"), on.at("value_bytes"));
  }
}

// A record count that leaves a short last round, and the whole input in one.
TEST_P(BigKernelVariableAppTest, ShortLastRoundAndOneRound) {
  const std::string input = generate(dataset(), 100'003, 7);
  expect_short_last_round_and_one_round(*device_, input, run_variant(), variant_budget());
}

// A record of 6000 B among records of about 100 (wc's pieces: 512 B) where a
// round boundary of the bytes would fall inside it: rounds are whole records,
// so it lies in one round, whose buffers the plan sized for the longest
// record; every variant still answers right in many rounds.
TEST_P(BigKernelVariableAppTest, LongRecordAcrossARoundBoundary) {
  const std::string before = generate(dataset(), 40 << 10, 3);
  const std::string after = generate(dataset(), 40 << 10, 4);
  const std::string input = before + long_record() + after;
  for (const std::string& variant : kBigKernelVariants) {
    if (!bigkernel_runs_here(*device_, variant)) continue;
    SCOPED_TRACE(variant);
    const PointRun r = run(variant, input, long_budget(variant), {}, 1);
    EXPECT_EQ(r.validation, "");
    if (variant != "zero-copy") {
      EXPECT_GT(bigkernel_rounds(r.measurement), 2);
    }
  }
}

// The workload's hand-written example (mastercard: an empty line, a 9-byte
// merchant id, a short last field, extra fields) alone and repeated to 128
// KiB, in many rounds of pieces of 64 B (a line or two each).
TEST_P(BigKernelVariableAppTest, HandWrittenExampleInManyRounds) {
  namespace ts = workloads::test_support;
  const std::string once = ts::read_file(ts::source_dir() / "frameworks/workloads" /
                                         (wc() ? "wc" : "mastercard") / "examples/small.txt");
  ASSERT_FALSE(once.empty());
  std::string repeated;
  while (repeated.size() < (128 << 10)) repeated += once;
  for (const std::string variant : {"double-buffer", "full"}) {
    SCOPED_TRACE(variant);
    EXPECT_EQ(run(variant, once, budget(variant), {{"piece", "64"}}, 1).validation, "");
    const PointRun r = run(variant, repeated, budget(variant), {{"piece", "64"}}, 1);
    EXPECT_EQ(r.validation, "");
    EXPECT_GT(bigkernel_rounds(r.measurement), 2);
  }
}

// Every transaction at X: each round's list holds all its transactions in
// both passes (the lists are planned for that), and every card is in the
// filter.
TEST_P(BigKernelVariableAppTest, EveryTransactionAtX) {
  if (wc()) GTEST_SKIP() << "mastercard's lists";
  std::string input;
  for (int i = 0; i < 3000; ++i) {
    input +=
        "51000000000" + std::to_string(10000 + i % 700) + "|M0000001|" + std::to_string(i) + "\n";
  }
  for (const std::string variant : {"single-buffer", "zero-copy", "full"}) {
    if (!bigkernel_runs_here(*device_, variant)) continue;
    SCOPED_TRACE(variant);
    const PointRun r = run(variant, input, budget(variant));
    EXPECT_EQ(r.validation, "");
    if (variant != "zero-copy") {
      EXPECT_GT(bigkernel_rounds(r.measurement), 2);
    }
  }
}

TEST_P(BigKernelVariableAppTest, EmptyInput) {
  expect_empty_input_in_no_round(*device_, run_variant(), variant_budget());
}

// A budget that holds rounds of the generated records but not one of the
// long record (mastercard-indexed's full pipeline reads 24 B of it: a budget
// too small for any round): a one-line error before anything runs.
TEST_P(BigKernelVariableAppTest, BudgetTooSmallForTheLongestRecord) {
  const std::string input = generate(dataset(), 16 << 10, 5) + long_record();
  for (const std::string variant : {"double-buffer", "full"}) {
    SCOPED_TRACE(variant);
    try {
      run(variant, input,
          app_name() == "mastercard-indexed" && pipeline(variant) ? 2 << 10 : 8 << 10, {}, 1);
      ADD_FAILURE() << "no error";
    } catch (const RunError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("one round needs"), std::string::npos) << what;
      EXPECT_NE(what.find("the longest"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

// The point validates what it computed: bytes changed after the reference
// was taken (a space made a letter: two words one; one of X's transactions
// at another merchant) give another answer, and validation names it.
TEST_P(BigKernelVariableAppTest, CorruptedResultFailsValidation) {
  register_all();
  std::string input = generate(dataset(), 64 << 10, 11);
  std::size_t at = wc() ? 1000 : input.find("|M0000001|") + 8;
  while (wc() && !(input[at] == ' ' && input[at - 1] > ' ' && input[at + 1] > ' ')) ++at;
  ASSERT_LT(at, input.size());
  for (const std::string variant : {"single-buffer", "full"}) {
    SCOPED_TRACE(variant);
    std::string bytes = input;
    const VariantInfo& v = Registry::instance().find_variant("bigkernel", variant);
    const AppInfo& a = Registry::instance().find_app(app_name());
    device_->set_memory_budget(budget(variant));
    PointContext ctx;
    ctx.device = device_.get();
    ctx.devices = {device_.get()};
    ctx.app = app_name();
    ctx.input = reinterpret_cast<const std::uint8_t*>(bytes.data());
    ctx.input_size = bytes.size();
    ctx.params = point_defaults(v, a);
    ctx.validation = a.validation;
    auto point = v.make(ctx);
    point->prepare();
    point->run_once();
    EXPECT_EQ(point->validate_last(), "");
    bytes[at] = wc() ? 'x' : '7';
    point->run_once();
    EXPECT_NE(point->validate_last(), "");
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelVariableAppTest);
INSTANTIATE_TEST_SUITE_P(
    Backends, BigKernelVariableAppTest,
    ::testing::Combine(::testing::ValuesIn(kernel_backends()),
                       ::testing::Values(std::string("wc"), std::string("mastercard"),
                                         std::string("mastercard-indexed"))),
    [](const ::testing::TestParamInfo<std::tuple<backend::Kind, std::string>>& i) {
      std::string name = backend_app_test_name(i);
      for (char& c : name) c = c == '-' ? '_' : c;
      return name;
    });

class BigKernelRecordTest : public DeviceTest {};

// Pieces of whole lines: each starts at a line start, a line longer than a
// piece is one, empty pieces are dropped; chunks of records are byte ranges
// that start at line starts, the long line inside one of them.
TEST_P(BigKernelRecordTest, PiecesAreWholeLines) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += std::string(10 + i % 50, 'a') + "\n";
  const std::size_t long_at = text.size();
  text += std::string(3000, 'b') + "\n";
  for (int i = 0; i < 100; ++i) text += "c d\n";
  text += "no newline at the end";
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  const std::vector<std::uint64_t> starts = bigkernel::line_piece_starts(data, text.size(), 256);
  ASSERT_GE(starts.size(), 3u);
  EXPECT_EQ(starts.front(), 0u);
  EXPECT_EQ(starts.back(), text.size());
  for (std::size_t i = 1; i + 1 < starts.size(); ++i) {
    EXPECT_LT(starts[i - 1], starts[i]);
    EXPECT_EQ(text[starts[i] - 1], '\n') << starts[i];
  }
  const auto records = bigkernel::RecordTable::variable(*device_, starts, 1);
  EXPECT_EQ(records.count(), starts.size() - 1);
  EXPECT_GE(records.max_bytes(1), 3001u);
  EXPECT_EQ(records.max_bytes(records.count()), text.size());
  EXPECT_EQ(records.slice_bytes(5), 48u);
  std::size_t holding = 0;  // chunks with the long line
  for (const bigkernel::Chunk& c : bigkernel::chunks(records.count(), 3)) {
    const std::uint64_t b = records.begin(c.first), e = b + records.bytes(c.first, c.count);
    EXPECT_TRUE(b == 0 || text[b - 1] == '\n') << b;
    EXPECT_LE(e - b, records.max_bytes(3));
    if (b <= long_at && long_at + 3001 <= e) ++holding;
  }
  EXPECT_EQ(holding, 1u);
  EXPECT_EQ(bigkernel::line_piece_starts(data, 0, 256), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(bigkernel::RecordTable::variable(*device_, {0}, 1).count(), 0u);
  EXPECT_THROW(bigkernel::RecordTable::variable(*device_, {5, 3}, 1), RunError);
}

// kernels/pattern.clh's record pattern on hand-made lists: threads of
// different counts whose reads are a prefix of one sequence of offsets from
// their record hold (the descriptor names the longest thread's); an offset
// off by one or another width breaks it.
TEST_P(BigKernelRecordTest, RecordPatternKernelOnHandMadeLists) {
  backend::Device& dev = *device_;
  backend::Queue& q = dev.queue();
  auto program =
      dev.build(program_source("bigkernel/pattern", {"frameworks/bigkernel/kernels/pattern.clh"}));
  const backend::Kernel longest = program->kernel("bk_find_longest");
  const backend::Kernel kernel = program->kernel("bk_find_record_pattern");
  const std::uint32_t threads = 300, max_entries = 24, words = 2;
  std::vector<std::uint64_t> records(std::size_t{threads + 1} * words, 0);
  std::vector<std::uint32_t> counts(threads);
  // Thread t: its record at 100 t + t % 7, 16 single-byte reads, then a
  // 2-byte read, then t % 8 single-byte reads from offset 20 on.
  const auto rel = [](std::uint32_t n) -> std::uint64_t {
    return n < 16 ? n : n == 16 ? 18 : n + 3;
  };
  const auto log2w = [](std::uint32_t n) -> std::uint64_t { return n == 16 ? 1 : 0; };
  for (std::uint32_t t = 0; t <= threads; ++t) records[std::size_t{t} * words] = 100ull * t + t % 7;
  for (std::uint32_t t = 0; t < threads; ++t) counts[t] = 17 + t % 8;
  std::vector<std::uint64_t> list(std::size_t{max_entries} * threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    for (std::uint32_t n = 0; n < counts[t]; ++n)
      list[std::size_t{n} * threads + t] = (records[std::size_t{t} * words] + rel(n)) | log2w(n)
                                                                                            << 60;
  }
  auto find = [&](const std::vector<std::uint64_t>& l) {
    backend::Buffer lb = dev.allocate(l.size() * 8), cb = dev.allocate(counts.size() * 4),
                    rb = dev.allocate(records.size() * 8),
                    d = dev.allocate(bigkernel::descriptor_words(max_entries) * 8);
    q.write(lb, 0, l.data(), l.size() * 8);
    q.write(cb, 0, counts.data(), counts.size() * 4);
    q.write(rb, 0, records.data(), records.size() * 8);
    q.fill_zero(d, 0, 24);
    const auto shape = backend::LaunchShape::cover(threads, 128);
    q.launch(longest, shape, cb, threads, d);
    q.launch(kernel, shape, lb, cb, rb, words, threads, max_entries, d);
    std::vector<std::uint64_t> out(bigkernel::descriptor_words(max_entries));
    q.read(out.data(), d, 0, out.size() * 8);
    return bigkernel::read_descriptor(out.data(), max_entries);
  };
  const bigkernel::AddressPattern holds = find(list);
  ASSERT_TRUE(holds.holds);
  EXPECT_EQ(holds.count, 24u);
  ASSERT_EQ(holds.first.size(), 24u);
  for (std::uint32_t n = 0; n < 24; ++n) {
    EXPECT_EQ(bigkernel::entry_offset(holds.first[n]), rel(n)) << n;
    EXPECT_EQ(bigkernel::entry_width(holds.first[n]), n == 16 ? 2u : 1u) << n;
  }
  auto off_by_one = list;
  off_by_one[std::size_t{18} * threads + 255] += 1;
  EXPECT_FALSE(find(off_by_one).holds);
  auto other_width = list;
  other_width[std::size_t{3} * threads + 6] ^= std::uint64_t{1} << 60;
  EXPECT_FALSE(find(other_width).holds);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BigKernelRecordTest);
INSTANTIATE_TEST_SUITE_P(Backends, BigKernelRecordTest, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

// A record pattern's assembly and the raw list's put the same values in the
// same places in both layouts, threads of every count among them (eight
// adjacent single-byte reads transposed where eight threads made them); a
// count above the pattern's or a read past the array is an error naming the
// thread.
TEST(Assembly, RecordPatternAndRawAgree) {
  std::vector<std::uint8_t> mapped(60 * 100);
  for (std::size_t i = 0; i < mapped.size(); ++i) mapped[i] = static_cast<std::uint8_t>(i * 11 + 3);
  const std::uint32_t threads = 90, words = 1;
  std::vector<std::uint64_t> bases(threads + 1);
  for (std::uint32_t t = 0; t <= threads; ++t) bases[t] = 60ull * t + t % 3;
  bigkernel::AddressPattern p;
  p.holds = true;
  for (std::uint64_t n = 0; n < 40; ++n)
    p.first.push_back(n == 30 ? 31 | std::uint64_t{1} << 60 : n < 30 ? n : n + 2);
  p.count = static_cast<std::uint32_t>(p.first.size());
  std::vector<std::uint32_t> counts(threads);
  std::vector<std::uint64_t> list(std::size_t{p.count} * threads, 0);
  for (std::uint32_t t = 0; t < threads; ++t) {
    counts[t] = t < 20 ? p.count : (t * 7) % (p.count + 1);
    for (std::uint32_t n = 0; n < counts[t]; ++n)
      list[std::size_t{n} * threads + t] = bases[t] + p.first[n];
  }
  const auto widths = bigkernel::widths_of(list.data(), counts.data(), threads, threads);
  for (auto layout : {bigkernel::Layout::coalesced, bigkernel::Layout::thread}) {
    const auto v = bigkernel::value_layout(layout, threads, widths);
    std::vector<std::uint8_t> a(v.bytes, 0), b(v.bytes, 0);
    bigkernel::assemble_by_record_pattern(mapped.data(), mapped.size(), p, v, bases.data(), words,
                                          counts.data(), 0, 37, a.data());
    bigkernel::assemble_by_record_pattern(mapped.data(), mapped.size(), p, v, bases.data(), words,
                                          counts.data(), 37, threads, a.data());
    bigkernel::assemble_raw(mapped.data(), mapped.size(), list.data(), counts.data(), threads, v, 0,
                            threads, b.data());
    EXPECT_EQ(a, b);
    for (std::uint32_t t : {0u, 21u, 55u, threads - 1}) {
      for (std::uint32_t n = 0; n < counts[t]; ++n) {
        if (n != 30) {
          EXPECT_EQ(a[v.at(t, n)], mapped[bases[t] + bigkernel::entry_offset(p.first[n])])
              << t << " " << n;
        }
      }
    }
  }
  const auto v = bigkernel::value_layout(bigkernel::Layout::coalesced, threads, widths);
  std::vector<std::uint8_t> out(v.bytes);
  auto too_many = counts;
  too_many[44] = p.count + 1;
  try {
    bigkernel::assemble_by_record_pattern(mapped.data(), mapped.size(), p, v, bases.data(), words,
                                          too_many.data(), 0, threads, out.data());
    ADD_FAILURE() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("thread 44"), std::string::npos) << e.what();
  }
  EXPECT_THROW(bigkernel::assemble_by_record_pattern(mapped.data(), 60 * 50, p, v, bases.data(),
                                                     words, counts.data(), 0, threads, out.data()),
               RunError);
}

}  // namespace
}  // namespace harness::testing
