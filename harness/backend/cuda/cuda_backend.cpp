// CUDA backend on the CUDA runtime API (compiled by the host compiler; kernels
// come from nvcc-compiled tables, see README.md beside this file).
#include "harness/backend/cuda/cuda_backend.h"

#include <cuda_runtime.h>
#ifdef HARNESS_HAVE_NVRTC
#include <nvrtc.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "harness/core/errors.h"

namespace harness::backend::cuda {
namespace {

// ------------------------------------------------------------------ errors

std::string error_text(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

// Clears the calling thread's last (non-sticky) error so that a later launch
// check does not report it a second time. Sticky errors (a kernel fault) stay.
void clear_last_error() { (void)cudaGetLastError(); }

// The one checking helper: every CUDA call goes through it (or, where the
// failure needs a better message, inspects the error itself and then calls it).
// Throws RunError("CUDA error in <call>: <name>: <text>[ (<context>)]").
void check(cudaError_t err, const char* call, const char* context = nullptr) {
  if (err == cudaSuccess) return;
  clear_last_error();
  std::string message = std::string("CUDA error in ") + call + ": " + error_text(err);
  if (context) message += std::string(" (") + context + ")";
  throw RunError(message);
}

std::string mib(std::uint64_t bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

// 13000 -> "13.0", 12080 -> "12.8".
std::string version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// Why cudaGetDeviceCount gave no devices, as one line starting "CUDA: ".
std::string unavailable_reason(cudaError_t err) {
  const std::string detail = " (" + error_text(err) + ")";
  if (err == cudaErrorNoDevice) return "CUDA: no device" + detail;
  if (err == cudaErrorInsufficientDriver) {
    int driver = 0;
    int runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    clear_last_error();
    if (driver == 0) return "CUDA: no driver" + detail;
    return "CUDA: driver " + version_string(driver) + " is older than the CUDA runtime " +
           version_string(runtime) + " of this binary" + detail;
  }
  return "CUDA: unavailable" + detail;
}

std::string index_message(int index, int count) {
  return "no CUDA device " + std::to_string(index) + " (found " + std::to_string(count) + ")";
}

// "0000:19:00.0" (lower-case hex, the form the OpenCL backend writes).
std::string pci_bus_id(int index, const cudaDeviceProp& prop) {
  char text[64] = {};
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  if (cudaDeviceGetPCIBusId(text, static_cast<int>(sizeof text - 1), index) != cudaSuccess ||
      std::sscanf(text, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4) {
    clear_last_error();
    domain = static_cast<unsigned>(prop.pciDomainID);
    bus = static_cast<unsigned>(prop.pciBusID);
    device = static_cast<unsigned>(prop.pciDeviceID);
    function = 0;
  }
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return text;
}

// Properties of device `index`; throws RunError when they cannot be read.
DeviceInfo describe(int index) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, index), "cudaGetDeviceProperties");
  int clock_khz = 0;  // cudaDeviceProp::clockRate was removed in CUDA 13
  check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index),
        "cudaDeviceGetAttribute(cudaDevAttrClockRate)");
  int driver = 0;
  int runtime = 0;
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");

  DeviceInfo info;
  info.kind = Kind::cuda;
  info.index = index;
  info.name.assign(prop.name, strnlen(prop.name, sizeof prop.name));
  info.vendor = "NVIDIA";
  info.type = "gpu";
  info.driver_version = version_string(driver);
  info.api_version = version_string(runtime);
  info.platform = "CUDA";
  info.global_memory_bytes = prop.totalGlobalMem;
  info.max_allocation_bytes = prop.totalGlobalMem;
  info.local_memory_bytes = prop.sharedMemPerBlock;
  info.local_memory_optin_bytes = prop.sharedMemPerBlockOptin;
  info.l2_cache_bytes = prop.l2CacheSize > 0 ? static_cast<std::uint64_t>(prop.l2CacheSize) : 0;
  info.l2_cache_source = "cudaDeviceProp::l2CacheSize";
  info.pci_bus_id = pci_bus_id(index, prop);
  info.compute_units = prop.multiProcessorCount;
  info.max_work_group_size = prop.maxThreadsPerBlock;
  info.warp_size = prop.warpSize;
  info.image2d_max_width = static_cast<std::size_t>(prop.maxTexture2D[0]);
  info.image2d_max_height = static_cast<std::size_t>(prop.maxTexture2D[1]);
  info.clock_mhz = clock_khz / 1000;
  info.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  info.zero_copy_host_memory = prop.canMapHostMemory != 0;
  return info;
}

// ------------------------------------------------------------------ memory

// What an Image2D's handle points to on CUDA: the array that holds the texels
// and the texture object that kernels read it through.
struct CudaImage {
  cudaArray_t array = nullptr;
  cudaTextureObject_t texture = 0;
};
void free_image(void* handle) noexcept {
  auto* image = static_cast<CudaImage*>(handle);
  if (image->texture) (void)cudaDestroyTextureObject(image->texture);
  if (image->array) (void)cudaFreeArray(image->array);
  clear_last_error();
  delete image;
}

// Buffer deleters: errors at teardown are ignored (and cleared, so that they
// are not reported later as a launch error).
void free_device(void* pointer) noexcept {
  (void)cudaFree(pointer);
  clear_last_error();
}
void free_pinned(void* pointer) noexcept {
  (void)cudaFreeHost(pointer);
  clear_last_error();
}
void free_plain(void* pointer) noexcept { std::free(pointer); }

unsigned char* at(const Buffer& buffer, std::size_t offset) {
  return static_cast<unsigned char*>(buffer.handle()) + offset;
}

// Catches host-side bugs before they corrupt device memory.
void check_range(const Buffer& buffer, std::size_t offset, std::size_t bytes, const char* what) {
  if (bytes <= buffer.size() && offset <= buffer.size() - bytes) return;
  std::string message = std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                        std::to_string(offset) + " overflows ";
  message += buffer.valid() ? "a buffer of " + std::to_string(buffer.size()) + " bytes"
                            : std::string("an empty (unallocated or moved-from) buffer");
  throw RunError(message);
}

// ------------------------------------------------------------------ programs

class CudaProgram final : public Program {
 public:
  CudaProgram(std::string name, std::map<std::string, const void*> kernels, std::string log)
      : name_(std::move(name)), kernels_(std::move(kernels)), log_(std::move(log)) {}

  Kernel kernel(const std::string& name) override {
    auto it = kernels_.find(name);
    if (it == kernels_.end()) {
      std::string has;
      for (const auto& [kernel_name, function] : kernels_) {
        (void)function;
        has += (has.empty() ? "" : ", ") + kernel_name;
      }
      throw RunError("kernel '" + name + "' not found in program '" + name_ +
                     "' (has: " + (has.empty() ? std::string("none") : has) + ")");
    }
    // Kernel stores a void*; the function is never written through it.
    return Kernel(const_cast<void*>(it->second), name);
  }

  std::string build_log() const override { return log_; }

 private:
  std::string name_;
  std::map<std::string, const void*> kernels_;
  std::string log_;
};

// A program compiled at run time (NVRTC) and loaded as a CUDA library; its
// kernels (cudaKernel_t) go through the same launch path as nvcc's functions
// (the runtime API takes a cudaKernel_t where it takes a function).
class LibraryProgram final : public Program {
 public:
  LibraryProgram(std::string name, cudaLibrary_t library, std::string log)
      : name_(std::move(name)), library_(library), log_(std::move(log)) {}
  LibraryProgram(const LibraryProgram&) = delete;
  LibraryProgram& operator=(const LibraryProgram&) = delete;
  ~LibraryProgram() override {
    (void)cudaLibraryUnload(library_);
    clear_last_error();
  }

  Kernel kernel(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = kernels_.find(name);
    if (it == kernels_.end()) {
      cudaKernel_t k = nullptr;
      const cudaError_t err = cudaLibraryGetKernel(&k, library_, name.c_str());
      if (err != cudaSuccess) {
        clear_last_error();
        throw RunError("kernel '" + name + "' not found in program '" + name_ +
                       "' (run-time compiled; declare kernels extern \"C\"): " + error_text(err));
      }
      it = kernels_.emplace(name, static_cast<void*>(k)).first;
    }
    return Kernel(it->second, name);
  }
  std::string build_log() const override { return log_; }

 private:
  std::string name_;
  cudaLibrary_t library_;
  std::string log_;
  std::mutex mutex_;
  std::map<std::string, void*> kernels_;
};

// ------------------------------------------------------------------ queue

void activate(int index) { check(cudaSetDevice(index), "cudaSetDevice"); }

// An Event's cudaEvent_t (owned: destroyed with the last copy of the Event).
// Blocking sync: a host thread in wait() sleeps instead of spinning, leaving
// the cores to the CPU stages of a pipeline.
class CudaEvent final : public Event::Impl {
 public:
  explicit CudaEvent(int device) {
    activate(device);
    check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming | cudaEventBlockingSync),
          "cudaEventCreateWithFlags");
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent() override {
    (void)cudaEventDestroy(event_);
    clear_last_error();
  }
  void wait() override { failed(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  bool done() override {
    const cudaError_t err = cudaEventQuery(event_);
    if (err == cudaErrorNotReady) return false;
    failed(err, "cudaEventQuery");
    return true;
  }
  void* native_handle() override { return event_; }
  cudaEvent_t event() const { return event_; }

 private:
  static void failed(cudaError_t err, const char* call) {
    if (err == cudaSuccess) return;
    clear_last_error();
    throw RunError(std::string("CUDA error in ") + call + ": " + error_text(err) +
                   " (a command queued before the event failed)");
  }
  cudaEvent_t event_ = nullptr;
};

class CudaQueue final : public Queue {
 public:
  CudaQueue(int index, std::string device_name)
      : index_(index), device_name_(std::move(device_name)) {
    activate(index_);
    check(cudaDeviceGetAttribute(&shared_optin_, cudaDevAttrMaxSharedMemoryPerBlockOptin, index_),
          "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)");
    if (shared_optin_ <= 0) {
      check(cudaDeviceGetAttribute(&shared_optin_, cudaDevAttrMaxSharedMemoryPerBlock, index_),
            "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlock)");
    }
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }

  CudaQueue(const CudaQueue&) = delete;
  CudaQueue& operator=(const CudaQueue&) = delete;

  ~CudaQueue() override {
    // Wait for queued copies (a pageable read may still target host memory the
    // caller is about to free), then release everything; errors are ignored.
    (void)cudaStreamSynchronize(stream_);
    if (open_) {
      release_event(open_->start);
    }
    for (const auto& span : done_) {
      release_event(span.start);
      release_event(span.end);
    }
    for (cudaEvent_t event : pool_) (void)cudaEventDestroy(event);
    (void)cudaStreamDestroy(stream_);
    clear_last_error();
  }

  void write(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(dst, dst_offset, bytes, "write");
    if (bytes == 0) return;
    if (!src)
      throw RunError("write of " + std::to_string(bytes) + " bytes from a null host pointer");
    check(cudaMemcpyAsync(at(dst, dst_offset), src, bytes, cudaMemcpyHostToDevice, stream_),
          "cudaMemcpyAsync", "write");
  }

  void read(void* dst, const Buffer& src, std::size_t src_offset, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(src, src_offset, bytes, "read");
    if (bytes == 0) return;
    if (!dst)
      throw RunError("read of " + std::to_string(bytes) + " bytes into a null host pointer");
    check(cudaMemcpyAsync(dst, at(src, src_offset), bytes, cudaMemcpyDeviceToHost, stream_),
          "cudaMemcpyAsync", "read");
  }

  void copy(Buffer& dst, std::size_t dst_offset, const Buffer& src, std::size_t src_offset,
            std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(dst, dst_offset, bytes, "copy destination");
    check_range(src, src_offset, bytes, "copy source");
    if (bytes == 0) return;
    if (dst.handle() == src.handle() && dst_offset < src_offset + bytes &&
        src_offset < dst_offset + bytes) {
      throw RunError("copy of " + std::to_string(bytes) +
                     " bytes within one buffer overlaps (offsets " + std::to_string(src_offset) +
                     " and " + std::to_string(dst_offset) + ")");
    }
    check(cudaMemcpyAsync(at(dst, dst_offset), at(src, src_offset), bytes, cudaMemcpyDeviceToDevice,
                          stream_),
          "cudaMemcpyAsync", "copy");
  }

  void copy_peer(Buffer& dst, const Device& dst_device, std::size_t dst_offset, const Buffer& src,
                 std::size_t src_offset, std::size_t bytes) override {
    check_range(dst, dst_offset, bytes, "copy_peer destination");
    check_range(src, src_offset, bytes, "copy_peer source");
    if (bytes == 0) return;
    const int dst_index = dst_device.info().index;
    if (dst_device.info().kind != Kind::cuda)
      throw RunError("copy_peer from a CUDA device into a " +
                     std::string(kind_name(dst_device.info().kind)) + " buffer");
    if (dst_index == index_) {
      copy(dst, dst_offset, src, src_offset, bytes);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    check(cudaMemcpyPeerAsync(at(dst, dst_offset), dst_index, at(src, src_offset), index_, bytes,
                              stream_),
          "cudaMemcpyPeerAsync", "copy_peer");
  }

  void fill_zero(Buffer& dst, std::size_t offset, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(dst, offset, bytes, "fill_zero");
    if (bytes == 0) return;
    check(cudaMemsetAsync(at(dst, offset), 0, bytes, stream_), "cudaMemsetAsync", "fill_zero");
  }

  void write_image(Image2D& image, const float* src) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!image.valid()) throw RunError("write_image into an empty image");
    if (!src) throw RunError("write_image from a null host pointer");
    const std::size_t row = image.width() * sizeof(float);
    check(cudaMemcpy2DToArrayAsync(static_cast<CudaImage*>(image.handle())->array, 0, 0, src, row,
                                   row, image.height(), cudaMemcpyHostToDevice, stream_),
          "cudaMemcpy2DToArrayAsync", "write_image");
  }

  void launch_args(const Kernel& kernel, LaunchShape shape,
                   const std::vector<KernelArg>& args) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const void* function = kernel.handle();
    const std::string& name = kernel.name();
    if (!function)
      throw RunError("launch of kernel '" + name + "' with no CUDA function (empty Kernel)");
    if (shape.groups == 0 || shape.group_size == 0) {
      throw RunError("kernel '" + name + "' launched with " + std::to_string(shape.groups) +
                     " groups of " + std::to_string(shape.group_size) +
                     " (both must be at least 1)");
    }
    if (shape.groups > kMaxGroups) {
      throw RunError("kernel '" + name + "' launched with " + std::to_string(shape.groups) +
                     " groups (the CUDA grid limit is 2^31-1)");
    }
    activate(index_);
    KernelMeta& meta = meta_for(function, name);
    if (shape.group_size > static_cast<std::uint32_t>(meta.max_threads)) {
      throw RunError("kernel '" + name + "' launched with groups of " +
                     std::to_string(shape.group_size) + " but it can run at most " +
                     std::to_string(meta.max_threads) + " threads per block on " + device_name_ +
                     " (registers / shared memory)");
    }
    if (meta.params_known && meta.param_sizes.size() != args.size()) {
      throw RunError("kernel '" + name + "' takes " + std::to_string(meta.param_sizes.size()) +
                     " arguments but was launched with " + std::to_string(args.size()));
    }

    slots_.resize(args.size());
    argv_.resize(args.size());
    std::size_t dynamic_shared = 0;
    bool dynamic_seen = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const KernelArg& arg = args[i];
      std::size_t size = 0;
      if (arg.local) {
        // LOCAL_DYNAMIC_PARAM's unused pointer: null; the memory is the launch's
        // dynamic shared memory.
        if (dynamic_seen) {
          throw RunError("kernel '" + name + "' argument " + std::to_string(i) +
                         ": at most one dynamic local-memory argument per launch");
        }
        dynamic_seen = true;
        dynamic_shared = arg.local_bytes;
        void* pointer = nullptr;
        size = sizeof pointer;
        std::memcpy(slots_[i].bytes, &pointer, size);
      } else if (arg.buffer) {
        void* pointer = arg.buffer->handle();  // an empty Buffer passes a null pointer, like OpenCL
        size = sizeof pointer;
        std::memcpy(slots_[i].bytes, &pointer, size);
      } else if (arg.image) {
        // IMAGE2D_F32 is a cudaTextureObject_t parameter: passed by value.
        if (!arg.image->valid()) {
          throw RunError("kernel '" + name + "' argument " + std::to_string(i) +
                         " is an empty image");
        }
        const cudaTextureObject_t texture = static_cast<CudaImage*>(arg.image->handle())->texture;
        size = sizeof texture;
        std::memcpy(slots_[i].bytes, &texture, size);
      } else {
        size = arg.size;
        if (size == 0 || size > sizeof slots_[i].bytes) {
          throw RunError("kernel '" + name + "' argument " + std::to_string(i) +
                         " is neither a buffer nor a " + "32- or 64-bit scalar (size " +
                         std::to_string(size) + ")");
        }
        std::memcpy(slots_[i].bytes, arg.bytes, size);
      }
      if (meta.params_known && meta.param_sizes[i] != size) {
        throw RunError("kernel '" + name + "' argument " + std::to_string(i) + " is " +
                       std::to_string(size) + " bytes but the kernel's parameter is " +
                       std::to_string(meta.param_sizes[i]) + " bytes" +
                       (arg.buffer ? " (a buffer was passed)" : ""));
      }
      argv_[i] = slots_[i].bytes;
    }

    if (dynamic_seen) reserve_dynamic_shared(function, name, meta, dynamic_shared);

    cudaError_t err =
        cudaLaunchKernel(function, dim3(shape.groups), dim3(shape.group_size),
                         argv_.empty() ? nullptr : argv_.data(), dynamic_shared, stream_);
    // Launch configuration errors; the kernel's own faults surface at finish().
    const cudaError_t last = cudaGetLastError();
    if (err == cudaSuccess) err = last;
    if (err != cudaSuccess) {
      const std::string context = "kernel '" + name + "', " + std::to_string(shape.groups) +
                                  " groups of " + std::to_string(shape.group_size);
      check(err, "cudaLaunchKernel", context.c_str());
    }
  }

  void* native_handle() override { return stream_; }

  void finish() override {
    std::lock_guard<std::mutex> lock(mutex_);
    finish_locked();
  }

  Event record() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return record_locked();
  }

  void wait_for(const Event& event) override {
    if (!event.valid()) return;
    auto* cuda = dynamic_cast<CudaEvent*>(event.impl());
    if (!cuda) throw RunError("wait_for on a CUDA queue: the event is not a CUDA event");
    std::lock_guard<std::mutex> lock(mutex_);
    check(cudaStreamWaitEvent(stream_, cuda->event(), 0), "cudaStreamWaitEvent");
  }

  Event write_async(Buffer& dst, std::size_t dst_offset, const HostBuffer& src,
                    std::size_t src_offset, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(dst, dst_offset, bytes, "write_async");
    check_host_range(src, src_offset, bytes, "write_async");
    if (bytes > 0) {
      check(cudaMemcpyAsync(at(dst, dst_offset), static_cast<const char*>(src.data()) + src_offset,
                            bytes, cudaMemcpyHostToDevice, stream_),
            "cudaMemcpyAsync", "write_async");
    }
    return record_locked();
  }

  Event read_async(HostBuffer& dst, std::size_t dst_offset, const Buffer& src,
                   std::size_t src_offset, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    check_range(src, src_offset, bytes, "read_async");
    check_host_range(dst, dst_offset, bytes, "read_async");
    if (bytes > 0) {
      check(cudaMemcpyAsync(static_cast<char*>(dst.data()) + dst_offset, at(src, src_offset), bytes,
                            cudaMemcpyDeviceToHost, stream_),
            "cudaMemcpyAsync", "read_async");
    }
    return record_locked();
  }

  void begin_span(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (open_) {
      throw RunError("begin_span('" + name + "') while span '" + open_->name +
                     "' is open: nested spans are not supported");
    }
    cudaEvent_t start = acquire_event();
    record_timing(start);
    open_ = Span{name, start, nullptr};
  }

  void end_span() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!open_) throw RunError("end_span() without an open span");
    cudaEvent_t end = acquire_event();
    record_timing(end);
    open_->end = end;
    done_.push_back(std::move(*open_));
    open_.reset();
  }

  std::vector<TimedSpan> take_spans() override {
    std::lock_guard<std::mutex> lock(mutex_);
    finish_locked();
    std::vector<TimedSpan> spans;
    spans.reserve(done_.size());
    cudaError_t first_error = cudaSuccess;
    for (const auto& span : done_) {
      float ms = 0;
      const cudaError_t err = cudaEventElapsedTime(&ms, span.start, span.end);
      if (err != cudaSuccess && first_error == cudaSuccess) first_error = err;
      spans.push_back(TimedSpan{span.name, static_cast<double>(ms)});
      release_event(span.start);
      release_event(span.end);
    }
    done_.clear();
    check(first_error, "cudaEventElapsedTime");
    return spans;
  }

 private:
  static constexpr std::uint32_t kMaxGroups = 0x7fffffffu;

  struct Span {
    std::string name;
    cudaEvent_t start = nullptr;
    cudaEvent_t end = nullptr;
  };

  // What the launch checks need to know about one kernel, read once per queue.
  struct KernelMeta {
    int max_threads = 0;
    std::size_t static_shared = 0;  // bytes of __shared__ arrays
    std::size_t max_dynamic = 0;    // cudaFuncAttributeMaxDynamicSharedMemorySize now set
    bool params_known = false;      // false when cudaFuncGetParamInfo is not supported
    std::vector<std::size_t> param_sizes;
  };

  struct alignas(8) ArgSlot {
    unsigned char bytes[8];
  };

  // Checks `bytes` of dynamic shared memory against the device's opt-in
  // maximum (less the kernel's static shared memory) and, above the default
  // 48 KiB, opts the kernel in with cudaFuncSetAttribute.
  void reserve_dynamic_shared(const void* function, const std::string& name, KernelMeta& meta,
                              std::size_t bytes) {
    if (bytes == 0) {
      throw RunError("kernel '" + name + "': dynamic local memory of 0 bytes (ask for at least 1)");
    }
    const std::size_t limit = static_cast<std::size_t>(shared_optin_);
    if (bytes > limit || meta.static_shared > limit - bytes) {
      throw RunError("kernel '" + name + "' asks for " + std::to_string(bytes) +
                     " bytes of dynamic local memory; with its " +
                     std::to_string(meta.static_shared) +
                     " bytes of static shared memory the most a block can have on " + device_name_ +
                     " is " + std::to_string(limit) + " bytes (sharedMemPerBlockOptin)");
    }
    if (bytes <= meta.max_dynamic) return;
    check(cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(bytes)),
          "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)", name.c_str());
    meta.max_dynamic = bytes;
  }

  KernelMeta& meta_for(const void* function, const std::string& name) {
    auto it = meta_.find(function);
    if (it != meta_.end()) return it->second;
    KernelMeta meta;
    cudaFuncAttributes attributes{};
    const cudaError_t err = cudaFuncGetAttributes(&attributes, function);
    if (err != cudaSuccess) {
      clear_last_error();
      throw RunError("kernel '" + name + "' cannot run on " + device_name_ +
                     ": CUDA error in cudaFuncGetAttributes: " + error_text(err));
    }
    meta.max_threads = attributes.maxThreadsPerBlock;
    meta.static_shared = attributes.sharedSizeBytes;
    meta.max_dynamic = static_cast<std::size_t>(
        attributes.maxDynamicSharedSizeBytes > 0 ? attributes.maxDynamicSharedSizeBytes : 0);
    // The argument check probes parameters until the query fails, and
    // compute-sanitizer reports each such failure as an API error: it is on
    // only when HARNESS_CHECK_KERNEL_ARGS=1 (the tests set it).
    const char* check_args = std::getenv("HARNESS_CHECK_KERNEL_ARGS");
    const bool probe = check_args && std::string(check_args) == "1";
    for (std::size_t i = 0; probe && i < 4096; ++i) {
      std::size_t offset = 0;
      std::size_t size = 0;
      const cudaError_t param_err = cudaFuncGetParamInfo(function, i, &offset, &size);
      if (param_err == cudaSuccess) {
        meta.param_sizes.push_back(size);
        continue;
      }
      clear_last_error();
      // Past the last parameter; any other error means the query is unsupported.
      meta.params_known = param_err == cudaErrorInvalidValue;
      break;
    }
    if (!meta.params_known) meta.param_sizes.clear();
    return meta_.emplace(function, std::move(meta)).first->second;
  }

  cudaEvent_t acquire_event() {
    if (!pool_.empty()) {
      cudaEvent_t event = pool_.back();
      pool_.pop_back();
      return event;
    }
    activate(index_);
    cudaEvent_t event = nullptr;
    check(cudaEventCreate(&event), "cudaEventCreate");  // default flags: the event records time
    return event;
  }

  void release_event(cudaEvent_t event) {
    if (event) pool_.push_back(event);
  }

  void finish_locked() {
    // No cudaSetDevice here: the stream knows its device, and after a kernel
    // fault the error should be reported by the call that observed it.
    const cudaError_t err = cudaStreamSynchronize(stream_);
    if (err == cudaSuccess) return;
    clear_last_error();
    throw RunError("CUDA error in cudaStreamSynchronize: " + error_text(err) +
                   " (a kernel or copy on " + device_name_ +
                   " failed; after a kernel fault the CUDA context is unusable and this "
                   "process can run no more work on the device)");
  }

  Event record_locked() {
    auto event = std::make_shared<CudaEvent>(index_);
    check(cudaEventRecord(event->event(), stream_), "cudaEventRecord");
    return Event(std::move(event));
  }

  void record_timing(cudaEvent_t event) {
    const cudaError_t err = cudaEventRecord(event, stream_);
    if (err != cudaSuccess) {
      release_event(event);
      check(err, "cudaEventRecord");
    }
  }

  int index_;
  std::string device_name_;
  int shared_optin_ = 0;  // most shared memory per block after opting in
  cudaStream_t stream_ = nullptr;
  std::mutex mutex_;            // one caller at a time (Queue's thread rule)
  std::vector<ArgSlot> slots_;  // argument storage, kept for reuse between launches
  std::vector<void*> argv_;
  std::unordered_map<const void*, KernelMeta> meta_;
  std::optional<Span> open_;
  std::vector<Span> done_;
  std::vector<cudaEvent_t> pool_;
};

// ------------------------------------------------------------------ device

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(DeviceInfo info)
      : info_(std::move(info)), queue_(std::make_unique<CudaQueue>(info_.index, info_.name)) {}

  const DeviceInfo& info() const override { return info_; }

  Buffer allocate_memory(std::size_t bytes) override {
    activate(info_.index);
    void* pointer = nullptr;
    // A zero-byte request still gets a real allocation so that handle() is
    // never null for a requested buffer; size() reports 0.
    const cudaError_t err = cudaMalloc(&pointer, bytes == 0 ? 1 : bytes);
    if (err == cudaErrorMemoryAllocation) {
      clear_last_error();
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      std::string state;
      if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
        state = " (free " + mib(free_bytes) + " of " + mib(total_bytes) + ")";
      } else {
        clear_last_error();
      }
      throw DeviceOutOfMemory("out of device memory: could not allocate " + mib(bytes) + " on " +
                              info_.name + state);
    }
    check(err, "cudaMalloc");
    return Buffer(pointer, bytes, &free_device);
  }

  Image2D allocate_image_memory(std::size_t width, std::size_t height) override {
    activate(info_.index);
    auto* image = new CudaImage;
    Image2D owner(image, width, height, &free_image);  // frees what was made if a step throws
    const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
    const cudaError_t err = cudaMallocArray(&image->array, &format, width, height);
    if (err == cudaErrorMemoryAllocation) {
      clear_last_error();
      throw DeviceOutOfMemory("out of device memory: a " + std::to_string(width) + " x " +
                              std::to_string(height) + " float image on " + info_.name);
    }
    check(err, "cudaMallocArray");
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = image->array;
    // Unnormalized coordinates, nearest texel, clamped: READ_IMAGE_F32(img, x, y)
    // reads texel (x, y) exactly as OpenCL's read_imagef with the dialect's sampler.
    cudaTextureDesc texture{};
    texture.addressMode[0] = texture.addressMode[1] = cudaAddressModeClamp;
    texture.filterMode = cudaFilterModePoint;
    texture.readMode = cudaReadModeElementType;
    texture.normalizedCoords = 0;
    check(cudaCreateTextureObject(&image->texture, &resource, &texture, nullptr),
          "cudaCreateTextureObject");
    return owner;
  }

  using Device::allocate_host;
  HostBuffer allocate_host(std::size_t bytes, HostMemory kind) override {
    const std::size_t request = bytes == 0 ? 1 : bytes;
    void* pointer = nullptr;
    if (kind == HostMemory::pageable) {
      pointer = std::malloc(request);
      if (!pointer) {
        throw DeviceOutOfMemory("out of host memory: could not allocate " + mib(bytes) +
                                " of host memory");
      }
      return HostBuffer(pointer, bytes, &free_plain, HostMemory::pageable);
    }
    activate(info_.index);
    // Portable: pinned for every device's context, not only this one. Mapped:
    // also in the device's address space (zero-copy).
    const bool mapped = kind == HostMemory::mapped;
    if (mapped) require_zero_copy(info_);
    const unsigned flags = cudaHostAllocPortable | (mapped ? cudaHostAllocMapped : 0u);
    const cudaError_t err = cudaHostAlloc(&pointer, request, flags);
    if (err == cudaErrorMemoryAllocation) {
      clear_last_error();
      throw DeviceOutOfMemory("out of host memory: could not allocate " + mib(bytes) + " of " +
                              (mapped ? "mapped" : "pinned") + " (page-locked) host memory");
    }
    check(err, "cudaHostAlloc");
    if (!mapped) return HostBuffer(pointer, bytes, &free_pinned, HostMemory::pinned);
    void* device_pointer = nullptr;
    const cudaError_t map_err = cudaHostGetDevicePointer(&device_pointer, pointer, 0);
    if (map_err != cudaSuccess) {
      free_pinned(pointer);
      check(map_err, "cudaHostGetDevicePointer");
    }
    return HostBuffer(
        pointer, bytes, HostMemory::mapped, [pointer] { free_pinned(pointer); },
        Buffer(device_pointer, bytes, nullptr));
  }

  // Thread-safe: run-time compiles (NVRTC) of different programs proceed in
  // parallel; the cache is locked only to look up and to insert.
  std::shared_ptr<Program> build(const ProgramSource& source) override {
    {
      std::lock_guard<std::mutex> lock(programs_mutex_);
      auto cached = programs_.find(source.name);
      if (cached != programs_.end()) return cached->second;
    }
    if (!source.cuda && !source.cuda_text.empty()) {
      activate(info_.index);
      std::string log;
      std::vector<std::string> options = source.cuda_options;
      if (source.max_registers > 0) {
        options.push_back("--maxrregcount=" + std::to_string(source.max_registers));
      }
      const std::string cubin =
          nvrtc_compile(source.cuda_text, source.name, info_.compute_capability, options, &log);
      cudaLibrary_t library = nullptr;
      check(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
            "cudaLibraryLoadData", source.name.c_str());
      auto program = std::make_shared<LibraryProgram>(source.name, library, std::move(log));
      std::lock_guard<std::mutex> lock(programs_mutex_);
      return programs_.emplace(source.name, program).first->second;  // first build wins
    }
    std::lock_guard<std::mutex> lock(programs_mutex_);
    if (!source.cuda) {
      throw KernelBuildError("program '" + source.name + "' has no CUDA build in this binary", "");
    }
    // The kernels were compiled by nvcc; check that each has code this device
    // can run (e.g. cudaErrorNoKernelImageForDevice when built for another
    // architecture) and describe its resources in the build log.
    activate(info_.index);
    std::string log;
    std::map<std::string, const void*> kernels;
    for (const CudaKernel& kernel : *source.cuda) {
      const std::string name = kernel.name;
      const void* function = kernel.function;
      kernels.emplace(name, function);
      if (!function) {
        throw KernelBuildError(
            "program '" + source.name + "': kernel '" + name + "' has no function", log);
      }
      cudaFuncAttributes attributes{};
      const cudaError_t err = cudaFuncGetAttributes(&attributes, function);
      if (err != cudaSuccess) {
        clear_last_error();
        throw KernelBuildError("program '" + source.name + "': kernel '" + name +
                                   "' cannot run on " + info_.name + " (compute capability " +
                                   info_.compute_capability + "): " + error_text(err),
                               log);
      }
      log += name + ": " + std::to_string(attributes.numRegs) + " registers, " +
             std::to_string(attributes.sharedSizeBytes) + " bytes static shared, " +
             std::to_string(attributes.localSizeBytes) + " bytes local, at most " +
             std::to_string(attributes.maxThreadsPerBlock) + " threads per block, sm_" +
             std::to_string(attributes.binaryVersion) + " binary, PTX " +
             std::to_string(attributes.ptxVersion) + "\n";
    }
    auto program = std::make_shared<CudaProgram>(source.name, std::move(kernels), std::move(log));
    programs_.emplace(source.name, program);
    return program;
  }

  Queue& queue() override { return *queue_; }
  std::unique_ptr<Queue> create_queue() override {
    return std::make_unique<CudaQueue>(info_.index, info_.name);
  }
  std::uint64_t device_free_memory() override {
    activate(info_.index);
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    return free_bytes;
  }
  // native_handle() stays nullptr: CUDA code uses info().index after make_current().
  void make_current() override { activate(info_.index); }

  PeerCopy peer_copy(Device& other) override {
    if (&other == this || (other.info().kind == Kind::cuda && other.info().index == info_.index))
      return PeerCopy::same_device;
    if (other.info().kind != Kind::cuda) return PeerCopy::none;
    int can = 0;
    check(cudaDeviceCanAccessPeer(&can, info_.index, other.info().index),
          "cudaDeviceCanAccessPeer");
    if (!can) return PeerCopy::driver;  // cudaMemcpyPeerAsync stages through the host
    activate(info_.index);
    const cudaError_t err = cudaDeviceEnablePeerAccess(other.info().index, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled) {
      clear_last_error();
    } else {
      check(err, "cudaDeviceEnablePeerAccess");
    }
    return PeerCopy::direct;
  }

 private:
  DeviceInfo info_;
  std::unique_ptr<CudaQueue> queue_;
  std::mutex programs_mutex_;
  std::map<std::string, std::shared_ptr<Program>> programs_;
};

}  // namespace

// ------------------------------------------------------------------ entry points

std::vector<DeviceInfo> list_devices(std::string* why_none) {
  std::vector<DeviceInfo> devices;
  std::string why;
  try {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      clear_last_error();
      why = unavailable_reason(err);
    } else if (count <= 0) {
      why = "CUDA: no device (cudaGetDeviceCount found none)";
    } else {
      std::string first_failure;
      for (int index = 0; index < count; ++index) {
        try {
          devices.push_back(describe(index));
        } catch (const RunError& e) {
          // A device whose properties cannot be read is left out.
          if (first_failure.empty())
            first_failure = "device " + std::to_string(index) + ": " + e.what();
        }
      }
      if (devices.empty()) why = "CUDA: no usable device (" + first_failure + ")";
    }
  } catch (const std::exception& e) {
    devices.clear();
    why = std::string("CUDA: device query failed (") + e.what() + ")";
  } catch (...) {
    devices.clear();
    why = "CUDA: device query failed";
  }
  if (why_none) *why_none = why;
  return devices;
}

std::unique_ptr<Device> open_device(int index) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    clear_last_error();
    throw NoDevice(index_message(index, 0) + ": " + unavailable_reason(err));
  }
  if (index < 0 || index >= count) throw NoDevice(index_message(index, count));
  DeviceInfo info = describe(index);
  // cudaSetDevice creates the primary context (CUDA 12+); a device that exists
  // but cannot take a context (exclusive-process mode, prohibited) counts as absent.
  const cudaError_t set_err = cudaSetDevice(index);
  if (set_err != cudaSuccess) {
    clear_last_error();
    throw NoDevice("CUDA device " + std::to_string(index) + " (" + info.name +
                   ") cannot be used: CUDA error in cudaSetDevice: " + error_text(set_err));
  }
  return std::make_unique<CudaDevice>(std::move(info));
}

std::string nvrtc_compile(const std::string& source, const std::string& name,
                          const std::string& arch, const std::vector<std::string>& options,
                          std::string* log) {
#ifdef HARNESS_HAVE_NVRTC
  std::string digits;
  for (char c : arch) {
    if (c >= '0' && c <= '9') digits += c;
  }
  if (digits.empty()) throw KernelBuildError("program '" + name + "': no compute capability", "");
  auto nv_check = [&](nvrtcResult r, const char* call) {
    if (r != NVRTC_SUCCESS)
      throw KernelBuildError("program '" + name + "': " + call + ": " + nvrtcGetErrorString(r), "");
  };
  nvrtcProgram prog = nullptr;
  nv_check(nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
           "nvrtcCreateProgram");
  std::vector<std::string> opts = {"--gpu-architecture=sm_" + digits, "--std=c++17",
                                   "-default-device"};
  opts.insert(opts.end(), options.begin(), options.end());
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());
  const nvrtcResult compiled =
      nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  std::size_t log_size = 0;
  std::string text;
  if (nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    text.resize(log_size);
    (void)nvrtcGetProgramLog(prog, text.data());
    text.resize(log_size - 1);
  }
  if (log) *log = text;
  if (compiled != NVRTC_SUCCESS) {
    (void)nvrtcDestroyProgram(&prog);
    throw KernelBuildError("program '" + name + "' failed to compile with NVRTC (sm_" + digits +
                               "): " + nvrtcGetErrorString(compiled),
                           text);
  }
  std::size_t size = 0;
  std::string cubin;
  const nvrtcResult got = nvrtcGetCUBINSize(prog, &size);
  if (got == NVRTC_SUCCESS) {
    cubin.resize(size);
    (void)nvrtcGetCUBIN(prog, cubin.data());
  }
  (void)nvrtcDestroyProgram(&prog);
  nv_check(got, "nvrtcGetCUBINSize");
  return cubin;
#else
  (void)source;
  (void)arch;
  (void)options;
  if (log) log->clear();
  throw KernelBuildError("program '" + name +
                             "' needs run-time CUDA compilation, but this binary was built "
                             "without NVRTC (CUDA::nvrtc not found by CMake)",
                         "");
#endif
}

}  // namespace harness::backend::cuda
