#include "harness/core/host_cores.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace harness {

unsigned machine_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

unsigned usable_cores() {
#ifdef __linux__
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
    const int n = CPU_COUNT(&mask);
    if (n > 0) return static_cast<unsigned>(n);
  }
#endif
  return machine_cores();
}

}  // namespace harness
