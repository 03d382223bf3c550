// thrust/default's one group-by (thrust_group.cu), shared by every app whose
// keys are bytes of the input (word count, inverted index, the page view
// jobs): keys given as (start, length) byte ranges -> FNV-1a 64 hashes ->
// thrust::sort_by_key -> optionally a collision check (with an exact (hash,
// bytes) fallback) -> thrust::reduce_by_key -> the distinct keys' bytes and
// counts.
// An interface of raw device pointers and an Exec (thrust_temp.h), so that the .cu file needs
// no harness headers (they are C++20; nvcc compiles this project's CUDA as C++17).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frameworks/mapreduce/thrust/thrust_temp.h"

namespace harness::thrustmr::cuda {

// `count` keys on the device: key i is input[starts[i], starts[i] + lengths[i])
// (lengths may be 0), its bytes compared and hashed after ASCII A-Z -> a-z when
// fold_case is set. The ranges of different keys do not overlap, so the
// distinct keys' bytes fit in the input's.
struct Keys {
  const std::uint8_t* input = nullptr;
  const std::uint32_t* starts = nullptr;
  const std::uint32_t* lengths = nullptr;
  std::uint32_t count = 0;
  bool fold_case = false;
};

// Device scratch of one group-by of `count` keys: hashes, order and the
// per-group arrays hold `count` entries (at least 1), offsets count + 1,
// key_bytes key_capacity bytes (the input's size will do).
struct GroupScratch {
  std::uint64_t* hashes = nullptr;        // per key: its hash (sorted by group_keys)
  std::uint32_t* order = nullptr;         // key indices, in hash order after group_keys
  std::uint64_t* group_hashes = nullptr;  // per distinct key: its hash
  std::uint32_t* group_first = nullptr;   // per distinct key: the index of one of its keys
  std::uint32_t* counts = nullptr;        // per distinct key: its keys
  std::uint32_t* offsets = nullptr;       // per distinct key + 1: bytes, then output offsets
  std::uint8_t* key_bytes = nullptr;      // the distinct keys' bytes (key_capacity)
  std::size_t key_capacity = 0;
  unsigned long long* flag = nullptr;  // one counter (collisions)
};

// The keys' hashes: FNV-1a 64 of the (folded) bytes, its low `hash_bits` bits.
void hash_keys(const Keys& keys, unsigned hash_bits, std::uint64_t* hashes, const Exec& exec);

struct Groups {
  std::uint32_t distinct = 0;    // distinct keys
  std::uint64_t collisions = 0;  // adjacent pairs of different keys with equal hashes (if checked)
};

// Group: thrust::sort_by_key on the hashes (s.hashes, filled by hash_keys)
// with the key indices (s.order), then thrust::reduce_by_key counting each
// run of equal hashes. With `verify`, first a check that every equal-hash run
// holds one key (it compares the bytes of every adjacent pair: 17.5 of the
// group's 36 ms for 1 GiB of text on an H100); when it finds different keys
// under one hash, (hash, index) is sorted again by (hash, bytes) and runs are
// split where the bytes differ. Without it a 64-bit hash is trusted, as a
// plain thrust program would. Afterwards distinct key g covers
// s.order[sum of counts before g, + counts[g]).
Groups group_keys(const Keys& keys, const GroupScratch& s, bool verify, const Exec& exec);

// The distinct keys on the host: key g is bytes[offsets[g], offsets[g + 1])
// (folded), with counts[g] keys. `bytes` may be longer than offsets.back():
// a caller keeps one HostGroups from run to run and its bytes are never
// shrunk (nor filled again where they already reach).
struct HostGroups {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> offsets;
  std::vector<std::uint32_t> counts;
};

// Copy out: the distinct keys' lengths, an exclusive scan for their offsets,
// one thread per distinct key gathering its bytes, then copies to `out`.
// Returns the bytes copied to the host.
std::uint64_t copy_out_groups(const Keys& keys, std::uint32_t distinct, const GroupScratch& s,
                              const Exec& exec, HostGroups& out);

// For apps without reduce (every key's value is output): values[s.order[i]]
// for i < keys.count, gathered into `sorted` (device, keys.count entries) and
// copied to `out`, so that distinct key g's values are its counts[g] entries
// after those of the keys before it. Returns the bytes copied to the host.
std::uint64_t copy_out_values(const Keys& keys, const std::uint32_t* values, const GroupScratch& s,
                              std::uint32_t* sorted, const Exec& exec,
                              std::vector<std::uint32_t>& out);

}  // namespace harness::thrustmr::cuda
