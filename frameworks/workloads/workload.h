// A thesis workload (BigKernel, S-L1, the SePo hash table): the data, its
// record layout, the answer and the checks, defined once and shared by every
// family that runs it. Each family writes its own kernels for a workload; what
// they must compute is this class's reference, written serially from the
// thesis' description and independently of every fast implementation.
//
// A workload's answer is an Output of the workload's own type (outputs.h has
// the common shapes: named counts, a keyed table, raw bytes); a family builds
// the same type from its device results and compares it with the reference's
// through Output::compare_with, and prints it through Output::dump (the
// documented `--dump-output` format each scripts/<app>_check.py reads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "harness/core/params.h"
#include "harness/core/validation.h"

namespace harness::workloads {

class Output {
 public:
  virtual ~Output() = default;
  // "" when this output (a run's) matches `expected` (the reference's, of the
  // same type) under `policy`, else one line naming the first differences.
  virtual std::string compare_with(const Output& expected,
                                   const ValidationPolicy& policy) const = 0;
  // The documented `--dump-output` text.
  virtual void dump(std::ostream& out) const = 0;
  // Entries of the output (rows, ids, bytes): for messages and work.
  virtual std::uint64_t items() const = 0;
  // Untimed, after the run that made the output and before it is compared or
  // dumped: brings it into canonical form (sorts rows, converts a run's own
  // structures), so a family's clock stops when its results are in host
  // memory in its own layout, as the MapReduce runtimes' clocks do.
  virtual void finish() {}
};

// Bytes of the mapped input a workload's kernel reads and writes (table 4.1),
// measured on an input by walking the reference's access pattern (access.h).
struct AccessShare {
  std::uint64_t records = 0;
  std::uint64_t input_bytes = 0;  // bytes of the mapped input (all records)
  std::uint64_t read_bytes = 0;   // distinct bytes of it the kernel reads
  std::uint64_t written_bytes = 0;
  double read_share() const {
    return input_bytes ? static_cast<double>(read_bytes) / static_cast<double>(input_bytes) : 0;
  }
  double written_share() const {
    return input_bytes ? static_cast<double>(written_bytes) / static_cast<double>(input_bytes) : 0;
  }
};

// A row of the thesis' table 4.1 (BigKernel's apps) or table 6.1 (the hash
// table's datasets #1-#4), for the tables' experiments.
struct PaperFacts {
  std::optional<double> read_share, written_share;  // table 4.1 (fractions)
  std::optional<double> table4_1_bytes;             // table 4.1 data size
  double table6_1_bytes[4] = {0, 0, 0, 0};          // table 6.1 datasets #1-#4; 0: not in it
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;  // the app name users give (--app)
  virtual std::string description() const = 0;
  virtual std::string default_dataset() const = 0;  // a datasets generator
  // "fixed", "variable" or "variable, indexed" (table 4.1's record types).
  virtual std::string record_type() const = 0;
  // The thesis chapters that run it ("ch4 ch5 ch6").
  virtual std::string chapters() const = 0;
  virtual ParamDecls params() const { return {}; }
  // "exact" unless the answer holds floats.
  virtual ValidationPolicy validation() const { return {}; }
  virtual PaperFacts paper() const { return {}; }
  // Whether the kernel writes its mapped input (K-means' cluster ids, Upper).
  virtual bool modifies_input() const { return false; }

  // Throws RunError naming the first malformed record (its index, byte offset
  // or line, and what is wrong); called untimed before a family's first run.
  virtual void check_input(const std::uint8_t* data, std::size_t size) const = 0;
  // The answer: a plain serial implementation of the thesis' description.
  virtual std::unique_ptr<Output> reference(const Params& params, const std::uint8_t* data,
                                            std::size_t size) const = 0;
  // The CPU-MT baseline (figures 4.10, 5.14, 6.9): `threads` >= 1 host
  // threads; written for speed, separately from the reference.
  virtual std::unique_ptr<Output> run_cpu(const Params& params, const std::uint8_t* data,
                                          std::size_t size, unsigned threads) const = 0;
  // Workloads that modify their input in place (modifies_input) may run on a
  // private copy of it instead: the cpu-mt point refreshes the copy untimed
  // before every run (as a GPU family's device copy is there already), so the
  // clock holds no allocation and no first touch of an output buffer. The
  // returned output may view `data` (valid until the next run). Default:
  // null, run_cpu is used.
  virtual std::unique_ptr<Output> run_cpu_in_place(const Params& /*params*/, std::uint8_t* /*data*/,
                                                   std::size_t /*size*/,
                                                   unsigned /*threads*/) const {
    return nullptr;
  }
  // The share of the mapped input the kernel reads and writes, measured on
  // `data` by walking the access pattern of the kernel the thesis describes
  // (access.h) over every record.
  virtual AccessShare access_share(const Params& params, const std::uint8_t* data,
                                   std::size_t size) const = 0;
};

}  // namespace harness::workloads
