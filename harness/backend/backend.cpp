#include "harness/backend/backend.h"

#include <algorithm>
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

bool cuda_runtime_compilation() {
#if defined(HARNESS_HAVE_CUDA) && defined(HARNESS_HAVE_NVRTC)
  return true;
#else
  return false;
#endif
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

const char* host_memory_name(HostMemory kind) {
  switch (kind) {
    case HostMemory::pageable:
      return "pageable";
    case HostMemory::pinned:
      return "pinned";
    case HostMemory::mapped:
      return "mapped";
  }
  return "?";
}

const Buffer& HostBuffer::device_view() const {
  if (kind_ != HostMemory::mapped || !device_view_.valid()) {
    throw RunError(std::string("device_view() of ") + host_memory_name(kind_) +
                   " host memory: only mapped host memory (HostMemory::mapped) has a device view");
  }
  return device_view_;
}

Image2D Device::allocate_image_memory(std::size_t width, std::size_t height) {
  throw RunError("images (" + std::to_string(width) + " x " + std::to_string(height) +
                 ") are not supported on " + info().name + " (backend " + kind_name(info().kind) +
                 ")");
}

Buffer Device::allocate(std::size_t bytes) {
  budget_->take(bytes, info().name);
  MemoryCharge charge(budget_, bytes);  // given back if the allocation throws
  Buffer buffer = allocate_memory(bytes);
  buffer.charge_ = std::move(charge);
  return buffer;
}

Image2D Device::allocate_image_f32(std::size_t width, std::size_t height) {
  // Checked before the budget, so that a size past the device's limits is a RunError.
  check_image_size(info(), width, height);
  const std::uint64_t bytes = std::uint64_t{width} * height * sizeof(float);
  budget_->take(bytes, info().name);
  MemoryCharge charge(budget_, bytes);
  Image2D image = allocate_image_memory(width, height);
  image.charge_ = std::move(charge);
  return image;
}

std::uint64_t Device::device_free_memory() {
  const std::uint64_t total = info().global_memory_bytes;
  const std::uint64_t used = memory_in_use();
  return total > used ? total - used : 0;
}

std::uint64_t Device::memory_available() {
  std::uint64_t room = device_free_memory();
  const std::uint64_t limit = memory_budget();
  if (limit != 0) {
    const std::uint64_t used = memory_in_use();
    room = std::min(room, limit > used ? limit - used : 0);
  }
  return room;
}

bool has_warp_vote(const DeviceInfo& info) {
  // The dialect detects NVIDIA's OpenCL by its extensions; its vendor string
  // says the same to the host.
  return info.kind == Kind::cuda ||
         (info.kind == Kind::opencl && info.vendor.find("NVIDIA") != std::string::npos);
}

void require_zero_copy(const DeviceInfo& info) {
  if (info.zero_copy_host_memory) return;
  std::string why;
  switch (info.kind) {
    case Kind::cuda:
      why = "the device cannot map host memory (cudaDeviceProp::canMapHostMemory is 0)";
      break;
    case Kind::opencl:
      why =
          "the platform reports no host-unified memory (CL_DEVICE_HOST_UNIFIED_MEMORY is false), "
          "so mapped host memory is emulated by copies to the device";
      break;
    case Kind::cpu:
      why = "the device reports no zero-copy host memory";
      break;
  }
  throw RunError(std::string("zero-copy host memory is not available on ") + info.name +
                 " (backend " + kind_name(info.kind) + "): " + why);
}

const char* peer_copy_name(PeerCopy path) {
  switch (path) {
    case PeerCopy::none:
      return "none";
    case PeerCopy::same_device:
      return "same-device";
    case PeerCopy::direct:
      return "direct";
    case PeerCopy::driver:
      return "driver";
  }
  return "?";
}

PeerCopy Device::peer_copy(Device& other) {
  return &other == this ? PeerCopy::same_device : PeerCopy::none;
}

void Queue::copy_peer(Buffer& dst, const Device& /*dst_device*/, std::size_t dst_offset,
                      const Buffer& src, std::size_t src_offset, std::size_t bytes) {
  copy(dst, dst_offset, src, src_offset, bytes);
}

void Queue::write_image(Image2D& /*image*/, const float* /*src*/) {
  throw RunError("write_image on a queue whose backend has no images");
}

// Checks an image request against the device's limits (both backends).
void check_image_size(const DeviceInfo& info, std::size_t width, std::size_t height) {
  if (info.image2d_max_width == 0) {
    throw RunError(info.name + " has no image support");
  }
  if (width == 0 || height == 0 || width > info.image2d_max_width ||
      height > info.image2d_max_height) {
    throw RunError("an image of " + std::to_string(width) + " x " + std::to_string(height) +
                   " exceeds " + info.name + "'s limit of " +
                   std::to_string(info.image2d_max_width) + " x " +
                   std::to_string(info.image2d_max_height) + " (or is empty)");
  }
}

void check_host_range(const HostBuffer& host, std::size_t offset, std::size_t bytes,
                      const char* what) {
  if (bytes <= host.size() && offset <= host.size() - bytes) return;
  throw RunError(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                 std::to_string(offset) + " overruns " + host_memory_name(host.kind()) +
                 " host memory of " + std::to_string(host.size()) + " bytes");
}

LaunchShape LaunchShape::cover(std::uint64_t items, std::uint32_t group_size) {
  std::uint64_t groups = (items + group_size - 1) / group_size;
  if (groups == 0) groups = 1;
  if (groups > 0x7fffffffu)
    throw RunError("launch of " + std::to_string(items) + " work-items is too large");
  return {static_cast<std::uint32_t>(groups), group_size};
}

namespace {

#if defined(HARNESS_HAVE_OPENCL) && defined(HARNESS_HAVE_CUDA)
// "0000:19:00.0" and "19:00.0" name the same device; two full ids must agree.
bool same_pci_device(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  if (a.size() == b.size()) return a == b;
  const std::string& shorter = a.size() < b.size() ? a : b;
  const std::string& longer = a.size() < b.size() ? b : a;
  return longer.size() > shorter.size() &&
         longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) == 0 &&
         longer[longer.size() - shorter.size() - 1] == ':';
}

// NVIDIA's OpenCL driver reports CL_DEVICE_GLOBAL_MEM_CACHE_SIZE well below
// the L2 (4 MiB for an H100's 50 MiB): take the CUDA device on the same PCI
// bus id when there is exactly one.
void correct_nvidia_l2(DeviceInfo& info, const std::vector<DeviceInfo>& cuda_devices) {
  const DeviceInfo* match = nullptr;
  for (const DeviceInfo& c : cuda_devices) {
    if (!same_pci_device(info.pci_bus_id, c.pci_bus_id)) continue;
    if (match) return;  // ambiguous (no PCI domain on one side)
    match = &c;
  }
  if (!match || match->l2_cache_bytes == 0) return;
  info.l2_cache_bytes = match->l2_cache_bytes;
  info.l2_cache_source = "matched CUDA device by PCI bus id";
}

bool is_nvidia_with_bus_id(const DeviceInfo& info) {
  return !info.pci_bus_id.empty() && info.vendor.find("NVIDIA") != std::string::npos;
}
#endif

#ifdef HARNESS_HAVE_OPENCL
// Corrections that need another backend's view of the same device.
void refine_opencl_devices(std::vector<DeviceInfo>& devices) {
#if defined(HARNESS_HAVE_OPENCL) && defined(HARNESS_HAVE_CUDA)
  bool any = false;
  for (const DeviceInfo& d : devices) any = any || is_nvidia_with_bus_id(d);
  if (!any) return;  // the CUDA runtime is only started for NVIDIA devices
  const std::vector<DeviceInfo> cuda_devices = cuda::list_devices(nullptr);
  for (DeviceInfo& d : devices) {
    if (is_nvidia_with_bus_id(d)) correct_nvidia_l2(d, cuda_devices);
  }
#else
  (void)devices;
#endif
}
#endif

}  // namespace

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
      refine_opencl_devices(devices);
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
      return opencl::open_device(index, [](DeviceInfo& info) {
        std::vector<DeviceInfo> one{info};
        refine_opencl_devices(one);
        info = std::move(one.front());
      });
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
