#include "harness/core/parallel.h"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "harness/core/host_cores.h"

namespace harness {

void parallel_for(unsigned workers, const std::function<void(unsigned)>& fn) {
  std::vector<std::thread> pool;
  pool.reserve(workers);
  std::exception_ptr error;
  std::mutex mutex;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        fn(w);
      } catch (...) {
        std::lock_guard lock(mutex);
        error = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

unsigned workers_for(std::uint64_t n, unsigned max_workers, std::uint64_t min_per_worker) {
  const unsigned most = max_workers ? max_workers : harness::usable_cores();
  const std::uint64_t wanted =
      (n + min_per_worker - 1) / std::max<std::uint64_t>(min_per_worker, 1);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(wanted, 1, most));
}

unsigned parallel_ranges(std::uint64_t n, unsigned max_workers, std::uint64_t min_per_worker,
                         const std::function<void(std::uint64_t, std::uint64_t)>& fn) {
  const unsigned workers = workers_for(n, max_workers, min_per_worker);
  if (workers == 1) {
    fn(0, n);
    return 1;
  }
  parallel_for(workers, [&](unsigned w) { fn(n * w / workers, n * (w + 1) / workers); });
  return workers;
}

}  // namespace harness
