// BigKernel's CPU assembly (stage 2, assembly.h) on one host thread, on
// synthetic rounds shaped like the gpu preset's: wc's pieces of whole lines
// (a record pattern of single-byte reads, variable counts) and
// opinion-finder's tweets (a fixed pattern of 146 single-byte reads), in the
// coalesced and thread layouts. Bytes per second are the values assembled.
// Every benchmark checks its round's values against the input once before
// timing, and fails (SkipWithError) when one is wrong.
//
//   build/bin/bench_bigkernel_assembly [--benchmark_filter=Record]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "frameworks/bigkernel/assembly.h"

namespace harness::bigkernel {
namespace {

constexpr std::uint64_t kInputBytes = 64ull << 20;

const std::vector<std::uint8_t>& input() {
  static const std::vector<std::uint8_t> data = [] {
    std::vector<std::uint8_t> d(kInputBytes);
    std::mt19937_64 rng(7);
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    return d;
  }();
  return data;
}

// A round of `threads` pieces of 928-1,119 B laid end to end (wc's pieces
// aim at 1 KiB and end at a line's end).
struct PieceRound {
  std::vector<std::uint64_t> starts;
  std::vector<std::uint32_t> counts;
  std::uint64_t bytes = 0;
  AddressPattern pattern;
  ValueLayout layout;
};

PieceRound piece_round(std::uint32_t threads, Layout layout) {
  PieceRound r;
  std::mt19937 rng(11);
  std::uint64_t at = 0;
  std::uint32_t longest = 0;
  for (std::uint32_t t = 0; t < threads; ++t) {
    const auto n = static_cast<std::uint32_t>(928 + rng() % 192);
    r.starts.push_back(at);
    r.counts.push_back(n);
    at += n;
    r.bytes += n;
    longest = std::max(longest, n);
  }
  r.pattern.holds = true;
  r.pattern.count = longest;
  for (std::uint32_t n = 0; n < longest; ++n) r.pattern.first.push_back(n);  // width 1
  r.layout = value_layout(layout, threads, std::vector<std::uint32_t>(longest, 1));
  return r;
}

bool pieces_assembled(const PieceRound& r, const std::vector<std::uint8_t>& values) {
  const auto& in = input();
  for (std::uint32_t t = 0; t < r.counts.size(); ++t)
    for (std::uint32_t n = 0; n < r.counts[t]; ++n)
      if (values[r.layout.at(t, n)] != in[r.starts[t] + n]) return false;
  return true;
}

void BM_RecordPattern(benchmark::State& state, Layout layout) {
  const auto threads = static_cast<std::uint32_t>(state.range(0));
  const PieceRound r = piece_round(threads, layout);
  std::vector<std::uint8_t> values(r.layout.bytes);
  const auto& in = input();
  auto assemble = [&] {
    assemble_by_record_pattern(in.data(), in.size(), r.pattern, r.layout, r.starts.data(), 1,
                               r.counts.data(), 0, threads, values.data());
  };
  assemble();
  if (!pieces_assembled(r, values)) state.SkipWithError("a value is not its input byte");
  for (auto _ : state) {
    assemble();
    benchmark::DoNotOptimize(values.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * r.bytes));
}

// Opinion-finder's round: thread t reads the 146 text bytes of tweet t
// (records of 160 B, the text 14 B in).
void BM_FixedPattern(benchmark::State& state, Layout layout) {
  const auto threads = static_cast<std::uint32_t>(state.range(0));
  constexpr std::uint32_t kReads = 146, kRecord = 160, kTextAt = 14;
  AddressPattern p;
  p.holds = true;
  p.count = kReads;
  p.stride = kRecord;
  for (std::uint32_t n = 0; n < kReads; ++n) p.first.push_back(kTextAt + n);
  const ValueLayout l = value_layout(layout, threads, std::vector<std::uint32_t>(kReads, 1));
  std::vector<std::uint8_t> values(l.bytes);
  const auto& in = input();
  assemble_by_pattern(in.data(), in.size(), p, l, 0, threads, values.data());
  for (std::uint32_t t = 0; t < threads; t += 97)
    for (std::uint32_t n = 0; n < kReads; ++n)
      if (values[l.at(t, n)] != in[std::uint64_t{t} * kRecord + kTextAt + n])
        state.SkipWithError("a value is not its input byte");
  for (auto _ : state) {
    assemble_by_pattern(in.data(), in.size(), p, l, 0, threads, values.data());
    benchmark::DoNotOptimize(values.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * threads * kReads));
}

// wc's rounds at the gpu preset hold about 5,900 pieces; opinion-finder's 45,056 tweets.
BENCHMARK_CAPTURE(BM_RecordPattern, coalesced, Layout::coalesced)
    ->Arg(5888)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RecordPattern, thread, Layout::thread)
    ->Arg(5888)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FixedPattern, coalesced, Layout::coalesced)
    ->Arg(45056)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FixedPattern, thread, Layout::thread)
    ->Arg(45056)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace harness::bigkernel

BENCHMARK_MAIN();
