#include "frameworks/workloads/registry.h"

#include "frameworks/workloads/all_workloads.h"
#include "harness/core/errors.h"

namespace harness::workloads {

const std::vector<const Workload*>& thesis_workloads() {
  static const std::vector<const Workload*> all = {
      // One line per workload, in the thesis' order (tables 4.1, 5.1, 6.1;
      // kv-pairs: figure 6.8; word-count: table 6.2; page-view-count,
      // inverted-index: the MapReduce apps of tables 5.1 and 6.1;
      // matrix-multiply: table 5.1; key-counts: today's GPU hash tables'
      // benchmark, after them).
      &kmeans_particles_workload(),
      &netflix_workload(),
      &opinion_finder_workload(),
      &dna_assembly_workload(),
      &mastercard_workload(),
      &mastercard_indexed_workload(),
      &upper_workload(),
      &wc_workload(),
      &grep_workload(),
      &patent_citation_workload(),
      &geo_location_workload(),
      &kv_pairs_workload(),
      &word_count_workload(),
      &page_view_count_workload(),
      &inverted_index_workload(),
      &matrix_multiply_workload(),
      &key_counts_workload(),
  };
  return all;
}

const Workload& find_workload(const std::string& name) {
  std::string known;
  for (const Workload* w : thesis_workloads()) {
    if (w->name() == name) return *w;
    known += (known.empty() ? "" : ", ") + w->name();
  }
  throw UsageError("unknown workload '" + name + "' (known: " + known + ")");
}

}  // namespace harness::workloads
