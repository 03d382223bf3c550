#include "frameworks/common/job_chain.h"

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
  for (const ItemCount& c : job.work.item_counts()) total.work.items(c.kind, c.count, c.phase);
  for (const Traffic& t : job.work.traffic()) {
    if (t.read) total.work.reads(t.level, t.read, t.phase, t.ceiling);
    if (t.written) total.work.writes(t.level, t.written, t.phase, t.ceiling);
  }
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

RunResult JobChain::run(const std::uint8_t* input, std::size_t size) {
  if (jobs_.size() == 1 && jobs_[0] == &app_) return runtimes_[0]->run(app_, input, size);
  // The app's time is its jobs' own times (each from input in host memory to
  // output in host memory, as for a one-job app) plus the host steps between
  // them; turning a job's output into the harness's sorted key/value lists
  // (for validation) is not part of it.
  double total_ms = 0;
  RunResult result;
  std::string between;  // the current job's input when it is not the app's
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const auto* data = i == 0 ? input : reinterpret_cast<const std::uint8_t*>(between.data());
    const std::size_t bytes = i == 0 ? size : between.size();
    RunResult job = runtimes_[i]->run(*jobs_[i], data, bytes);
    accumulate(result, job);
    total_ms += job.measurement.total_ms;
    Stopwatch host;
    if (i + 1 < jobs_.size()) {
      between = app_.next_job_input(params_, i, job.output);
    } else {
      result.output = app_.final_output(params_, std::move(job.output));
      apps::sort_output(app_, result.output);
    }
    const double host_ms = host.elapsed_ms();
    add_phase(result.measurement.phases, "chain", host_ms);
    total_ms += host_ms;
  }
  result.measurement.total_ms = total_ms;
  return result;
}

}  // namespace harness::mapreduce
