// The atomics family: the characterization of atomic operations of Elteir,
// Lin and Feng ("Performance Characterization and Optimization of Atomic
// Operations on AMD GPUs", seed S3) as PointRunners: the path effect (figures
// 1, 3, 4), the paper's software atomic add against the system one (figures
// 8, 9), its applications (figures 10-13) and its speedup model (section V).
// micro/atomics/README.md maps each figure to variants, experiments and
// verdicts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/registry.h"

namespace harness::atomics {

// Registers the apps and the atomics/* variants. Idempotent.
void register_family();

// What every atomics point offers to tests and bench_atomics.
class AtomicsPoint : public PointRunner {
 public:
  // Device time of the last run's timed kernels (phase "kernel", or the sum
  // of the model's "system" and "software"), ms.
  virtual double last_kernel_ms() const = 0;
  // Work-items that ran the point's work (the coordinator group excluded).
  virtual std::uint64_t threads() const = 0;
  // For tests: spoils one value the host expects, so validation must fail.
  virtual void corrupt_expected() = 0;
};

// ---- the speedup model (section V)

struct ModelParams {
  double t_fast_ns = 0;   // one memory transaction through the normal path (dependent load)
  double t_comp_ns = 0;   // one system atomic on a contended global word
  double t_local_ns = 0;  // one atomic on a contended local word
};

// Equation 4 (eq. 1 with N = nc * ncwg, t_comp = x * t_fast): the time of the
// system atomic executed by nc work-items in each of ncwg work-groups, ns.
double model_system_ns(const ModelParams& p, double nc, double ncwg);
// Equation 3: the software atomic, with nwg work-groups (nwg / 2 comparisons
// on average before the dominant wavefront is found), ns.
double model_software_ns(const ModelParams& p, double nc, double ncwg, double nwg);
// Equation 4 over equation 3.
double model_speedup(const ModelParams& p, double nc, double ncwg, double nwg);

// ---- validation helpers

// The old values an atomic add returned to each caller on one variable:
// olds[i] is what caller i got, incs[i] what it added. Valid when, ordered by
// old value, they chain from `initial` (each old value is the previous plus
// its increment) and the last plus its increment is `final_value` (mod 2^32;
// increments nonzero and their sum below 2^32). "" when valid, else why not.
std::string check_old_values(const std::vector<std::uint32_t>& olds,
                             const std::vector<std::uint32_t>& incs, std::uint32_t initial,
                             std::uint32_t final_value);

// The word whose count of whole-word occurrences in `text` (words: maximal
// runs of ASCII letters, compared as written) is closest, in ratio, to
// `target`, among words of at least `min_length` letters; ties go to the
// lexicographically smaller word. Empty when the text has no such word.
std::string word_near_count(const std::string& text, double target, std::size_t min_length = 4);
// Start positions of every (possibly overlapping) occurrence of `key` in `text`.
std::vector<std::uint32_t> find_all(const std::string& text, const std::string& key);

}  // namespace harness::atomics
