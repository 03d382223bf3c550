// Host-side fork-join: the CPU runtimes' workers and the apps' parallel
// references share it.
#pragma once

#include <cstdint>
#include <functional>

namespace harness {

// Runs fn(worker) for worker = 0 .. workers-1 on as many threads and joins
// them; rethrows the exception of a worker that threw.
void parallel_for(unsigned workers, const std::function<void(unsigned)>& fn);

// Workers for n items of host work: one per `min_per_worker` items (rounded
// up), at least 1, at most `max_workers` (0: every host core).
unsigned workers_for(std::uint64_t n, unsigned max_workers, std::uint64_t min_per_worker);

// fn(begin, end) over [0, n) in workers_for(n, ...) contiguous ranges, each on
// its own thread (on the calling thread when one range); rethrows as
// parallel_for. Returns how many ranges (workers) it used.
unsigned parallel_ranges(std::uint64_t n, unsigned max_workers, std::uint64_t min_per_worker,
                         const std::function<void(std::uint64_t, std::uint64_t)>& fn);

}  // namespace harness
