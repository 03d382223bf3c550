// The host cores this process may run on: what every host-side thread pool
// sizes itself by.
#pragma once

namespace harness {

// Cores in the calling thread's CPU affinity mask (taskset, a cgroup cpuset,
// a batch scheduler's allocation), at least 1; the machine's hardware
// concurrency where the mask cannot be read. A harness pinned to 16 of a
// host's 64 cores starts 16 workers, not 64 threads fighting over 16 cores.
unsigned usable_cores();

// Every core of the machine (std::thread::hardware_concurrency, at least 1),
// recorded beside usable_cores() in the results' environment.
unsigned machine_cores();

}  // namespace harness
