// The eight benchmarks of the paper's table 1, each a graph built with the
// API, scaled by N, between a stateful source (deterministic seeded input)
// and a stateful sink that checks every output item against a reference
// computed on the CPU by code written apart from the filters.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/streamgraph/graph.h"

namespace harness::streamgraph {

// What a checking sink found while the graph ran.
struct SinkReport {
  std::uint64_t items_checked = 0;
  std::uint64_t mismatches = 0;
  std::string first_mismatch;  // empty when all matched
  bool passed() const { return items_checked > 0 && mismatches == 0; }
};

struct Benchmark {
  std::string name;
  int n = 0;
  Graph graph{ItemType::f32};
  std::shared_ptr<const SinkReport> report;  // filled by the sink as the graph runs
};

struct BenchmarkInfo {
  std::string name;
  std::string description;   // table 1's, with our scaling rule
  int paper_n = 0;           // table 1's original N (0: none given)
  std::vector<int> small_n;  // sizes the tests run (the smallest valid ones and a couple more)
  bool (*valid_n)(int n);
};

// Every benchmark, in table 1's order.
const std::vector<BenchmarkInfo>& benchmark_list();

// Throws harness::UsageError for an unknown name or an N the benchmark does not take.
Benchmark make_benchmark(const std::string& name, int n, std::uint64_t seed = 1);

// The builders (benchmarks/<name>.cpp).
Benchmark make_bitonic(int n, std::uint64_t seed);
Benchmark make_bitonic_rec(int n, std::uint64_t seed);
Benchmark make_dct(int n, std::uint64_t seed);
Benchmark make_des(int n, std::uint64_t seed);
Benchmark make_fft(int n, std::uint64_t seed);
Benchmark make_fmradio(int n, std::uint64_t seed);
Benchmark make_matrix_mult(int n, std::uint64_t seed);
Benchmark make_matrix_mult3(int n, std::uint64_t seed);

}  // namespace harness::streamgraph
