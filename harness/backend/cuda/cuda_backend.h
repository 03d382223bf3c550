// The CUDA backend: a Device is one CUDA device (its primary context), its
// Queue is one non-blocking stream, spans are pairs of CUDA events, and
// programs are tables of nvcc-compiled kernels registered at build time (see
// README.md beside this file). Plain C++ on the CUDA runtime API; this header
// does not include cuda_runtime.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::backend::cuda {

// CUDA devices of this machine. Never throws and never aborts: when the runtime
// cannot be used (no driver, driver older than the runtime, no device) it
// returns an empty list and `why_none` (when given) says why, e.g.
// "CUDA: no device (cudaErrorNoDevice: no CUDA-capable device is detected)".
std::vector<DeviceInfo> list_devices(std::string* why_none);

// Opens CUDA device `index` (its primary context) with one stream. Throws
// harness::NoDevice("no CUDA device N (found M)") when there is no such device,
// or when the device exists but its context cannot be created.
std::unique_ptr<Device> open_device(int index);

// Run-time compilation (ProgramSource::cuda_text) with NVRTC, when the binary
// has it (backend::cuda_runtime_compilation()): CUDA C++ to a CUBIN for
// compute capability `arch` ("9.0"), with `options` added. Needs no GPU.
// Throws KernelBuildError with NVRTC's log when the source does not compile
// (or when NVRTC is not in this binary).
std::string nvrtc_compile(const std::string& source, const std::string& name,
                          const std::string& arch, const std::vector<std::string>& options,
                          std::string* log = nullptr);

}  // namespace harness::backend::cuda
