// What an app gives the SePo hash table: its kernel file (the pair a record
// makes, kernels/sepo_table.clh's ht_app_pair), how its records are found,
// the largest pair they make, and its answer from the final table walked on
// the CPU. One file per app in apps/ (the grouping apps share one, and the
// walk of grouped_app.h with kv-pairs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "frameworks/hashtable/hashtable.h"
#include "frameworks/workloads/outputs.h"

namespace harness::hashtable {

struct RecordShape {
  std::uint64_t records = 0;
  std::uint32_t max_key_bytes = 0;  // the largest key a record makes
  std::uint32_t value_bytes = 0;
  // Every record's key bytes summed (bounds the pinned heap of varying keys);
  // 0: records x max_key_bytes.
  std::uint64_t key_bytes_total = 0;
};

class SepoApp {
 public:
  virtual ~SepoApp() = default;
  virtual std::string name() const = 0;  // the workload's
  // frameworks/hashtable/apps/<file>.clh: HT_KEY_WORDS, HT_VALUE_WORDS,
  // ht_app_pair and, for combining, HT_COMBINE.
  virtual std::string kernel_file() const = 0;
  // Untimed, after the workload's input check. Throws RunError for a record
  // the kernel cannot take.
  virtual RecordShape shape(const std::uint8_t* data, std::size_t size) const = 0;
  // Whether records vary in length: index() gives their offsets.
  virtual bool indexed() const { return false; }
  // Timed, for records of varying length: each record's byte offset (the
  // kernel's `index`); fixed-length records leave it empty.
  virtual void index(const std::uint8_t*, std::size_t, std::vector<std::uint64_t>&) const {}
  // Timed: the answer from the final table (the same key may have an entry
  // in several iterations' arenas, or, under basic, one per record).
  virtual std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> cpu_heads,
                                                     Organization org,
                                                     std::uint64_t& entries) const = 0;
};

const SepoApp& netflix_app();
const SepoApp& dna_assembly_app();
const SepoApp& patent_citation_app();
const SepoApp& geo_location_app();
const SepoApp& kv_pairs_app();

}  // namespace harness::hashtable
