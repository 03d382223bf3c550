// DES: N rounds of DES encryption over a stream of bits, after StreamIt's
// DES: each 8-byte block (two u32 words from the source) becomes 64 one-bit
// items; the initial permutation; N Feistel rounds, each a duplicate
// split-join whose one branch selects R (the next L) and whose other XORs L
// with f(R, K) (expansion, key XOR, eight S-box filters in a round-robin(6)
// split-join, permutation); the final swap and permutation; the output as 16
// hex digits. Reference: des::reference_encrypt on 64-bit words.
#include "frameworks/streamgraph/benchmarks/des.h"

#include <algorithm>
#include <array>

#include "frameworks/streamgraph/benchmarks/benchmark.h"
#include "frameworks/streamgraph/benchmarks/des_tables.h"
#include "frameworks/streamgraph/benchmarks/source_sink.h"
#include "frameworks/streamgraph/structure.h"
#include "harness/dialect/dialect.h"

namespace harness::streamgraph::kernels {
// clang-format off
#include "frameworks/streamgraph/kernels/sg_work.clh"
#include "frameworks/streamgraph/kernels/des.clh"
// clang-format on
}  // namespace harness::streamgraph::kernels

namespace harness::streamgraph {

namespace des {

namespace {

template <std::size_t N>
std::uint64_t permute(std::uint64_t in, const std::array<std::uint32_t, N>& table, int in_bits) {
  std::uint64_t out = 0;
  for (std::uint32_t pos : table)
    out = (out << 1) | ((in >> (in_bits - static_cast<int>(pos))) & 1u);
  return out;
}

std::uint32_t rotate28(std::uint32_t x, int by) {
  return ((x << by) | (x >> (28 - by))) & 0xFFFFFFFu;
}

}  // namespace

std::uint64_t reference_encrypt(std::uint64_t key, std::uint64_t block, int rounds) {
  const std::uint64_t k56 = permute(key, kPermutedChoice1, 64);
  auto c = static_cast<std::uint32_t>(k56 >> 28);
  auto d = static_cast<std::uint32_t>(k56 & 0xFFFFFFFu);
  std::array<std::uint64_t, 16> subkeys{};
  for (std::size_t r = 0; r < 16; ++r) {
    c = rotate28(c, kKeyShifts[r]);
    d = rotate28(d, kKeyShifts[r]);
    subkeys[r] = permute((std::uint64_t{c} << 28) | d, kPermutedChoice2, 56);
  }
  const std::uint64_t x = permute(block, kInitialPermutation, 64);
  auto left = static_cast<std::uint32_t>(x >> 32);
  auto right = static_cast<std::uint32_t>(x);
  for (int r = 0; r < rounds; ++r) {
    const std::uint64_t e =
        permute(right, kExpansion, 32) ^ subkeys[static_cast<std::size_t>(r % 16)];
    std::uint32_t s = 0;
    for (int box = 0; box < 8; ++box) {
      const auto six = static_cast<std::uint32_t>((e >> (42 - 6 * box)) & 63u);
      const std::uint32_t row = ((six >> 5) << 1) | (six & 1u);
      const std::uint32_t col = (six >> 1) & 15u;
      s = (s << 4) | kSBoxes[static_cast<std::size_t>(box)][row * 16 + col];
    }
    const auto f = static_cast<std::uint32_t>(permute(s, kPermutation, 32));
    const std::uint32_t next = left ^ f;
    left = right;
    right = next;
  }
  return permute((std::uint64_t{right} << 32) | left, kFinalPermutation, 64);
}

}  // namespace des

namespace {

constexpr const char* kSource = "frameworks/streamgraph/kernels/des.clh";

// The 16 round keys as 48 bit items each, computed on bit arrays (the
// reference computes them on words).
std::vector<std::vector<std::uint32_t>> round_keys(std::uint64_t key) {
  std::vector<std::uint32_t> bits(64);
  for (int i = 0; i < 64; ++i)
    bits[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>((key >> (63 - i)) & 1u);
  std::vector<std::uint32_t> cd;
  for (std::uint32_t pos : des::kPermutedChoice1) cd.push_back(bits[pos - 1]);
  std::vector<std::vector<std::uint32_t>> keys;
  for (int shift : des::kKeyShifts) {
    for (int s = 0; s < shift; ++s) {  // rotate each 28-bit half left by one
      std::rotate(cd.begin(), cd.begin() + 1, cd.begin() + 28);
      std::rotate(cd.begin() + 28, cd.begin() + 29, cd.end());
    }
    std::vector<std::uint32_t> k;
    for (std::uint32_t pos : des::kPermutedChoice2) k.push_back(cd[pos - 1]);
    keys.push_back(std::move(k));
  }
  return keys;
}

// A permutation filter: pop `pop`, push the table's length.
template <class Table>
FilterSpec permute(const std::string& name, int pop, const Table& table) {
  std::vector<std::uint32_t> ip = {static_cast<std::uint32_t>(table.size())};
  ip.insert(ip.end(), table.begin(), table.end());
  return kernel_filter<std::uint32_t>(name, pop, pop, static_cast<int>(table.size()),
                                      SG_KERNEL(sg_des_permute), kSource, std::move(ip));
}

std::vector<std::uint32_t> range_table(std::uint32_t first, std::uint32_t count) {
  std::vector<std::uint32_t> t;
  for (std::uint32_t i = 0; i < count; ++i) t.push_back(first + i);
  return t;
}

Stream feistel_f(int round, const std::vector<std::uint32_t>& key) {
  const std::string tag = std::to_string(round);
  std::vector<Stream> boxes;
  for (std::size_t b = 0; b < 8; ++b) {
    const auto& box = des::kSBoxes[b];
    boxes.push_back(filter(kernel_filter<std::uint32_t>("r" + tag + "_sbox" + std::to_string(b + 1),
                                                        6, 6, 4, SG_KERNEL(sg_des_sbox), kSource,
                                                        {box.begin(), box.end()})));
  }
  std::vector<Stream> stages;
  stages.push_back(filter(permute("r" + tag + "_expand", 32, des::kExpansion)));
  stages.push_back(filter(kernel_filter<std::uint32_t>("r" + tag + "_key_xor", 48, 48, 48,
                                                       SG_KERNEL(sg_des_key_xor), kSource, key)));
  stages.push_back(
      split_join(round_robin({6}), std::move(boxes), join_round_robin({4}), "r" + tag + "_sboxes"));
  stages.push_back(filter(permute("r" + tag + "_permute", 32, des::kPermutation)));
  return pipeline(std::move(stages));
}

Stream round(int r, const std::vector<std::uint32_t>& key) {
  const std::string tag = std::to_string(r);
  std::vector<Stream> halves;  // L passes through, R goes through f
  halves.push_back(
      filter(kernel_filter<std::uint32_t>("r" + tag + "_left", 1, 1, 1, SG_KERNEL(sg_identity_u32),
                                          "frameworks/streamgraph/kernels/sg_work.clh")));
  halves.push_back(feistel_f(r, key));
  std::vector<Stream> next_right;
  next_right.push_back(
      split_join(round_robin({32}), std::move(halves), join_round_robin({1}), "r" + tag + "_lr"));
  next_right.push_back(filter(
      kernel_filter<std::uint32_t>("r" + tag + "_xor", 2, 2, 1, SG_KERNEL(sg_des_xor), kSource)));
  std::vector<Stream> branches;
  branches.push_back(filter(permute("r" + tag + "_select_right", 64, range_table(33, 32))));
  branches.push_back(pipeline(std::move(next_right)));
  return split_join(duplicate(), std::move(branches), join_round_robin({32}), "r" + tag);
}

}  // namespace

Benchmark make_des(int n, std::uint64_t seed) {
  Benchmark b;
  b.name = "DES";
  b.n = n;
  auto report = std::make_shared<SinkReport>();
  b.report = report;
  const auto keys = round_keys(des::kBenchmarkKey);
  std::vector<std::uint32_t> swap = range_table(33, 32);
  for (std::uint32_t i = 1; i <= 32; ++i) swap.push_back(i);
  std::vector<Stream> stages;
  stages.push_back(filter(source_u32(seed)));
  stages.push_back(filter(kernel_filter<std::uint32_t>(
      "to_bits", 2, 2, 64, SG_KERNEL(sg_des_bits_from_words), kSource)));
  stages.push_back(filter(permute("initial_permutation", 64, des::kInitialPermutation)));
  for (int r = 0; r < n; ++r) stages.push_back(round(r, keys[static_cast<std::size_t>(r % 16)]));
  stages.push_back(filter(permute("swap_halves", 64, swap)));
  stages.push_back(filter(permute("final_permutation", 64, des::kFinalPermutation)));
  stages.push_back(
      filter(kernel_filter<std::uint32_t>("to_hex", 4, 4, 1, SG_KERNEL(sg_des_hex), kSource)));
  auto reference = [seed, n](std::uint64_t block) {
    const std::uint64_t plain =
        (std::uint64_t{input_u32(seed, 2 * block)} << 32) | input_u32(seed, 2 * block + 1);
    const std::uint64_t cipher = des::reference_encrypt(des::kBenchmarkKey, plain, n);
    std::vector<std::uint32_t> hex;
    for (int i = 15; i >= 0; --i)
      hex.push_back(static_cast<std::uint32_t>((cipher >> (4 * i)) & 15u));
    return hex;
  };
  stages.push_back(filter(checking_sink_u32(16, reference, report)));
  b.graph = build_graph(pipeline(std::move(stages)), ItemType::u32);
  return b;
}

}  // namespace harness::streamgraph
