#include "harness/backend/backend.h"

#include <thread>

#include "harness/backend/cpu_device.h"
#include "harness/core/errors.h"
#ifdef HARNESS_HAVE_OPENCL
#include "harness/backend/opencl/opencl_backend.h"
#endif
#ifdef HARNESS_HAVE_CUDA
#include "harness/backend/cuda/cuda_backend.h"
#endif

namespace harness::backend {

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::cpu:
      return "cpu";
    case Kind::opencl:
      return "opencl";
    case Kind::cuda:
      return "cuda";
  }
  return "?";
}

std::vector<Kind> compiled_kinds() {
  std::vector<Kind> kinds{Kind::cpu};
#ifdef HARNESS_HAVE_OPENCL
  kinds.push_back(Kind::opencl);
#endif
#ifdef HARNESS_HAVE_CUDA
  kinds.push_back(Kind::cuda);
#endif
  return kinds;
}

Kind parse_kind(const std::string& name) {
  for (Kind k : {Kind::cpu, Kind::opencl, Kind::cuda}) {
    if (name == kind_name(k)) {
      bool compiled = false;
      for (Kind c : compiled_kinds()) compiled = compiled || c == k;
      if (!compiled) {
        throw UsageError("backend '" + name +
                         "' is not compiled into this binary (rebuild with -DHARNESS_" +
                         (k == Kind::cuda ? std::string("CUDA") : std::string("OPENCL")) + "=ON)");
      }
      return k;
    }
  }
  throw UsageError("unknown backend '" + name + "' (known: cpu, opencl, cuda)");
}

LaunchShape LaunchShape::cover(std::uint64_t items, std::uint32_t group_size) {
  std::uint64_t groups = (items + group_size - 1) / group_size;
  if (groups == 0) groups = 1;
  if (groups > 0x7fffffffu)
    throw RunError("launch of " + std::to_string(items) + " work-items is too large");
  return {static_cast<std::uint32_t>(groups), group_size};
}

std::vector<DeviceInfo> list_devices(Kind kind, std::string* why_none) {
  std::string why;
  std::vector<DeviceInfo> devices;
  switch (kind) {
    case Kind::cpu:
      devices = cpu::list_devices();
      break;
    case Kind::opencl:
#ifdef HARNESS_HAVE_OPENCL
      devices = opencl::list_devices(&why);
#else
      why = "OpenCL backend not compiled in";
#endif
      break;
    case Kind::cuda:
#ifdef HARNESS_HAVE_CUDA
      devices = cuda::list_devices(&why);
#else
      why = "CUDA backend not compiled in";
#endif
      break;
  }
  if (why_none) *why_none = why;
  return devices;
}

std::unique_ptr<Device> open_device(Kind kind, int index) {
  switch (kind) {
    case Kind::cpu:
      return cpu::open_device(index);
    case Kind::opencl:
#ifdef HARNESS_HAVE_OPENCL
      return opencl::open_device(index);
#else
      break;
#endif
    case Kind::cuda:
#ifdef HARNESS_HAVE_CUDA
      return cuda::open_device(index);
#else
      break;
#endif
  }
  throw NoDevice(std::string("backend ") + kind_name(kind) + " is not compiled into this binary");
}

}  // namespace harness::backend
