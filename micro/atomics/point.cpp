// What every atomics point shares: its program, shape, the software atomic's
// device state and co-residency check, the timed run and exact validation;
// the model's equations and the validation helpers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>

#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"
#include "harness/core/validation.h"
#include "micro/atomics/internal.h"

#if defined(HARNESS_HAVE_CUDA)
const harness::backend::CudaKernelTable& harness_cuda_table_micro_atomics();
#endif

namespace harness::atomics {

backend::ProgramSource portable_program() {
  backend::ProgramSource src;
  src.name = "micro/atomics";
  src.opencl_files = {"micro/atomics/kernels/path.cl", "micro/atomics/kernels/atomics.cl"};
#if defined(HARNESS_HAVE_CUDA)
  src.cuda = &harness_cuda_table_micro_atomics();
#endif
  return src;
}

std::uint32_t resolve_wave(const backend::DeviceInfo& info, std::uint32_t wave) {
  if (wave) return wave;
  return info.warp_size > 0 ? static_cast<std::uint32_t>(info.warp_size) : 32u;
}

Shape point_shape(const PointContext& ctx) {
  const backend::DeviceInfo& info = ctx.device->info();
  Shape s;
  s.group_size = param_u32(ctx.params, "group_size");
  s.groups = micro::resolve_groups(info, param_u32(ctx.params, "groups"));
  s.wave = resolve_wave(info, param_u32(ctx.params, "wave"));
  if (std::string why = micro::group_size_problem(info, s.group_size); !why.empty()) {
    s.skip = why;
  } else if (s.group_size % s.wave != 0) {
    s.skip = fmt::format("a work-group of {} is not a whole number of wavefronts of {}",
                         s.group_size, s.wave);
  } else if (s.group_size / s.wave > 64) {
    s.skip = fmt::format("{} wavefronts of {} per work-group: at most 64 (SWA_MAX_WAVES)",
                         s.group_size / s.wave, s.wave);
  } else if (s.threads() + s.group_size >= (std::uint64_t{1} << 31)) {
    s.skip = fmt::format("{} work-items are too many", s.threads());
  }
  return s;
}

// ---------------------------------------------------------------- software atomic

SoftwareAtomic::SoftwareAtomic(backend::Device& device, const Shape& shape)
    : group_size_(shape.group_size),
      groups_(shape.groups),
      wave_(shape.wave),
      // Polls before a requester gives up (the coordinator: 1/1024 of it in
      // idle rounds): about a minute on a GPU, never hit by a run that makes
      // progress.
      spin_limit_(1u << 26) {
  const std::uint64_t waves = std::uint64_t{groups_} * (group_size_ / wave_);
  scratch_bytes_ = static_cast<std::size_t>(waves * 8);
  slots_ = device.allocate(waves * 8);
  finished_ = device.allocate((std::uint64_t{groups_} + 1) * 4);
  status_ = device.allocate(8);
}

void SoftwareAtomic::reset(backend::Queue& q) {
  q.fill_zero(slots_, 0, scratch_bytes_);
  q.fill_zero(finished_, 0, (std::size_t{groups_} + 1) * 4);
  q.fill_zero(status_, 0, 8);
}

void SoftwareAtomic::read_status(backend::Queue& q) { q.read(words_, status_, 0, 8); }

std::string SoftwareAtomic::problem() const {
  if (words_[0] == 0 && words_[1] == 0) return "";
  const char* who = words_[0] && words_[1] ? "requesting wavefronts and its coordinator"
                    : words_[0]            ? "requesting wavefronts"
                                           : "coordinator";
  return fmt::format(
      "the software atomic's {} gave up waiting ({} polls): the {} work-groups did not all run "
      "at once (no forward progress), so its results are not valid",
      who, spin_limit_, groups_ + 1);
}

std::string residency_problem(backend::Device& device, const backend::Kernel& kernel,
                              std::uint32_t groups, std::uint32_t group_size,
                              std::size_t local_bytes) {
  const backend::DeviceInfo& info = device.info();
  const auto cus = static_cast<std::uint64_t>(std::max(1, info.compute_units));
  if (info.local_memory_bytes && local_bytes > info.local_memory_bytes &&
      (info.local_memory_optin_bytes == 0 || local_bytes > info.local_memory_optin_bytes))
    return fmt::format(
        "the coordinator needs {} bytes of local memory (8 per requesting wavefront), more than "
        "{} gives a work-group",
        local_bytes, info.name);
  std::uint64_t limit = 0;
  std::string how;
#if defined(HARNESS_HAVE_CUDA)
  if (info.kind == backend::Kind::cuda) {
    std::string error;
    const int per_sm =
        cuda_blocks_per_sm(kernel.handle(), static_cast<int>(group_size), local_bytes, &error);
    if (per_sm < 0) return "occupancy query failed: " + error;
    limit = cus * static_cast<std::uint64_t>(per_sm);
    how = fmt::format("{} per SM by cudaOccupancyMaxActiveBlocksPerMultiprocessor x {} SMs", per_sm,
                      cus);
  }
#endif
  (void)kernel;
  if (how.empty() && info.type == "gpu") {
    // OpenCL has no occupancy query: assume 1024 resident work-items per
    // compute unit (half of what NVIDIA SMs since Volta hold, so registers
    // up to 64 per work-item are covered) and the local memory one work-group
    // may have as what a compute unit has.
    const std::uint64_t by_threads = std::max<std::uint64_t>(1, 1024 / group_size);
    const std::uint64_t static_local = 4 * (3 * 64 + 2);
    const std::uint64_t by_local =
        info.local_memory_bytes ? info.local_memory_bytes / (local_bytes + static_local) : 64;
    limit = cus * std::max<std::uint64_t>(1, std::min(by_threads, by_local));
    how = fmt::format(
        "estimated: min(1024 work-items, {} bytes of local memory) per compute unit x {} "
        "compute units (OpenCL has no occupancy query)",
        info.local_memory_bytes, cus);
  } else if (how.empty()) {
    // CPU devices (PoCL): forward progress between work-groups does not hold.
    // PoCL's pthread driver deals work-groups out to its worker threads in
    // chunks and, once it has timed a kernel as short, runs all of its
    // work-groups on one thread, one after another; then the coordinator and
    // the requesting groups wait for each other (seen here with PoCL 3.1: the
    // first launch of a kernel ran, the second hung until the spin bound).
    return fmt::format(
        "the software atomic needs its {} work-groups to run at once; {} (a CPU device) does "
        "not guarantee forward progress between work-groups (PoCL may run them one after "
        "another on one thread): not run on CPU devices",
        groups, info.name);
  }
  if (groups > limit)
    return fmt::format(
        "the software atomic needs all {} work-groups (the coordinator and {} requesting) "
        "resident at once; {} holds at most {} ({})",
        groups, groups - 1, info.name, limit, how);
  return "";
}

// ---------------------------------------------------------------- KernelPoint

KernelPoint::KernelPoint(const PointContext& ctx)
    : device_(micro::point_device(ctx, "atomics", "point")), shape_(point_shape(ctx)) {
  if (!shape_.skip.empty()) throw SkipPoint(shape_.skip);
}

void KernelPoint::timed(backend::Queue& q) {
  q.begin_span("kernel");
  launch(q);
  q.end_span();
}

Measurement KernelPoint::run_once() {
  auto& q = device_.queue();
  Measurement m;
  Stopwatch total;
  timed(q);
  q.begin_span("copy_out");
  read_back(q);
  q.end_span();
  q.finish();
  m.total_ms = total.elapsed_ms();
  kernel_ms_ = 0;
  for (auto& s : q.take_spans()) {
    if (s.name != "copy_out") kernel_ms_ += s.milliseconds;
    m.phases.push_back({s.name, s.milliseconds});
  }
  add_counters(m);
  return m;
}

std::string KernelPoint::validate_last() {
  if (std::string bad = check(); !bad.empty()) return bad;
  return check_sane({{"kernel_ms", kernel_ms_}});
}

void KernelPoint::dump_output(std::ostream& out) const {
  const std::vector<std::uint32_t> values = output();
  for (std::size_t i = 0; i < values.size(); ++i) out << i << '\t' << values[i] << '\n';
}

// ---------------------------------------------------------------- model

double model_system_ns(const ModelParams& p, double nc, double ncwg) {
  return nc * ncwg * p.t_comp_ns;  // N * t_comp = nc * ncwg * x * t_fast
}

double model_software_ns(const ModelParams& p, double nc, double ncwg, double nwg) {
  const double xl = p.t_local_ns / p.t_fast_ns;
  return ((2 * nc + ncwg + nwg / 2) * xl + 9) * p.t_fast_ns;
}

double model_speedup(const ModelParams& p, double nc, double ncwg, double nwg) {
  return model_system_ns(p, nc, ncwg) / model_software_ns(p, nc, ncwg, nwg);
}

// ---------------------------------------------------------------- validation helpers

std::string check_old_values(const std::vector<std::uint32_t>& olds,
                             const std::vector<std::uint32_t>& incs, std::uint32_t initial,
                             std::uint32_t final_value) {
  if (olds.size() != incs.size())
    return fmt::format("{} old values for {} increments", olds.size(), incs.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> chain(olds.size());
  for (std::size_t i = 0; i < olds.size(); ++i) chain[i] = {olds[i] - initial, incs[i]};
  std::sort(chain.begin(), chain.end());
  std::uint32_t expect = 0;  // relative to initial
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (chain[i].first != expect)
      return fmt::format(
          "old values do not chain: the {}th smallest is {} where the previous old value plus "
          "its increment is {}",
          i + 1, chain[i].first + initial, expect + initial);
    expect += chain[i].second;
  }
  if (expect + initial != final_value)
    return fmt::format("the last old value plus its increment is {}, the variable holds {}",
                       expect + initial, final_value);
  return "";
}

std::string word_near_count(const std::string& text, double target, std::size_t min_length) {
  std::map<std::string, std::uint64_t> counts;
  std::size_t i = 0;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  while (i < text.size()) {
    if (!letter(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && letter(text[j])) ++j;
    if (j - i >= min_length) ++counts[text.substr(i, j - i)];
    i = j;
  }
  std::string best;
  double best_error = 0;
  for (const auto& [word, n] : counts) {
    const double error = std::abs(std::log(static_cast<double>(n) / std::max(target, 1e-9)));
    if (best.empty() || error < best_error) {
      best = word;
      best_error = error;
    }
  }
  return best;
}

std::vector<std::uint32_t> find_all(const std::string& text, const std::string& key) {
  std::vector<std::uint32_t> out;
  if (key.empty()) return out;
  for (std::size_t p = text.find(key); p != std::string::npos; p = text.find(key, p + 1))
    out.push_back(static_cast<std::uint32_t>(p));
  return out;
}

}  // namespace harness::atomics
