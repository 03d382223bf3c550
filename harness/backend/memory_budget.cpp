#include "harness/backend/memory_budget.h"

#include <cstdio>

#include "harness/core/errors.h"

namespace harness::backend {
namespace {

// "4194304 bytes (4.0 MiB)".
std::string bytes_text(std::uint64_t bytes) {
  char mib[48];
  std::snprintf(mib, sizeof mib, " (%.1f MiB)", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return std::to_string(bytes) + " bytes" + mib;
}

}  // namespace

void MemoryBudget::take(std::uint64_t bytes, const std::string& device) {
  std::uint64_t used = in_use_.load();
  for (;;) {
    const std::uint64_t limit = limit_.load();
    if (limit != 0 && (bytes > limit || used > limit - bytes)) {
      throw DeviceOutOfMemory("out of device memory on " + device + ": allocating " +
                              bytes_text(bytes) + " would pass the memory budget of " +
                              bytes_text(limit) + " with " + bytes_text(used) + " in use");
    }
    if (in_use_.compare_exchange_weak(used, used + bytes)) return;
  }
}

}  // namespace harness::backend
