// The thesis' tables about its workloads, measured on our data:
//   tables/access-shares (thesis.tab4_1): the share of each record's bytes the
//     kernel reads and writes, beside table 4.1's;
//   tables/kv-datasets (thesis.tab6_1): the key-value pairs a hash-table run
//     inserts and the distinct keys it keeps, per input byte, beside table
//     6.1's dataset sizes.
#pragma once

namespace harness::workloads {

void register_workload_tables();

}  // namespace harness::workloads
