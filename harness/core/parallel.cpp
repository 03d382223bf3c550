#include "harness/core/parallel.h"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

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

}  // namespace harness
