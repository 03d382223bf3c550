// Ceilings that need kernels (harness/core/ceilings.h): DRAM, L2 and shared
// memory read bandwidth and atomic throughput, each the median of five timed
// kernels after a warm-up, each kernel's result checked (a probe whose kernel
// computes a wrong answer fails, and measure_ceilings skips it).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <nlohmann/json.hpp>

#include "harness/core/ceilings.h"
#include "harness/core/errors.h"
#include "micro/memory/internal.h"

namespace harness::memory {
namespace {

constexpr int kReps = 5;
constexpr std::uint32_t kTileWords = 4096;  // MEMORY_SHARED_WORDS in kernels/shared_read.cl
constexpr std::uint32_t kSeed = 0x5eed1234u;

bool is_gpu(const backend::DeviceInfo& info) { return info.type == "gpu"; }

std::uint32_t probe_group(const backend::DeviceInfo& info, std::uint32_t want) {
  return info.max_work_group_size > 0
             ? std::min<std::uint32_t>(want, static_cast<std::uint32_t>(info.max_work_group_size))
             : want;
}

std::uint32_t compute_units(const backend::DeviceInfo& info) {
  return static_cast<std::uint32_t>(std::max(1, info.compute_units));
}

// Median device time of `launch` over kReps runs after one warm-up, ms;
// `reset` (untimed) runs before each.
double median_ms(backend::Device& device, const std::function<void(backend::Queue&)>& launch,
                 const std::function<void(backend::Queue&)>& reset = {}) {
  return micro::median_kernel_ms(device, launch, reset, kReps, "ceiling probe");
}

nlohmann::json entry(const char* name, double value, const char* unit, std::string method) {
  return {{"name", name}, {"value", value}, {"unit", unit}, {"method", std::move(method)}};
}

// One global read: a buffer of `bytes` (every word its index) read by
// memory_global_read4, 16 bytes per work-item per step, `steps` steps; checks
// every work-item's sum; returns GB/s.
double global_read_gbps(backend::Device& device, std::uint64_t bytes, std::uint64_t read_bytes,
                        std::uint32_t groups_per_cu, std::string* how) {
  const backend::DeviceInfo& info = device.info();
  const std::uint32_t group = probe_group(info, 256);
  const std::uint32_t groups = compute_units(info) * groups_per_cu;
  const std::uint64_t threads = std::uint64_t{groups} * group;
  const std::uint64_t units = std::min<std::uint64_t>(bytes / 16, (std::uint64_t{1} << 31) / 4);
  if (units < threads)
    throw RunError(fmt::format("{} bytes are fewer than one 16-byte load per work-item", bytes));
  std::uint64_t stride = (threads + group) % units;
  if (stride == 0) stride = threads % units;
  const std::uint64_t per_thread = read_bytes / 16 / threads;
  const auto steps = static_cast<std::uint32_t>(std::max<std::uint64_t>(4, per_thread / 4 * 4));
  std::shared_ptr<backend::Program> program = device.build(portable_program());
  backend::Buffer data = device.allocate(units * 16);
  backend::Buffer sums = device.allocate(threads * 4);
  auto& q = device.queue();
  const auto words = static_cast<std::uint32_t>(units * 4);
  q.launch(program->kernel("memory_fill_index"), fill_shape(info, words), data, words);
  backend::Kernel read = program->kernel("memory_global_read4");
  const double ms = median_ms(device, [&](backend::Queue& queue) {
    queue.launch(read, backend::LaunchShape{groups, group}, data, static_cast<std::uint32_t>(units),
                 static_cast<std::uint32_t>(stride), steps, sums);
  });
  std::vector<std::uint32_t> got(threads);
  q.read(got.data(), sums, 0, got.size() * 4);
  q.finish();
  q.take_spans();
  std::vector<std::uint32_t> expected(threads);
  for (std::uint64_t t = 0; t < threads; ++t) expected[t] = read4_sum(t, stride, units, steps);
  if (std::string bad = compare_checksums(expected, got); !bad.empty()) throw RunError(bad);
  const double moved = static_cast<double>(steps) * static_cast<double>(threads) * 16.0;
  *how = fmt::format(
      "16-byte loads by {} x {} work-items, {} each, from a {:.1f} MiB buffer, bytes read / "
      "kernel time, median of {}",
      groups, group, steps, static_cast<double>(units * 16) / 1048576.0, kReps);
  return moved / 1e9 / (ms / 1e3);
}

nlohmann::json dram_read(backend::Device& device, std::size_t bytes) {
  const backend::DeviceInfo& info = device.info();
  // At least 4 x the L2, so every pass streams from DRAM; on a GPU four
  // passes per kernel (about a millisecond), elsewhere one.
  const std::uint64_t size =
      is_gpu(info) ? std::max<std::uint64_t>(bytes, 4 * info.l2_cache_bytes) : bytes;
  std::string how;
  const double gbps =
      global_read_gbps(device, size, is_gpu(info) ? 4 * size : size, is_gpu(info) ? 8 : 2, &how);
  return entry("dram_read", gbps, "GB/s", "DRAM read kernel: " + how);
}

nlohmann::json l2_read(backend::Device& device, std::size_t bytes) {
  const backend::DeviceInfo& info = device.info();
  // A quarter of the L2 (memory/l2's working set), read 4 x `bytes` over.
  const std::uint64_t size = auto_sizes(info).l2_working_set;
  std::string how;
  const double gbps =
      global_read_gbps(device, size, std::uint64_t{bytes} * 4, is_gpu(info) ? 8 : 2, &how);
  return entry("l2_read", gbps, "GB/s",
               "L2-resident read kernel (the walk moves a work-group's window on per step, so L1 "
               "serves nothing): " +
                   how);
}

nlohmann::json shared_read(backend::Device& device, std::size_t /*bytes*/) {
  const backend::DeviceInfo& info = device.info();
  const std::uint32_t group = probe_group(info, 1024);
  const std::uint32_t groups = compute_units(info) * 2;
  const std::uint32_t steps = auto_sizes(info).shared_steps;
  const std::uint64_t threads = std::uint64_t{groups} * group;
  std::shared_ptr<backend::Program> program = device.build(portable_program());
  backend::Kernel read = program->kernel("memory_shared_read");
  backend::Buffer sums = device.allocate(threads * 4);
  const double ms = median_ms(device, [&](backend::Queue& q) {
    q.launch(read, backend::LaunchShape{groups, group}, kSeed, steps, sums);
  });
  std::vector<std::uint32_t> got(threads), expected(threads);
  auto& q = device.queue();
  q.read(got.data(), sums, 0, got.size() * 4);
  q.finish();
  q.take_spans();
  for (std::uint64_t t = 0; t < threads; ++t)
    expected[t] = walk_sum(t % group, group % kTileWords, kTileWords, steps) + steps * kSeed;
  if (std::string bad = compare_checksums(expected, got); !bad.empty()) throw RunError(bad);
  return entry("shared_read",
               static_cast<double>(steps) * static_cast<double>(threads) * 4.0 / 1e9 / (ms / 1e3),
               "GB/s",
               fmt::format("conflict-free 4-byte shared-memory loads by {} x {} work-items, {} "
                           "each, bytes read / kernel time, median of {}",
                           groups, group, steps, kReps));
}

// Atomic adds of 1, `iters` per work-item, to one word or to a word each.
nlohmann::json atomic_add(backend::Device& device, bool same) {
  const backend::DeviceInfo& info = device.info();
  const std::uint32_t group = probe_group(info, 256);
  const std::uint32_t groups = compute_units(info) * 4;
  const std::uint64_t threads = std::uint64_t{groups} * group;
  const std::uint32_t iters = is_gpu(info) ? (same ? 64 : 256) : 16;
  std::shared_ptr<backend::Program> program = device.build(portable_program());
  backend::Kernel k = program->kernel(same ? "memory_atomic_same" : "memory_atomic_distinct");
  const std::uint64_t words = same ? 1 : threads;
  backend::Buffer counters = device.allocate(words * 4);
  const double ms = median_ms(
      device,
      [&](backend::Queue& q) {
        q.launch(k, backend::LaunchShape{groups, group}, counters, iters);
      },
      [&](backend::Queue& q) { q.fill_zero(counters, 0, words * 4); });
  std::vector<std::uint32_t> got(words);
  auto& q = device.queue();
  q.read(got.data(), counters, 0, words * 4);
  q.finish();
  q.take_spans();
  const std::vector<std::uint32_t> expected(
      words, same ? static_cast<std::uint32_t>(threads * iters) : iters);
  if (std::string bad = compare_checksums(expected, got); !bad.empty())
    throw RunError("atomic counts: " + bad);
  const double ops = static_cast<double>(threads) * iters;
  return entry(same ? "atomic_add_same" : "atomic_add_distinct", ops / 1e9 / (ms / 1e3), "G/s",
               fmt::format("{} x {} work-items each adding 1 {} times to {}, adds / kernel time, "
                           "median of {}",
                           groups, group, iters,
                           same ? "one shared word (the compiler may combine a warp's adds)"
                                : "a word of their own",
                           kReps));
}

// Random 8-byte compare-and-swaps of an empty slot (0) into a table of
// 2^k slots of at least 8 x the L2 (`bytes` on a GPU), half of them taken at
// the end, so most swaps succeed; checks that the slots taken are as many as
// the swaps that succeeded.
nlohmann::json atomic_cas_random(backend::Device& device, std::size_t bytes) {
  const backend::DeviceInfo& info = device.info();
  const std::uint32_t group = probe_group(info, 256);
  const std::uint32_t groups = compute_units(info) * 4;
  const std::uint64_t threads = std::uint64_t{groups} * group;
  std::uint64_t want =
      is_gpu(info) ? std::max<std::uint64_t>(bytes, 8 * info.l2_cache_bytes) : std::uint64_t{bytes};
  want = std::min<std::uint64_t>(want, std::uint64_t{1} << 31);
  if (info.max_allocation_bytes) want = std::min<std::uint64_t>(want, info.max_allocation_bytes);
  const std::uint64_t slots = std::bit_floor(std::max<std::uint64_t>(want / 8, 1024));
  const auto iters = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, slots / 2 / threads));
  std::shared_ptr<backend::Program> program = device.build(portable_program());
  backend::Kernel k = program->kernel("memory_atomic_cas_random");
  backend::Buffer table = device.allocate(slots * 8);
  backend::Buffer won = device.allocate(threads * 4);
  const double ms = median_ms(
      device,
      [&](backend::Queue& q) {
        q.launch(k, backend::LaunchShape{groups, group}, table,
                 static_cast<std::uint32_t>(slots - 1), iters, won);
      },
      [&](backend::Queue& q) { q.fill_zero(table, 0, slots * 8); });
  std::vector<std::uint32_t> wins(threads);
  std::vector<std::uint64_t> keys(slots);
  auto& q = device.queue();
  q.read(wins.data(), won, 0, threads * 4);
  q.read(keys.data(), table, 0, slots * 8);
  q.finish();
  q.take_spans();
  std::uint64_t won_total = 0, taken = 0;
  for (std::uint32_t w : wins) won_total += w;
  for (std::uint64_t key : keys) taken += key != 0;
  if (won_total != taken)
    throw RunError(
        fmt::format("random CAS: {} swaps succeeded but {} slots are taken", won_total, taken));
  const double ops = static_cast<double>(threads) * iters;
  return entry("atomic_cas_random", ops / 1e9 / (ms / 1e3), "G/s",
               fmt::format("{} x {} work-items each swapping {} keys into random empty slots "
                           "(64-bit CAS) of a {:.0f} MiB table ({:.0f}% full at the end), swaps / "
                           "kernel time, median of {}",
                           groups, group, iters, static_cast<double>(slots * 8) / 1048576.0,
                           100.0 * static_cast<double>(taken) / static_cast<double>(slots), kReps));
}

}  // namespace

void register_probes() {
  static bool done = false;
  if (done) return;
  done = true;
  register_ceiling_probe("dram_read", dram_read);
  register_ceiling_probe("l2_read", l2_read);
  register_ceiling_probe("shared_read", shared_read);
  register_ceiling_probe("atomic_add_same",
                         [](backend::Device& d, std::size_t) { return atomic_add(d, true); });
  register_ceiling_probe("atomic_add_distinct",
                         [](backend::Device& d, std::size_t) { return atomic_add(d, false); });
  register_ceiling_probe("atomic_cas_random", atomic_cas_random);
}

}  // namespace harness::memory
