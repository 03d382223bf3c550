// S-L1's run-time sizing and its statistics (thesis 5.2.1): how many lines
// each thread gets from the local memory the app leaves, and the counters a
// point reports from the threads' statistics (kernels/sl1_cache.clh,
// sl1_end).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace harness::sl1 {

// CLN = floor((local memory of a work-group - the app's own) / threads of a
// work-group / line bytes), at most one line per cacheable structure (the
// thesis gives a structure one line); 0 when the app leaves less than a line
// per thread.
std::uint32_t lines_per_thread(std::uint64_t local_memory_bytes, std::uint64_t app_local_bytes,
                               std::uint32_t group_size, std::uint32_t line_bytes,
                               std::uint32_t structures);

// The per-thread statistics (stats[(thread * structures + d) * kStatFields +
// field], as sl1_end writes them) summed into counters named after the
// structures: sl1_monitor_hit_rate_<s> (simulated hits / simulated
// accesses), sl1_cached_<s> (the share of the threads that finished
// monitoring which gave <s> a line), sl1_hit_rate_<s> and sl1_hit_rate
// (accesses served by a held line / accesses through lines; 0 when none went
// through one), sl1_line_accesses, sl1_decided_threads (threads that
// finished monitoring).
constexpr std::uint32_t kStatFields = 6;
std::map<std::string, double> stat_counters(const std::vector<std::uint32_t>& stats,
                                            const std::vector<std::string>& structures);

}  // namespace harness::sl1
