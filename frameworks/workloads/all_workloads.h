// One accessor per workload (each defined in <app>/<app>_workload.cpp).
#pragma once

#include "frameworks/workloads/workload.h"

namespace harness::workloads {

const Workload& kmeans_particles_workload();
const Workload& netflix_workload();
const Workload& opinion_finder_workload();
const Workload& dna_assembly_workload();
const Workload& mastercard_workload();
const Workload& mastercard_indexed_workload();
const Workload& upper_workload();
const Workload& wc_workload();
const Workload& grep_workload();
const Workload& patent_citation_workload();
const Workload& geo_location_workload();
const Workload& kv_pairs_workload();
const Workload& word_count_workload();
const Workload& page_view_count_workload();
const Workload& inverted_index_workload();
const Workload& matrix_multiply_workload();
const Workload& key_counts_workload();

}  // namespace harness::workloads
