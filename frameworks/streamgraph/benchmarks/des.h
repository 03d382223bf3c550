// DES with N rounds: the reference (a textbook implementation on 64-bit
// words), exposed so tests can check it against the standard's known answers.
#pragma once

#include <cstdint>

namespace harness::streamgraph::des {

// Encrypts one block with `rounds` Feistel rounds (16 is standard DES; round
// r uses the key of round r mod 16, which the key schedule repeats anyway).
std::uint64_t reference_encrypt(std::uint64_t key, std::uint64_t block, int rounds);

// The benchmark's key.
inline constexpr std::uint64_t kBenchmarkKey = 0x133457799BBCDFF1ull;

}  // namespace harness::streamgraph::des
