// Host-side fork-join: the CPU runtimes' workers and the apps' parallel
// references share it.
#pragma once

#include <functional>

namespace harness {

// Runs fn(worker) for worker = 0 .. workers-1 on as many threads and joins
// them; rethrows the exception of a worker that threw.
void parallel_for(unsigned workers, const std::function<void(unsigned)>& fn);

}  // namespace harness
