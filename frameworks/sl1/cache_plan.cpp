#include "frameworks/sl1/cache_plan.h"

#include <algorithm>

namespace harness::sl1 {
namespace {

// Field indices of kernels/sl1_cache.clh's SL1_STAT_*.
enum Field : std::uint32_t {
  monitor_accesses = 0,
  monitor_hits = 1,
  cached = 2,
  accesses = 3,
  misses = 4,
  decided = 5
};

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

std::uint32_t lines_per_thread(std::uint64_t local_memory_bytes, std::uint64_t app_local_bytes,
                               std::uint32_t group_size, std::uint32_t line_bytes,
                               std::uint32_t structures) {
  if (group_size == 0 || line_bytes == 0 || app_local_bytes >= local_memory_bytes) return 0;
  const std::uint64_t per_thread = (local_memory_bytes - app_local_bytes) / group_size;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(per_thread / line_bytes, structures));
}

std::map<std::string, double> stat_counters(const std::vector<std::uint32_t>& stats,
                                            const std::vector<std::string>& structures) {
  const std::size_t n = structures.size();
  std::vector<double> sum(n * kStatFields, 0.0);
  double decided_threads = 0;
  const std::size_t threads = n ? stats.size() / (n * kStatFields) : 0;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::uint32_t* row = stats.data() + t * n * kStatFields;
    decided_threads += row[decided];
    for (std::size_t d = 0; d < n; ++d) {
      for (std::uint32_t f = 0; f < kStatFields; ++f)
        sum[d * kStatFields + f] += row[d * kStatFields + f];
    }
  }
  std::map<std::string, double> out;
  double all_accesses = 0, all_misses = 0;
  for (std::size_t d = 0; d < n; ++d) {
    const double* s = sum.data() + d * kStatFields;
    const std::string& name = structures[d];
    out["sl1_monitor_hit_rate_" + name] = ratio(s[monitor_hits], s[monitor_accesses]);
    out["sl1_cached_" + name] = ratio(s[cached], decided_threads);
    out["sl1_hit_rate_" + name] = ratio(s[accesses] - s[misses], s[accesses]);
    all_accesses += s[accesses];
    all_misses += s[misses];
  }
  out["sl1_hit_rate"] = ratio(all_accesses - all_misses, all_accesses);
  out["sl1_line_accesses"] = all_accesses;
  out["sl1_decided_threads"] = decided_threads;
  return out;
}

}  // namespace harness::sl1
