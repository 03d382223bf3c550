// "keys-u64": 64-bit keys for GPU hash tables' standard benchmark (as
// cuCollections' static_map: insert distinct keys; insert_or_apply over
// Zipf-skewed keys), which key-counts counts. A 16-byte header, then the
// keys:
//   header  bytes 0-7    "keys-u64" (ASCII)
//           bytes 8-15   u64 N (little-endian), the number of keys
//   key i, at byte 16 + 8 i: a little-endian u64 (any value, 2^64 - 1 too)
// so the keys start 16-byte aligned in the file.
//
// Parameters (Generator::params):
//   distribution  `distinct` (default): key i is key_of(i), a seeded
//                 bijection of i over 64 bits, so every key differs;
//                 `uniform`: each key drawn uniformly, with replacement, from
//                 `keys` candidates; `zipf`: drawn from `keys` candidates by
//                 Zipf rank (ZipfTable, exponent 1: weight 1 / (rank + 1 +
//                 zipf_q)), rank r giving candidate r.
//   keys          the candidates of uniform and zipf (default 100,000;
//                 ignored by distinct); candidate j's key is key_of(j), the
//                 same bijection, so keys look random in every distribution
//                 and a table gains nothing from their order.
//   zipf_q        zipf's offset q (default 0: plain Zipf, the top key drawn
//                 1 / H(keys) of the time, 8.3% for 100,000 keys).
// key_of(j) = fmix64(j ^ salt), fmix64 MurmurHash3's 64-bit finalizer (an
// invertible mixer) and salt derived from the seed (keys_u64_key).
//
// output_bytes(size): the header and the whole keys that fit in `size` (an
// empty file below 16 bytes). Files of more than 2^32 - 1 keys are a
// UsageError. Chunks of kKeysU64ChunkKeys keys (4 MiB), chunk i's draws
// seeded from (seed, i), generated in parallel and written in order: the
// bytes never depend on the thread count.
#pragma once

#include <cstdint>
#include <ostream>

#include "datasets/dataset.h"
#include "harness/core/mix64.h"

namespace harness::datasets {

inline constexpr char kKeysU64Magic[8] = {'k', 'e', 'y', 's', '-', 'u', '6', '4'};
inline constexpr std::uint64_t kKeysU64HeaderBytes = 16;
inline constexpr std::uint64_t kKeysU64MaxKeys = 0xFFFF'FFFFull;  // keys of a file
inline constexpr std::uint64_t kKeysU64ChunkKeys = std::uint64_t{1} << 19;
// zipf's candidates at most (its table holds 12 bytes a candidate while built).
inline constexpr std::uint32_t kKeysU64MaxZipfKeys = std::uint32_t{1} << 27;

enum class KeyDistribution { distinct, uniform, zipf };

struct KeysU64Shape {
  KeyDistribution distribution = KeyDistribution::distinct;
  std::uint32_t keys = 100000;  // candidates of uniform and zipf
  double zipf_q = 0;
};

// MurmurHash3's 64-bit finalizer: a bijection of the 64-bit words.
inline std::uint64_t fmix64(std::uint64_t x) { return harness::mix64(x); }

// The key of distinct's key i and of candidate i of uniform and zipf, for
// `seed`.
std::uint64_t keys_u64_key(std::uint64_t seed, std::uint64_t i);

// The generator's work for `shape`, with the thread count (0: every usable
// core) and the chunk's keys as parameters: the bytes depend on chunk_keys
// (the generator always uses kKeysU64ChunkKeys) but never on threads.
void generate_keys_u64(const KeysU64Shape& shape, std::uint64_t size_bytes, std::uint64_t seed,
                       std::ostream& out, unsigned threads,
                       std::uint64_t chunk_keys = kKeysU64ChunkKeys);

const Generator& keys_u64_generator();

}  // namespace harness::datasets
