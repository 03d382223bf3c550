#include "harness/core/host_ceilings.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "harness/core/parallel.h"
#include "harness/core/stats.h"
#include "harness/core/stopwatch.h"

namespace harness {

nlohmann::json measure_host_ceilings(std::size_t bytes, int reps) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t words = bytes / sizeof(std::uint64_t);
  std::unique_ptr<std::uint64_t[]> buffer(new std::uint64_t[words]);
  auto slice = [&](unsigned t, std::size_t& begin, std::size_t& end) {
    begin = words / threads * t;
    end = t + 1 == threads ? words : words / threads * (t + 1);
  };
  parallel_for(threads, [&](unsigned t) {
    std::size_t b, e;
    slice(t, b, e);
    for (std::size_t i = b; i < e; ++i) buffer[i] = i;
  });
  std::atomic<std::uint64_t> sink{0};
  std::vector<double> ms;
  for (int r = -1; r < reps; ++r) {
    Stopwatch clock;
    parallel_for(threads, [&](unsigned t) {
      std::size_t b, e;
      slice(t, b, e);
      // Four independent sums keep several loads in flight per thread.
      std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      std::size_t i = b;
      for (; i + 4 <= e; i += 4) {
        s0 += buffer[i];
        s1 += buffer[i + 1];
        s2 += buffer[i + 2];
        s3 += buffer[i + 3];
      }
      for (; i < e; ++i) s0 += buffer[i];
      sink += s0 + s1 + s2 + s3;
    });
    if (r >= 0) ms.push_back(clock.elapsed_ms());
  }
  const double read = static_cast<double>(words * sizeof(std::uint64_t));
  return nlohmann::json::array(
      {{{"backend", "cpu"},
        {"device_index", 0},
        {"name", "host_read"},
        {"value", read / 1e9 / (stats::median(ms) / 1e3)},
        {"unit", "GB/s"},
        {"method", fmt::format("{} threads sum disjoint slices of a {} MiB buffer (median of {}; "
                               "checksum {})",
                               threads, bytes >> 20, reps, sink.load() & 0xff)}}});
}

}  // namespace harness
