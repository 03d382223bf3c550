// The persistent kernel's host helpers on CUDA (persistent.h): which apps have
// one, their occupancy, their launch, and the copies and pointers the host
// pipeline (persistent_point.cpp) needs. Built only with CUDA
// (persistent_stub.cpp stands in without it).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "frameworks/bigkernel/persistent.h"
#include "frameworks/bigkernel/persistent_apps.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {
namespace {

void check(cudaError_t err, const std::string& what) {
  if (err != cudaSuccess) {
    throw RunError("bigkernel/persistent: " + what + ": " + cudaGetErrorString(err) + " (" +
                   cudaGetErrorName(err) + ")");
  }
}

const std::vector<const PersistentAppKernel*>& kernels() {
  static const std::vector<const PersistentAppKernel*> all = {
      &persistent_kmeans_particles(), &persistent_opinion_finder(), &persistent_wc(),
      &persistent_netflix(), &persistent_dna_assembly()};
  return all;
}

const PersistentAppKernel& kernel_of(const std::string& app) {
  for (const PersistentAppKernel* k : kernels()) {
    if (k->app == app) return *k;
  }
  throw UsageError("bigkernel/persistent has no persistent kernel for app '" + app + "'");
}

}  // namespace

std::uint32_t persistent_blocks_per_sm(const std::string& app) {
  const int per_sm = kernel_of(app).blocks_per_sm();
  check(cudaGetLastError(), "the occupancy of " + app + "'s persistent kernel");
  return static_cast<std::uint32_t>(per_sm > 0 ? per_sm : 0);
}

std::uint32_t persistent_sm_count() {
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute");
  return static_cast<std::uint32_t>(sms);
}

void persistent_launch(const std::string& app, const PersistentLaunch& launch,
                       const PersistentAppArgs& args, void* stream) {
  kernel_of(app).launch(launch, args, stream);
  check(cudaGetLastError(), "launching " + app + "'s persistent kernel");
}

void persistent_send(void* device, const void* host, std::size_t bytes, void* stream) {
  check(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice,
                        static_cast<cudaStream_t>(stream)),
        "cudaMemcpyAsync");
}

void* persistent_device_pointer(void* host) {
  void* device = nullptr;
  if (cudaHostGetDevicePointer(&device, host, 0) != cudaSuccess) {
    // Pinned memory allocated without cudaHostAllocMapped: under unified
    // addressing its host pointer is its device pointer.
    (void)cudaGetLastError();
    cudaPointerAttributes attributes{};
    check(cudaPointerGetAttributes(&attributes, host), "cudaPointerGetAttributes");
    if (!attributes.devicePointer) {
      throw RunError("bigkernel/persistent: host memory the device cannot address");
    }
    device = attributes.devicePointer;
  }
  return device;
}

void persistent_finish(void* stream, const std::string& what) {
  check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), what);
}

}  // namespace harness::bigkernel
