// The eight benchmarks of the paper's table 1, each a graph built with the
// API, scaled by N, between a stateful source (deterministic seeded input)
// and a stateful sink that checks every output item against a reference
// computed on the CPU by code written apart from the filters.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/streamgraph/graph.h"

namespace harness::streamgraph {

// What a checking sink found. The sink only keeps the items it pops while
// the graph runs; they are compared with their references when the report is
// read (after the timed run, so the check's cost stays out of the
// measurement), and again for items that arrived since.
class SinkReport {
 public:
  std::uint64_t items_checked() const {
    settle();
    return items_checked_;
  }
  std::uint64_t mismatches() const {
    settle();
    return mismatches_;
  }
  const std::string& first_mismatch() const {  // empty when all matched
    settle();
    return first_mismatch_;
  }
  bool passed() const { return items_checked() > 0 && mismatches() == 0; }

  // For the sink: `check` compares the items kept so far and records them.
  void set_check(std::function<void()> check) { check_ = std::move(check); }
  // `describe()` says what went wrong; called for the first mismatch only.
  template <class Describe>
  void record(bool matched, Describe describe) {
    ++items_checked_;
    if (!matched && mismatches_++ == 0) first_mismatch_ = describe();
  }

 private:
  void settle() const {
    if (check_) check_();
  }

  // The sink's checker records through its own (non-const) pointer to the
  // report; reading it through a const one runs that check first.
  std::function<void()> check_;
  std::uint64_t items_checked_ = 0;
  std::uint64_t mismatches_ = 0;
  std::string first_mismatch_;
};

struct Benchmark {
  std::string name;
  int n = 0;
  Graph graph{ItemType::f32};
  std::shared_ptr<const SinkReport> report;  // checks what the sink popped when read
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
