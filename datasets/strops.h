// "strops": string operations for the GPU string library of Mars (mars.fig3),
// one fixed 80-byte record per operation, so a size names an exact count
// ("640MiB" = 8Mi operations, "640MB" = 8,000,000):
//   [0, 32)   string A (the source of strcpy, the destination of strcat and
//             strcmp's first operand, the memset length, the strchr/strstr
//             haystack), NUL-padded, 1..31 bytes
//   [32, 64)  string B (strcat's source, strcmp's second operand), NUL-padded
//   [64, 76)  the strstr needle, NUL-padded, 1..8 bytes
//   [76]      a byte c (the strchr character, the memset value)
//   [77, 80)  zero
// Strings are lower-case ASCII letters; lengths uniform 1..31 (mean 16). B is
// A itself (1/4), a string sharing a prefix of A of uniform length then a
// different letter (1/2), or independent (1/4). The needle is a substring of
// A (1/2) or random letters; c is a letter of A (1/2) or a letter absent from
// A. Records are drawn in chunks of 16384 (chunk i seeded from (seed, i)), so
// any prefix of a larger file is the smaller file. Measured rates:
// frameworks/mapreduce/mars/strlib/README.md.
#pragma once

#include <cstdint>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint64_t kStropsRecordBytes = 80;
inline constexpr std::uint64_t kStropsStringField = 32;  // A and B: at most 31 bytes + NUL
inline constexpr std::uint64_t kStropsNeedleOffset = 64;
inline constexpr std::uint64_t kStropsNeedleField = 12;  // at most 11 bytes + NUL
inline constexpr std::uint64_t kStropsCharOffset = 76;

const Generator& strops_generator();

}  // namespace harness::datasets
