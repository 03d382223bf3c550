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
#include <stdexcept>
#include <string>
#include <vector>

#include "frameworks/hashtable/hashtable.h"
#include "frameworks/workloads/outputs.h"

namespace harness::hashtable {

struct RecordShape {
  std::uint64_t records = 0;
  std::uint32_t max_key_bytes = 0;  // the largest key a record makes
  std::uint32_t value_bytes = 0;
  // Every pair's key bytes summed (bounds the pinned heap of varying keys);
  // 0: pairs() x max_key_bytes.
  std::uint64_t key_bytes_total = 0;
  // The pairs the records make (multi-pair apps: counted untimed by shape());
  // 0: one a record.
  std::uint64_t pair_count = 0;
  std::uint64_t pairs() const { return pair_count ? pair_count : records; }
  // Multi-pair apps may count their distinct keys and those keys' bytes
  // (MapCG's first table, twice these: a table of one entry a pair would not
  // fit beside the input where pairs repeat keys); 0: unknown (one a pair).
  std::uint64_t distinct_keys = 0, distinct_key_bytes = 0;
};

class SepoApp {
 public:
  virtual ~SepoApp() = default;
  virtual std::string name() const = 0;  // the workload's
  // frameworks/hashtable/apps/<file>.clh: HT_KEY_WORDS, HT_VALUE_WORDS,
  // ht_app_pair (or, multi-pair, HT_MULTI_PAIR and ht_app_next_pair) and,
  // for combining, HT_COMBINE.
  virtual std::string kernel_file() const = 0;
  // Whether a record makes several pairs (HT_MULTI_PAIR): the SePo point
  // keeps a resume point per record, and sizes from RecordShape::pairs().
  virtual bool multi_pair() const { return false; }
  // Untimed, after the workload's input check. Throws RunError for a record
  // the kernel cannot take.
  virtual RecordShape shape(const std::uint8_t* data, std::size_t size) const = 0;
  // Whether records vary in length: index() gives their offsets.
  virtual bool indexed() const { return false; }
  // Records that are lines, found on the device instead of by index()
  // (DeviceInput, blocks::LineSplit): every line, or the non-empty ones
  // ("\r" ends none); `none`: index() on the host.
  enum class DeviceLines { none, every_line, non_empty_lines };
  virtual DeviceLines device_lines() const { return DeviceLines::none; }
  // Timed, for records of varying length: each record's byte offset (the
  // kernel's `index`), and may add the input's size last (records + 1
  // offsets: the device index has room); fixed-length records leave it empty.
  virtual void index(const std::uint8_t*, std::size_t, std::vector<std::uint64_t>&) const {}
  // Timed: the answer from the final table (the same key may have an entry
  // in several iterations' arenas, or, under basic, one per record).
  virtual std::unique_ptr<workloads::Output> collect(std::span<const std::uint64_t> cpu_heads,
                                                     Organization org,
                                                     std::uint64_t& entries) const = 0;
  // The bytes of the answer's row that kernels/sepo_pack.clh's ht_pack_rows
  // writes for an entry (its key and value words as they are, or the app
  // file's HT_APP_ROW); 0: no such row. Every entry of such an app has the
  // same size (the largest key and value). A combining table of one
  // iteration, whose keys are then distinct, is taken as these rows instead
  // of walked.
  virtual std::uint32_t row_bytes() const { return 0; }
  // Timed: the answer from `count` such rows at `rows`, which stay in place
  // until the next run (after this run's answer is checked).
  virtual std::unique_ptr<workloads::Output> collect_rows(const std::uint8_t*,
                                                          std::uint64_t) const {
    throw std::logic_error(name() + ": no rows of entry words");
  }
};

const SepoApp& netflix_app();
const SepoApp& dna_assembly_app();
const SepoApp& patent_citation_app();
const SepoApp& geo_location_app();
const SepoApp& kv_pairs_app();
const SepoApp& word_count_app();
const SepoApp& page_view_count_app();
const SepoApp& key_counts_app();

}  // namespace harness::hashtable
