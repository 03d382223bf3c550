#include "harness/core/host_ceilings.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/core/host_cores.h"
#include "harness/core/huge_page_array.h"
#include "harness/core/parallel.h"
#include "harness/core/stats.h"
#include "harness/core/stopwatch.h"

namespace harness {

nlohmann::json measure_host_ceilings(std::size_t bytes, int reps) {
  const unsigned threads = harness::usable_cores();
  const std::size_t words = bytes / sizeof(std::uint64_t);
  HugePageArray<std::uint64_t> buffer(words);  // as the cpu backend's inputs are
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
      // Independent sums over a cache line keep several loads in flight.
      const std::uint64_t* const words_of = buffer.data();
      std::uint64_t s[8] = {};
      std::size_t i = b;
      for (; i + 8 <= e; i += 8) {
        for (int k = 0; k < 8; ++k) s[k] += words_of[i + k];
      }
      for (; i < e; ++i) s[0] += words_of[i];
      std::uint64_t total = 0;
      for (std::uint64_t v : s) total += v;
      sink += total;
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
