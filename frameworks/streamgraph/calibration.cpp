#include "frameworks/streamgraph/calibration.h"

#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::streamgraph {

PartitionTimes measure_partition_times(backend::Device& device, const Graph& g,
                                       const std::function<Graph()>& fresh, const Schedule& s,
                                       const Partitioning& p, const GpuRunOptions& options,
                                       std::int64_t executions, std::int64_t batch) {
  if (executions < 1 || batch < 1)
    throw UsageError(
        "stream graph calibration: needs at least one execution and a batch of at least 1");
  GpuRunOptions o = options;
  o.dump_dir.clear();
  GpuGraph one(device, g, s, p, o);
  PipelineOptions po;
  po.iterations = executions;
  po.batch = batch;
  po.queue_blocks = o.queue_blocks;
  const PipelinePlan plan = one.plan();
  {
    const Graph warm = fresh();
    run_pipeline(warm, s, plan, po);
  }
  one.reset_stats();
  const Graph timed = fresh();
  Stopwatch run;
  run_pipeline(timed, s, plan, po);
  PartitionTimes out;
  out.run_ms = run.elapsed_ms();
  out.executions = executions;
  out.ns_per_execution.assign(p.partitions.size(), 0.0);
  const std::vector<int> partition = one.partition_of_piece();
  const std::vector<double> kernel_ms = one.piece_kernel_ms();
  const GpuStats gpu = one.stats().front();
  if (gpu.staging_ms > 0)
    out.staging_bytes_per_ns =
        static_cast<double>(gpu.h2d_bytes + gpu.d2h_bytes) / (gpu.staging_ms * 1e6);
  for (std::size_t k = 0; k < partition.size(); ++k) {
    out.ns_per_execution[static_cast<std::size_t>(partition[k])] +=
        kernel_ms[k] * 1e6 / static_cast<double>(executions);
  }
  return out;
}

}  // namespace harness::streamgraph
