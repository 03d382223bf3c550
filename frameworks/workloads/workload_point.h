// What every family's point for a thesis workload shares (cpu-mt here;
// BigKernel, S-L1 and the hash table later): the input checked for malformed
// records before anything runs, the reference computed once per (workload,
// parameters, input) and shared by the variants measured on it, the last
// output finished (untimed), compared and dumped.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "frameworks/workloads/workload.h"
#include "harness/core/registry.h"

namespace harness::workloads {

class WorkloadPoint : public PointRunner {
 public:
  explicit WorkloadPoint(const PointContext& ctx);

  // check_input, the reference, then prepare_run().
  void prepare() override;
  // Finishes the last output and compares it with the reference.
  std::string validate_last() override;
  void dump_output(std::ostream& out) const override;

 protected:
  // The family's own set-up (buffers, kernels), untimed, after the checks.
  virtual void prepare_run() {}
  // Bytes of the input, read from host memory once per run; a family adds its
  // own traffic.
  Work input_work() const;

  const Workload& workload_;
  PointContext ctx_;
  std::unique_ptr<Output> last_;  // the last run's output, set by run_once

 private:
  std::shared_ptr<const Output> reference_;
};

}  // namespace harness::workloads
