#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"

#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <string>

#include "frameworks/workloads/outputs.h"

namespace harness::workloads::kmeans_particles {

std::string ClusterIdsOutput::compare_with(const Output& expected, const ValidationPolicy&) const {
  const auto& e = expect_same_type<ClusterIdsOutput>(expected, "cluster ids");
  if (particles_ != e.particles_)
    return fmt::format("{} particles (expected {})", particles_, e.particles_);
  std::string why;
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < particles_; ++i) {
    const bool tie_allowed = !e.near_ties_.empty() && e.near_ties_[i] && ids_[i] < e.k_;
    if (ids_[i] == e.ids_[i] || tie_allowed) continue;
    if (++wrong <= 3)
      why += fmt::format("{}particle {}: cluster {} (expected {})", why.empty() ? "" : "; ", i,
                         ids_[i], e.ids_[i]);
  }
  if (wrong > 3) why += fmt::format(" (and {} more)", wrong - 3);
  if (wrong > 0) why = fmt::format("{} of {} particles differ: {}", wrong, particles_, why);
  return why;
}

void ClusterIdsOutput::dump(std::ostream& out) const {
  std::string text;
  for (std::size_t i = 0; i < particles_; ++i) {
    fmt::format_to(std::back_inserter(text), "{}\t{}\n", i, ids_[i]);
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace harness::workloads::kmeans_particles
