#include "frameworks/mapreduce/common/job_chain.h"

#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::mapreduce {
namespace {

void add_phase(std::vector<PhaseTime>& phases, const std::string& name, double ms) {
  for (PhaseTime& p : phases) {
    if (p.name == name) {
      p.ms += ms;
      return;
    }
  }
  phases.push_back({name, ms});
}

void accumulate(RunResult& total, const RunResult& job) {
  for (const PhaseTime& p : job.measurement.phases)
    add_phase(total.measurement.phases, p.name, p.ms);
  for (const auto& [name, value] : job.measurement.counters) {
    total.measurement.counters[name] += value;
  }
  total.work.add(job.work);
}

}  // namespace

JobChain::JobChain(const apps::MapReduceApp& app,
                   const std::function<std::unique_ptr<Runtime>(const std::string& job)>& make)
    : app_(app), jobs_(app.jobs()) {
  if (jobs_.empty()) jobs_.push_back(&app);
  for (const apps::MapReduceApp* job : jobs_) {
    runtimes_.push_back(make(job->name()));
    if (!runtimes_.back()) throw UsageError("no runtime for job '" + job->name() + "'");
  }
}

void JobChain::set_app_params(const apps::Params& params) {
  params_ = app_.resolve_params(params);
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    runtimes_[i]->set_app_params(jobs_[i]->resolve_params(params));
  }
}

void JobChain::prepare() {
  for (std::size_t i = 0; i < jobs_.size(); ++i) runtimes_[i]->prepare(*jobs_[i]);
}

bool JobChain::can_run(std::size_t size) const {
  if (size < max_run_bytes_) return true;
  for (const apps::MapReduceApp* job : jobs_) {
    if (!job->splits_at_lines()) return false;
  }
  return true;
}

RunResult JobChain::run_job(std::size_t i, const std::uint8_t* data, std::size_t bytes) {
  const apps::MapReduceApp& job = *jobs_[i];
  // Only the last job's output and pieces' outputs (merge_outputs) need
  // canonical order; an earlier job's only feeds next_job_input.
  runtimes_[i]->set_canonical_output(i + 1 == jobs_.size() || bytes >= max_run_bytes_);
  if (bytes < max_run_bytes_) return runtimes_[i]->run(job, data, bytes);
  if (!job.splits_at_lines()) {
    throw RunError(job.name() + ": an input of " + std::to_string(bytes) +
                   " bytes reaches the runtimes' limit of " + std::to_string(max_run_bytes_) +
                   " (32-bit offsets), and its output holds input positions or its records are "
                   "not lines, so it cannot run in pieces");
  }
  RunResult result;
  double total_ms = 0;
  std::vector<apps::KeyValueList> outputs;
  for (std::size_t begin = 0; begin < bytes;) {
    // The piece ends after the last line end that keeps it below the limit.
    std::size_t end = bytes;
    if (bytes - begin >= max_run_bytes_) {
      const auto* first = data + begin;
      const auto* last = first + (max_run_bytes_ - 1);
      while (last > first && last[-1] != '\n') --last;
      if (last == first) {
        throw RunError(job.name() + ": a line of " + std::to_string(max_run_bytes_) +
                       " bytes or more at byte " + std::to_string(begin) +
                       " cannot fit a piece below the runtimes' limit");
      }
      end = begin + static_cast<std::size_t>(last - first);
    }
    RunResult piece = runtimes_[i]->run(job, data + begin, end - begin);
    accumulate(result, piece);
    total_ms += piece.measurement.total_ms;
    outputs.push_back(std::move(piece.output));
    begin = end;
  }
  const auto pieces = static_cast<double>(outputs.size());
  Stopwatch merge;
  result.output = job.merge_outputs(std::move(outputs));
  const double merge_ms = merge.elapsed_ms();
  add_phase(result.measurement.phases, "merge", merge_ms);
  result.measurement.total_ms = total_ms + merge_ms;
  result.measurement.counters["pieces"] = pieces;
  return result;
}

RunResult JobChain::run(const std::uint8_t* input, std::size_t size) {
  if (jobs_.size() == 1 && jobs_[0] == &app_) return run_job(0, input, size);
  // The app's time is its jobs' own times (each from input in host memory to
  // output in host memory, as for a one-job app) plus the host steps between
  // them; turning a job's output into the harness's sorted key/value lists
  // (for validation) is not part of it.
  double total_ms = 0;
  RunResult result;
  // Earlier jobs' outputs are freed after the chain, untimed, as a one-job
  // app's output is: they are millions of small strings, and glibc defers
  // the work of freeing them into the next large allocation, which would be
  // the next job's timed record split (hashagg/pipelined's page view count at
  // 64 MiB on PoCL here: preprocess 133 ms before, 23 ms after).
  std::vector<apps::KeyValueList> spent;
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const auto* data = i == 0 ? input : reinterpret_cast<const std::uint8_t*>(between_.data());
    const std::size_t bytes = i == 0 ? size : between_.size();
    RunResult job = run_job(i, data, bytes);
    accumulate(result, job);
    total_ms += job.measurement.total_ms;
    Stopwatch host;
    if (i + 1 < jobs_.size()) {
      app_.next_job_input(params_, i, job.output, between_);
      spent.push_back(std::move(job.output));
    } else {
      result.output = app_.final_output(params_, std::move(job.output));
    }
    const double host_ms = host.elapsed_ms();
    add_phase(result.measurement.phases, "chain", host_ms);
    total_ms += host_ms;
    // Canonical order for validation, untimed as in every runtime's run.
    if (i + 1 == jobs_.size()) apps::sort_output(app_, result.output);
  }
  result.measurement.total_ms = total_ms;
  return result;
}

}  // namespace harness::mapreduce
