// The backend layer: the only place that talks to CUDA or OpenCL.
//
// A Device owns buffers, builds programs and runs a Queue (an in-order OpenCL
// command queue or a CUDA stream). Frameworks write kernels once in the
// portable dialect (harness/dialect/dialect.h) and launch them through this
// interface by name with positional arguments; the same host code then runs on
// PoCL, NVIDIA OpenCL and CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/backend/cuda_kernel_table.h"
#include "harness/backend/memory_budget.h"

namespace harness::backend {

enum class Kind { cpu, opencl, cuda };

const char* kind_name(Kind kind);
// Parses "cpu", "opencl" or "cuda"; throws UsageError for anything else.
Kind parse_kind(const std::string& name);
// Backends compiled into this binary (cpu is always there).
std::vector<Kind> compiled_kinds();

struct DeviceInfo {
  Kind kind = Kind::cpu;
  int index = 0;  // index within the backend (flattened over OpenCL platforms)
  std::string name;
  std::string vendor;
  std::string type;  // "gpu", "cpu", "accelerator"
  std::string driver_version;
  std::string api_version;  // OpenCL device version / CUDA runtime version
  std::string platform;     // OpenCL platform name + version; "CUDA" for cuda
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t local_memory_bytes = 0;  // per work-group / block
  // CUDA: the most shared memory a block may have after opting in
  // (sharedMemPerBlockOptin; a launch asking for more dynamic local memory than
  // local_memory_bytes opts in by itself). 0 when unknown or without opt-in (OpenCL, cpu).
  std::uint64_t local_memory_optin_bytes = 0;
  std::uint64_t l2_cache_bytes = 0;  // 0 when unknown
  // Where l2_cache_bytes comes from: "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE",
  // "cudaDeviceProp::l2CacheSize" or, for an NVIDIA OpenCL device whose driver
  // reports too little, "matched CUDA device by PCI bus id". Empty when unknown.
  std::string l2_cache_source;
  // "0000:19:00.0" (domain:bus:device.function, lower-case hex); "19:00.0" when
  // the driver does not give the domain; empty when unknown.
  std::string pci_bus_id;
  int compute_units = 0;
  int max_work_group_size = 0;
  int warp_size = 0;  // 0 when unknown (OpenCL 1.2 does not say)
  // Largest Image2D (OpenCL CL_DEVICE_IMAGE2D_MAX_*, CUDA maxTexture2D); 0: no images.
  std::size_t image2d_max_width = 0, image2d_max_height = 0;
  int clock_mhz = 0;
  std::string compute_capability;  // "9.0" on cuda
  // Whether kernels read and write mapped host memory (HostMemory::mapped) in
  // place, with no device copy: CUDA cudaDeviceProp::canMapHostMemory (without
  // it a mapped request is refused); OpenCL CL_DEVICE_HOST_UNIFIED_MEMORY (PoCL,
  // integrated GPUs; without it mapped memory is emulated, see HostMemory);
  // always on cpu. See require_zero_copy().
  bool zero_copy_host_memory = false;
};

class Device;

// Opaque device memory. Moves, never copies; freed with its Device. A Buffer
// from Device::allocate counts against the device's memory budget until it goes.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  ~Buffer() { release(); }

  std::size_t size() const { return size_; }
  bool valid() const { return handle_ != nullptr; }
  // cl_mem on OpenCL, the device pointer on CUDA.
  void* handle() const { return handle_; }

  using Deleter = void (*)(void*);
  Buffer(void* handle, std::size_t size, Deleter deleter)
      : handle_(handle), size_(size), deleter_(deleter) {}

 private:
  friend class Device;
  void release() {
    if (handle_ && deleter_) deleter_(handle_);
    handle_ = nullptr;
    size_ = 0;
    charge_.reset();
  }
  void swap(Buffer& o) noexcept {
    std::swap(handle_, o.handle_);
    std::swap(size_, o.size_);
    std::swap(deleter_, o.deleter_);
    std::swap(charge_, o.charge_);
  }
  void* handle_ = nullptr;
  std::size_t size_ = 0;
  Deleter deleter_ = nullptr;
  MemoryCharge charge_;
};

// A read-only two-dimensional image of one float32 channel, read by kernels
// through the texture path (dialect IMAGE2D_F32 / READ_IMAGE_F32): an OpenCL
// image2d_t (CL_R, CL_FLOAT), a CUDA texture object over a cudaArray. Texel
// (x, y) is element y * width + x of the host array written into it
// (Queue::write_image). Moves, never copies.
class Image2D {
 public:
  Image2D() = default;
  Image2D(const Image2D&) = delete;
  Image2D& operator=(const Image2D&) = delete;
  Image2D(Image2D&& other) noexcept { swap(other); }
  Image2D& operator=(Image2D&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  ~Image2D() { release(); }

  std::size_t width() const { return width_; }
  std::size_t height() const { return height_; }
  bool valid() const { return handle_ != nullptr; }
  // The backend's object: a cl_mem on OpenCL, the CUDA backend's own record
  // (array and texture object) on CUDA.
  void* handle() const { return handle_; }

  Image2D(void* handle, std::size_t width, std::size_t height, Buffer::Deleter deleter)
      : handle_(handle), width_(width), height_(height), deleter_(deleter) {}

 private:
  friend class Device;
  void release() {
    if (handle_ && deleter_) deleter_(handle_);
    handle_ = nullptr;
    width_ = height_ = 0;
    charge_.reset();
  }
  void swap(Image2D& o) noexcept {
    std::swap(handle_, o.handle_);
    std::swap(width_, o.width_);
    std::swap(height_, o.height_);
    std::swap(deleter_, o.deleter_);
    std::swap(charge_, o.charge_);
  }
  void* handle_ = nullptr;
  std::size_t width_ = 0, height_ = 0;
  Buffer::Deleter deleter_ = nullptr;
  MemoryCharge charge_;
};

// Host memory kinds:
//  - pageable: plain (page-aligned) host memory;
//  - pinned: page-locked host memory, the fast path for Queue::write/read
//    (CUDA cudaHostAlloc; OpenCL a CL_MEM_ALLOC_HOST_PTR buffer kept mapped);
//  - mapped: pinned memory that kernels read and write in place through
//    device_view(). CUDA: cudaHostAllocMapped, zero-copy; a device that
//    cannot map host memory (DeviceInfo::zero_copy_host_memory false) refuses
//    it with a RunError. OpenCL: a CL_MEM_ALLOC_HOST_PTR buffer kept mapped for
//    the buffer's lifetime; a command that uses the view is bracketed by an
//    unmap and a map (the OpenCL rule), which costs nothing where
//    zero_copy_host_memory is true (PoCL) and elsewhere is emulation: NVIDIA's
//    driver keeps a device copy and migrates the whole buffer each time.
//    Code that needs real zero-copy (data larger than the device) calls
//    require_zero_copy() first. Mapped memory is host memory: it does not
//    count against the device's memory budget.
enum class HostMemory { pageable, pinned, mapped };
// "pageable", "pinned", "mapped".
const char* host_memory_name(HostMemory kind);

// Host memory of one HostMemory kind. Moves, never copies.
class HostBuffer {
 public:
  HostBuffer() = default;
  // Memory freed with deleter(data).
  HostBuffer(void* data, std::size_t size, Buffer::Deleter deleter,
             HostMemory kind = HostMemory::pageable)
      : data_(data), size_(size), kind_(kind) {
    if (deleter) release_ = [deleter, data] { deleter(data); };
  }
  // Memory freed by release() (e.g. unmap and release an OpenCL buffer).
  // device_view: for mapped memory, the device side as a Buffer that owns
  // nothing (release() frees both sides).
  HostBuffer(void* data, std::size_t size, HostMemory kind, std::function<void()> release,
             Buffer device_view = Buffer())
      : data_(data),
        size_(size),
        kind_(kind),
        release_(std::move(release)),
        device_view_(std::move(device_view)) {}
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept { swap(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }
  ~HostBuffer() { reset(); }

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  HostMemory kind() const { return kind_; }
  // The device side of mapped memory, usable as a kernel argument and as a copy
  // or read source: a command sees the host's earlier writes, and the host sees
  // the command's writes after Queue::finish() (leave data() alone in between).
  // Throws RunError unless kind() is mapped. Finish the queues that used it
  // before the HostBuffer goes.
  const Buffer& device_view() const;

 private:
  void reset() noexcept {
    device_view_ = Buffer();  // owns nothing; dropped before the memory goes
    if (release_) release_();
    release_ = nullptr;
    data_ = nullptr;
    size_ = 0;
  }
  void swap(HostBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(kind_, o.kind_);
    std::swap(release_, o.release_);
    std::swap(device_view_, o.device_view_);
  }
  void* data_ = nullptr;
  std::size_t size_ = 0;
  HostMemory kind_ = HostMemory::pageable;
  std::function<void()> release_;
  Buffer device_view_;
};

// Where a kernel comes from: the OpenCL source (composed from embedded files and
// compiled at run time) and, for CUDA, a table of nvcc-compiled kernels by name
// (cuda_kernel_table.h).
struct ProgramSource {
  std::string name;                       // for messages and caching, e.g. "mars/wordcount"
  std::vector<std::string> opencl_files;  // embedded files, concatenated in order
  std::string opencl_text;                // appended after the files (tests, generated code)
  std::string opencl_options;             // extra build options
  // A register budget per work-item, for the compilers that take one:
  // NVIDIA's OpenCL (-cl-nv-maxrregcount) and NVRTC (--maxrregcount); 0 is
  // the compiler's choice. Elsewhere it changes nothing (PoCL; nvcc-built
  // tables take the CMake build's flags).
  std::uint32_t max_registers = 0;
  const CudaKernelTable* cuda = nullptr;  // null when the program has no CUDA build
  // CUDA C++ compiled at run time with NVRTC for the device's architecture
  // (used when `cuda` is null; generated code). Kernels are looked up by
  // name, so declare them extern "C". A binary built without NVRTC throws
  // KernelBuildError saying so.
  std::string cuda_text;
  std::vector<std::string> cuda_options;  // extra NVRTC options
};

// Whether this binary's CUDA backend compiles ProgramSource::cuda_text (NVRTC).
bool cuda_runtime_compilation();

class Program;
class Kernel {
 public:
  Kernel() = default;
  Kernel(void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  void* handle() const { return handle_; }  // cl_kernel, or the CUDA function pointer
  const std::string& name() const { return name_; }

 private:
  void* handle_ = nullptr;
  std::string name_;
};

class Program {
 public:
  virtual ~Program() = default;
  // Throws RunError naming the kernel and program when it does not exist.
  virtual Kernel kernel(const std::string& name) = 0;
  virtual std::string build_log() const { return {}; }
};

// One-dimensional launch shape: `groups` work-groups of `group_size` work-items.
struct LaunchShape {
  std::uint32_t groups = 1;
  std::uint32_t group_size = 1;
  static LaunchShape cover(std::uint64_t items, std::uint32_t group_size);
};

// A positional kernel argument: a buffer, a small fixed-width scalar, or
// dynamic local memory (local_memory()).
struct KernelArg {
  const Buffer* buffer = nullptr;
  const Image2D* image = nullptr;  // an IMAGE2D_F32 parameter
  std::size_t size = 0;
  unsigned char bytes[8] = {};
  bool local = false;           // dynamic local memory of local_bytes
  std::size_t local_bytes = 0;  // only when local
};

inline KernelArg make_arg(const Buffer& b) {
  KernelArg a;
  a.buffer = &b;
  return a;
}
inline KernelArg make_arg(const Image2D& image) {
  KernelArg a;
  a.image = &image;
  return a;
}
inline KernelArg make_arg(const KernelArg& a) { return a; }

// Dynamic local (CUDA: shared) memory of `bytes` for the parameter declared
// with LOCAL_DYNAMIC_PARAM (dialect.h). OpenCL: clSetKernelArg(i, bytes,
// nullptr) for its `__local T*` parameter; CUDA: the launch's dynamic
// shared-memory size (the parameter itself gets a null pointer). At most one per
// launch; `bytes` must be at least 1 and fit the device (DeviceInfo::
// local_memory_bytes, on CUDA up to local_memory_optin_bytes less the kernel's
// static shared memory), else the launch throws RunError.
inline KernelArg local_memory(std::size_t bytes) {
  KernelArg a;
  a.local = true;
  a.local_bytes = bytes;
  return a;
}
template <class T>
KernelArg make_arg(const T& v) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8 && sizeof(T) >= 4,
                "kernel scalars must be 32- or 64-bit (u32, i32, u64, float, double)");
  KernelArg a;
  a.size = sizeof(T);
  std::memcpy(a.bytes, &v, sizeof(T));
  return a;
}

// Device time of a span of queued commands, read after Queue::finish().
struct TimedSpan {
  std::string name;
  double milliseconds = 0;
};

// A point in one queue's commands (Queue::record, write_async, read_async):
// done once every command queued on that queue up to it has finished. Copies
// share one backend event; an empty Event is done. wait() and done() may be
// called from any host thread, from several at once. An Event may outlive its
// queue and device, not its backend's runtime.
class Event {
 public:
  // The backend's side (a cudaEvent_t, a cl_event).
  class Impl {
   public:
    virtual ~Impl() = default;
    virtual void wait() = 0;
    virtual bool done() = 0;
    virtual void* native_handle() = 0;
  };
  Event() = default;
  explicit Event(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

  bool valid() const { return impl_ != nullptr; }
  // Blocks the calling thread until the event is done (CUDA: it sleeps, a
  // blocking-sync event). Throws RunError when a command before it failed.
  void wait() const {
    if (impl_) impl_->wait();
  }
  // Whether it is done, without blocking; throws RunError as wait() does.
  bool done() const { return !impl_ || impl_->done(); }
  // The cudaEvent_t on CUDA, the cl_event on OpenCL; nullptr when empty.
  void* native_handle() const { return impl_ ? impl_->native_handle() : nullptr; }
  Impl* impl() const { return impl_.get(); }

 private:
  std::shared_ptr<Impl> impl_;
};

class Device;

// How Queue::copy_peer reaches another device's buffers.
enum class PeerCopy {
  none,         // it cannot (OpenCL devices in different contexts, another backend)
  same_device,  // the other is this device
  direct,       // device to device (CUDA peer access enabled: NVLink or PCIe)
  driver,       // the driver copies, staging through host memory (CUDA without peer access)
};
// "none", "same-device", "direct", "driver".
const char* peer_copy_name(PeerCopy path);

// In-order command queue / stream. Commands are asynchronous; finish() waits.
// Spans group commands into named phases timed on the device (CUDA events or
// OpenCL profiling: start of the first command to end of the last).
//
// Threads: any host thread may call a queue's methods, not only the one that
// created it, and several threads may call them at once: the backend
// serialises the calls on one queue with a lock, so each thread's commands
// keep their order, threads' commands interleave in the order their calls
// took the lock, and an open span takes every thread's commands. A blocking
// call (finish, take_spans, OpenCL's write and read) holds the queue until it
// returns. On OpenCL a Kernel's arguments live in its cl_kernel: do not launch
// one Kernel from two threads at once, on any queues. Destroying a queue is
// for one thread alone, once the others are done with it.
class Queue {
 public:
  virtual ~Queue() = default;
  virtual void write(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) = 0;
  virtual void read(void* dst, const Buffer& src, std::size_t src_offset, std::size_t bytes) = 0;
  virtual void copy(Buffer& dst, std::size_t dst_offset, const Buffer& src, std::size_t src_offset,
                    std::size_t bytes) = 0;
  // Copies from `src` (a buffer of this queue's device) into `dst`, a buffer
  // of `dst_device`, where this queue's Device::peer_copy(dst_device) says
  // it can: CUDA cudaMemcpyPeerAsync; elsewhere copy() (one device, one context).
  virtual void copy_peer(Buffer& dst, const Device& dst_device, std::size_t dst_offset,
                         const Buffer& src, std::size_t src_offset, std::size_t bytes);
  virtual void fill_zero(Buffer& dst, std::size_t offset, std::size_t bytes) = 0;
  // All of `image` from width() x height() floats, row after row. Default:
  // a RunError (the backend has no images).
  virtual void write_image(Image2D& image, const float* src);
  virtual void launch_args(const Kernel& kernel, LaunchShape shape,
                           const std::vector<KernelArg>& args) = 0;
  virtual void finish() = 0;

  // An event that is done once every command queued here so far has finished
  // (CUDA cudaEventRecord; OpenCL a marker, then a flush). Empty on cpu.
  virtual Event record() = 0;
  // Commands queued here after this call start only once `event` is done,
  // with no host wait (CUDA cudaStreamWaitEvent; OpenCL a barrier whose wait
  // list is the event). `event` comes from any queue of the same device (CUDA:
  // of any CUDA device; OpenCL: of the same context); one of another backend
  // or OpenCL context is a RunError (cpu: a host wait for any event). An empty
  // event asks for nothing.
  virtual void wait_for(const Event& event) = 0;
  // Host-to-device copy of `bytes` at `src_offset` of host memory `src`,
  // asynchronous for the host: it returns at once with an event that is done
  // once the copy (and everything queued before it) has finished; until then
  // leave those bytes of `src` alone. Pinned (or mapped) memory overlaps with
  // kernels; pageable memory is correct but the backend may copy it before
  // returning. This is the CPU assembly stage's hand-off: fill a pinned buffer,
  // write_async it, refill it after event.wait() (or once event.done()).
  virtual Event write_async(Buffer& dst, std::size_t dst_offset, const HostBuffer& src,
                            std::size_t src_offset, std::size_t bytes) = 0;
  // The other way: read `dst`'s bytes only once the returned event is done.
  virtual Event read_async(HostBuffer& dst, std::size_t dst_offset, const Buffer& src,
                           std::size_t src_offset, std::size_t bytes) = 0;

  virtual void begin_span(const std::string& name) = 0;
  virtual void end_span() = 0;
  // Completed spans since the last call (finishes the queue first), in order.
  virtual std::vector<TimedSpan> take_spans() = 0;

  // For backend-specific code (CUDA graphs, cooperative launches): the
  // cudaStream_t on CUDA, the cl_command_queue on OpenCL, nullptr on cpu.
  // Owned by the queue.
  virtual void* native_handle() { return nullptr; }

  template <class... Args>
  void launch(const Kernel& kernel, LaunchShape shape, const Args&... args) {
    launch_args(kernel, shape, std::vector<KernelArg>{make_arg(args)...});
  }
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;
  // Throws DeviceOutOfMemory when the allocation cannot be made, or when it
  // would pass the memory budget (set_memory_budget).
  Buffer allocate(std::size_t bytes);
  // Host memory of `kind` (see HostMemory). Throws DeviceOutOfMemory when it
  // cannot be had. A pinned request larger than the backend can pin at once
  // (OpenCL: above max_allocation_bytes) falls back to pageable memory: check
  // kind(). The buffer may outlive the Device (not its backend's runtime).
  virtual HostBuffer allocate_host(std::size_t bytes, HostMemory kind) = 0;
  // Pinned or pageable: the form used before HostMemory existed.
  HostBuffer allocate_host(std::size_t bytes, bool pinned) {
    return allocate_host(bytes, pinned ? HostMemory::pinned : HostMemory::pageable);
  }
  // A width x height image of floats for kernels to read (Image2D). Throws
  // DeviceOutOfMemory when it cannot be had (or would pass the memory budget,
  // counted as width * height * 4 bytes), RunError when the backend has no
  // images or the size exceeds DeviceInfo::image2d_max_width / _height.
  Image2D allocate_image_f32(std::size_t width, std::size_t height);

  // Memory budget: device memory (allocate, allocate_image_f32) counts against
  // it, by the bytes asked for, until the Buffer or Image2D goes (also after
  // the Device). An allocation that would take memory_in_use() past a
  // non-zero budget throws DeviceOutOfMemory naming the budget, the request
  // and the bytes in use. 0: no budget (the default). Host memory of any
  // HostMemory kind does not count. A budget below what is in use frees
  // nothing: allocations fail until enough is freed. One budget per Device
  // object (a GPU opened twice has two). Thread-safe.
  void set_memory_budget(std::uint64_t bytes) { budget_->set_limit(bytes); }
  std::uint64_t memory_budget() const { return budget_->limit(); }
  std::uint64_t memory_in_use() const { return budget_->in_use(); }
  // Free device memory as the driver reports it: CUDA cudaMemGetInfo;
  // elsewhere (OpenCL has no query) global_memory_bytes less memory_in_use().
  virtual std::uint64_t device_free_memory();
  // What new allocations may take: min(device_free_memory(), budget less in
  // use), for code that sizes itself to the device.
  std::uint64_t memory_available();
  // Throws KernelBuildError with the compiler log on failure. Cached per source
  // name; several threads may build different programs at once.
  virtual std::shared_ptr<Program> build(const ProgramSource& source) = 0;
  // The device's default queue, used by single-stream code.
  virtual Queue& queue() = 0;
  // Another independent in-order queue (CUDA stream / OpenCL command queue),
  // for pipelines that overlap copies and kernels (BigKernel) or several
  // streams per device (stream graphs). Owned by the caller; must not outlive the device.
  virtual std::unique_ptr<Queue> create_queue() = 0;

  // For backend-specific code: the cl_context on OpenCL; nullptr on CUDA (the
  // device is DeviceInfo::index in the primary context: call make_current(),
  // then the CUDA runtime API) and on cpu.
  virtual void* native_handle() { return nullptr; }
  // Makes this device current for the calling host thread: cudaSetDevice(index)
  // on CUDA (for threads that drive one GPU each), nothing elsewhere.
  virtual void make_current() {}
  // Whether and how this device's queues can copy into buffers of `other`
  // (Queue::copy_peer); on CUDA this enables peer access where the hardware
  // allows it. Default: same_device for this device, none otherwise.
  virtual PeerCopy peer_copy(Device& other);

 protected:
  // The backends' allocations, before the budget (allocate, allocate_image_f32).
  virtual Buffer allocate_memory(std::size_t bytes) = 0;
  // Default: a RunError (the backend has no images).
  virtual Image2D allocate_image_memory(std::size_t width, std::size_t height);

 private:
  std::shared_ptr<MemoryBudget> budget_ = std::make_shared<MemoryBudget>();
};

// Throws RunError unless `info`'s device can hold a width x height Image2D.
void check_image_size(const DeviceInfo& info, std::size_t width, std::size_t height);

// Throws RunError unless `bytes` at `offset` lie inside `host` (Queue::
// write_async and read_async); `what` names the call.
void check_host_range(const HostBuffer& host, std::size_t offset, std::size_t bytes,
                      const char* what);

// Throws RunError naming the device and its backend unless kernels there use
// mapped host memory in place (DeviceInfo::zero_copy_host_memory): for code
// whose mapped data must never be copied to the device (larger than it).
void require_zero_copy(const DeviceInfo& info);

// Whether kernels on the device have the dialect's warp vote and shuffle
// (HARNESS_HAS_WARP_VOTE: CUDA, and NVIDIA's OpenCL through inline PTX).
bool has_warp_vote(const DeviceInfo& info);

// Devices of one backend that this machine has (empty when none; `why_none`
// says why, e.g. "no CUDA driver").
std::vector<DeviceInfo> list_devices(Kind kind, std::string* why_none = nullptr);
// Opens device `index` of `kind`; throws NoDevice when it does not exist.
std::unique_ptr<Device> open_device(Kind kind, int index);

}  // namespace harness::backend
