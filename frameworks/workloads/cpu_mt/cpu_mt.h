// The CPU baselines of the thesis' figures 4.10, 5.14 and 6.9: each workload's
// own multi-threaded implementation (Workload::run_cpu), on every host core
// (cpu-mt/default) or one (cpu-mt/serial, the "serial CPU" the speedups of
// figure 4.10 are over).
#pragma once

namespace harness::workloads {

void register_cpu_mt();

}  // namespace harness::workloads
