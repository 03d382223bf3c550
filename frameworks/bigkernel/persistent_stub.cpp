// The persistent kernel's host helpers without CUDA (persistent.h): no app has
// one; the variant declines every point (bigkernel.cpp).
#ifndef HARNESS_HAVE_CUDA

#include "frameworks/bigkernel/persistent.h"
#include "harness/core/errors.h"

namespace harness::bigkernel {
namespace {
[[noreturn]] void no_cuda() {
  throw UsageError("bigkernel/persistent needs a CUDA build (HARNESS_CUDA=ON)");
}
}  // namespace

std::uint32_t persistent_blocks_per_sm(const std::string&) { no_cuda(); }
std::uint32_t persistent_sm_count() { no_cuda(); }
void persistent_launch(const std::string&, const PersistentLaunch&, const PersistentAppArgs&,
                       void*) {
  no_cuda();
}
void persistent_send(void*, const void*, std::size_t, void*) { no_cuda(); }
void* persistent_device_pointer(void*) { no_cuda(); }
void persistent_finish(void*, const std::string&) { no_cuda(); }

}  // namespace harness::bigkernel

#endif  // HARNESS_HAVE_CUDA
