// Runs one app on a runtime: a single job, or the chained jobs of a multi-job
// app (MapReduceApp::jobs(), e.g. page view count), with one runtime per job.
// Between jobs the previous output comes back to the host and becomes the next
// job's input (MapReduceApp::next_job_input), as in Mars' chained PVC.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/mapreduce/common/mapreduce_runtime.h"

namespace harness::mapreduce {

class JobChain {
 public:
  // make(job_name) builds the runtime of one job (for a one-job app, the app).
  JobChain(const apps::MapReduceApp& app,
           const std::function<std::unique_ptr<Runtime>(const std::string& job)>& make);

  void set_app_params(const apps::Params& params);
  void prepare();  // untimed: each job's runtime prepares its job
  // The jobs in order with the host steps between them. total_ms is the jobs'
  // own total_ms plus the host steps; phases of the same name add up across
  // jobs (map, sort, reduce ... of the whole app); the host steps between jobs
  // are the phase "chain". Counters add up; work accumulates.
  RunResult run(const std::uint8_t* input, std::size_t size);

  // A job's input of this many bytes or more runs in pieces below it, cut at
  // line ends, one after another, and the pieces' outputs are merged
  // (apps::MapReduceApp::merge_outputs, phase "merge"); a job whose app does
  // not split at lines fails with a RunError naming the limit. Default: the
  // runtimes' 32-bit offsets (apps::kMaxInputBytes); tests set less.
  void set_max_run_bytes(std::size_t bytes) { max_run_bytes_ = bytes; }
  // Whether an input of `size` bytes can run: below the limit, or every job
  // splits at lines (a later job's input is not known before the run).
  bool can_run(std::size_t size) const;

  const apps::MapReduceApp& app() const { return app_; }

 private:
  const apps::MapReduceApp& app_;
  std::vector<const apps::MapReduceApp*> jobs_;
  std::vector<std::unique_ptr<Runtime>> runtimes_;
  apps::Params params_;  // the app's
  std::size_t max_run_bytes_ = apps::kMaxInputBytes;
  // The input of the job after the first, kept from run to run (its memory
  // reused: MapReduceApp::next_job_input).
  std::string between_;

  RunResult run_job(std::size_t i, const std::uint8_t* data, std::size_t bytes);
};

}  // namespace harness::mapreduce
