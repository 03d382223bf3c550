// The host as a device: information for `harness env` and result documents.
// CPU runtimes run native threads and need no buffers or kernels, so
// open_device returns a Device whose allocate() gives host memory and whose
// build() refuses (no kernel compiler on this backend).
#pragma once

#include <memory>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::backend::cpu {

std::vector<DeviceInfo> list_devices();
std::unique_ptr<Device> open_device(int index);
// Host facts used by result documents.
std::string cpu_model_name();
std::uint64_t host_memory_bytes();
// Memory the host can give without swapping (/proc/meminfo MemAvailable;
// else free pages), for refusing an input that cannot be loaded.
std::uint64_t host_memory_available();

}  // namespace harness::backend::cpu
