// "kv-pairs": synthetic key-value pairs for the SePo hash table's insert rate
// against key and value sizes (thesis figure 6.8). A 16-byte header, then
// fixed-length records of K key bytes followed by V value bytes:
//   header  bytes 0-7    "kv-pairs" (ASCII)
//           bytes 8-11   u32 K (little-endian), the key bytes of a record
//           bytes 12-15  u32 V, the value bytes
//   record i, at byte 16 + i (K + V): its key's K bytes, then its value's V
//   bytes (both whole 32-bit little-endian words: K and V are multiples of 4
//   from 4 to kKvMaxFieldBytes)
//
// Parameters (Generator::params): key_bytes K, value_bytes V and duplicates
// d. The records draw their keys uniformly, with replacement, from
// max(1, records / d) distinct keys, so d is the mean number of records per
// candidate key (a candidate never drawn is not in the file: the records per
// key present are d / (1 - e^-d) on average, 2.31 for d = 2, 5.03 for 5,
// 10.0 for 10). Key j's first word is a seeded bijection of j (distinct keys
// differ there), its other words seeded hashes of (seed, j, word); every
// value word is drawn from the chunk's generator.
//
// output_bytes(size): the header and the whole records that fit in `size`
// (an empty file below 16 bytes). Files of more than 2^32 - 1 records are a
// UsageError. Chunks of about 4 MiB of records, chunk i seeded from
// (seed, i), generated in parallel and written in order: the bytes never
// depend on the thread count.
#pragma once

#include <cstdint>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr char kKvMagic[8] = {'k', 'v', '-', 'p', 'a', 'i', 'r', 's'};
inline constexpr std::uint64_t kKvHeaderBytes = 16;
inline constexpr std::uint32_t kKvMaxFieldBytes = 1024;  // K and V at most

const Generator& kv_pairs_generator();

}  // namespace harness::datasets
