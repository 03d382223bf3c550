// The work a measured point declares, as named quantities (nvbench's
// add_element_count / add_global_memory_reads, BabelStream's per-kernel byte
// weights): bytes read and written per memory level, and items of a named
// kind. The runner turns them into rates and fractions of the matching
// measured ceiling in one place (rates.h), so every family gets the same
// arithmetic and every number carries the limit it is judged against.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace harness {

// Memory levels, each bounded by one measured ceiling (see rates.cpp).
namespace level {
inline const std::string dram = "dram";      // device memory (ceiling dram_read, else d2d_copy)
inline const std::string l2 = "l2";          // ceiling l2_read
inline const std::string shared = "shared";  // on-chip shared/local memory, ceiling shared_read
inline const std::string h2d = "h2d";        // host to device copies, ceiling h2d_pinned
inline const std::string d2h = "d2h";        // device to host copies, ceiling d2h_pinned
inline const std::string host = "host";      // host memory, ceiling host_read (host_ceilings.h)
}  // namespace level

// The time a quantity is divided by: the whole repetition, or one phase.
inline const std::string kTotal = "total";

struct Traffic {
  std::string level;
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  std::string phase = kTotal;
  std::string ceiling;  // overrides the level's default ceiling ("" = default)
};

struct ItemCount {
  std::string kind;
  std::uint64_t count = 0;
  std::string phase = kTotal;
};

class Work {
 public:
  // Bytes of the point's input; the runner's throughput_gbps divides it by
  // the total time.
  std::uint64_t input_bytes = 0;

  // Adds `n` items of `kind` (records, probes, inserts, atomics, executions ...)
  // done in `phase` (a phase name or kTotal).
  Work& items(const std::string& kind, std::uint64_t n, const std::string& phase = kTotal);
  // Adds bytes at `level`, timed over `phase` (a phase name or kTotal).
  // Entries with the same (level, phase, ceiling) accumulate.
  Work& reads(const std::string& level, std::uint64_t bytes, const std::string& phase = kTotal,
              const std::string& ceiling = "");
  Work& writes(const std::string& level, std::uint64_t bytes, const std::string& phase = kTotal,
               const std::string& ceiling = "");

  // Adds every item count and byte entry of `other` (work done in parts: the
  // jobs of a chain, the two sides of co-processing); input_bytes stays.
  Work& add(const Work& other);

  std::uint64_t item(const std::string& kind) const;  // 0 when not declared
  const std::vector<ItemCount>& item_counts() const { return items_; }
  const std::vector<Traffic>& traffic() const { return traffic_; }

  // {"input_bytes", "items": {kind: n}, "item_phases": {kind: phase} for non-total phases, "bytes":
  // [{level, read, written, phase[, ceiling]}]}
  nlohmann::json to_json() const;

 private:
  Traffic& entry(const std::string& level, const std::string& phase, const std::string& ceiling);
  std::vector<ItemCount> items_;
  std::vector<Traffic> traffic_;
};

}  // namespace harness
