#include "frameworks/streamgraph/benchmarks/benchmark.h"

#include "frameworks/streamgraph/benchmarks/bitonic_common.h"
#include "harness/core/errors.h"

namespace harness::streamgraph {

namespace {

bool at_least_one(int n) { return n >= 1; }
bool at_least_two(int n) { return n >= 2; }

}  // namespace

const std::vector<BenchmarkInfo>& benchmark_list() {
  static const std::vector<BenchmarkInfo> list = {
      {"Bitonic",
       "bitonic sorting network on N floats (N a power of two)",
       8,
       {2, 4, 8, 16},
       is_power_of_two},
      {"BitonicRec",
       "recursive bitonic sort on N floats (N a power of two)",
       8,
       {2, 4, 8, 16},
       is_power_of_two},
      {"DCT", "2-D DCT of an N x N float matrix", 8, {2, 3, 4, 8}, at_least_two},
      {"DES",
       "DES with N rounds, 8-byte blocks in, 16 hex digits out",
       16,
       {1, 2, 4, 16},
       at_least_one},
      {"FFT",
       "fine-grained FFT of N complex items (N a power of two)",
       32,
       {2, 4, 8, 32},
       is_power_of_two},
      {"FMRadio", "FM radio with an (N + 3)-band equalizer", 8, {1, 2, 4, 8}, at_least_one},
      {"MatrixMult",
       "blocked product of 2N x 2N matrices in 2 x 2 blocks",
       2,
       {1, 2, 3, 4},
       at_least_one},
      {"MatrixMult3",
       "blocked product of (3N+3) x (3N+3) matrices in 3 x 3 blocks",
       0,
       {0, 1, 2, 3},
       [](int n) { return n >= 0; }},
  };
  return list;
}

Benchmark make_benchmark(const std::string& name, int n, std::uint64_t seed) {
  for (const BenchmarkInfo& info : benchmark_list()) {
    if (info.name != name) continue;
    if (!info.valid_n(n)) {
      throw UsageError("stream graph benchmark " + name +
                       " does not take N = " + std::to_string(n) + " (" + info.description + ")");
    }
    if (name == "Bitonic") return make_bitonic(n, seed);
    if (name == "BitonicRec") return make_bitonic_rec(n, seed);
    if (name == "DCT") return make_dct(n, seed);
    if (name == "DES") return make_des(n, seed);
    if (name == "FFT") return make_fft(n, seed);
    if (name == "FMRadio") return make_fmradio(n, seed);
    if (name == "MatrixMult") return make_matrix_mult(n, seed);
    if (name == "MatrixMult3") return make_matrix_mult3(n, seed);
  }
  std::string names;
  for (const BenchmarkInfo& info : benchmark_list())
    names += (names.empty() ? "" : ", ") + info.name;
  throw UsageError("unknown stream graph benchmark '" + name + "' (known: " + names + ")");
}

}  // namespace harness::streamgraph
