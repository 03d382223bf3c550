// kmeans-particles' answer: the cluster id of every particle, in input order.
// The reference also marks its near ties (particles whose two nearest
// centroids are within kNearTieRelative of each other); compare_with accepts
// another id only at a particle the expected output marks. Dump: one line per
// particle, `index<TAB>cluster`.
#pragma once

#include <cstdint>
#include <vector>

#include "frameworks/workloads/workload.h"
#include "harness/core/huge_page_array.h"

namespace harness::workloads::kmeans_particles {

class ClusterIdsOutput final : public Output {
 public:
  // The ids are left uninitialized, so the threads that fill them touch them first.
  ClusterIdsOutput(std::size_t particles, std::uint32_t k)
      : ids_(particles), particles_(particles), k_(k) {}

  std::uint32_t* ids() { return ids_.data(); }
  const std::uint32_t* ids() const { return ids_.data(); }
  std::size_t particles() const { return particles_; }
  std::uint32_t k() const { return k_; }
  // One flag per particle (1: a near tie) or empty: none recorded.
  std::vector<std::uint8_t>& near_ties() { return near_ties_; }
  const std::vector<std::uint8_t>& near_ties() const { return near_ties_; }

  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return particles_; }

 private:
  HugePageArray<std::uint32_t> ids_;
  std::size_t particles_;
  std::uint32_t k_;
  std::vector<std::uint8_t> near_ties_;
};

}  // namespace harness::workloads::kmeans_particles
