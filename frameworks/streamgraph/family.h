// The stream-graph family in the harness registry: one app per benchmark
// (sg-bitonic ... sg-matrixmult3; parameters n and iterations) and the
// variants streamgraph/cpu-seq, cpu-threads, gpu-multi and gpu-single. Each
// run builds the benchmark afresh (its source and sink keep state), runs
// `iterations` steady-state executions, and is validated by the benchmark's
// checking sink. See README.md.
#pragma once

namespace harness::streamgraph {

void register_family();

}  // namespace harness::streamgraph
