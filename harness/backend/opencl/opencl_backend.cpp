#include "harness/backend/opencl/opencl_backend.h"

#include <CL/cl.h>
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "harness/core/embedded_files.h"
#include "harness/core/errors.h"

namespace harness::backend::opencl {

const char* error_name(int code) {
  switch (code) {
#define HARNESS_CL_ERR(x) \
  case x:                 \
    return #x;
    HARNESS_CL_ERR(CL_SUCCESS)
    HARNESS_CL_ERR(CL_DEVICE_NOT_FOUND)
    HARNESS_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    HARNESS_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    HARNESS_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    HARNESS_CL_ERR(CL_OUT_OF_RESOURCES)
    HARNESS_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    HARNESS_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    HARNESS_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    HARNESS_CL_ERR(CL_INVALID_VALUE)
    HARNESS_CL_ERR(CL_INVALID_DEVICE)
    HARNESS_CL_ERR(CL_INVALID_CONTEXT)
    HARNESS_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    HARNESS_CL_ERR(CL_INVALID_MEM_OBJECT)
    HARNESS_CL_ERR(CL_INVALID_PROGRAM)
    HARNESS_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    HARNESS_CL_ERR(CL_INVALID_KERNEL_NAME)
    HARNESS_CL_ERR(CL_INVALID_KERNEL)
    HARNESS_CL_ERR(CL_INVALID_ARG_INDEX)
    HARNESS_CL_ERR(CL_INVALID_ARG_VALUE)
    HARNESS_CL_ERR(CL_INVALID_ARG_SIZE)
    HARNESS_CL_ERR(CL_INVALID_KERNEL_ARGS)
    HARNESS_CL_ERR(CL_INVALID_WORK_DIMENSION)
    HARNESS_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    HARNESS_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    HARNESS_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    HARNESS_CL_ERR(CL_INVALID_EVENT)
    HARNESS_CL_ERR(CL_INVALID_OPERATION)
    HARNESS_CL_ERR(CL_INVALID_BUFFER_SIZE)
    HARNESS_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    HARNESS_CL_ERR(CL_INVALID_PLATFORM)
    HARNESS_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    HARNESS_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef HARNESS_CL_ERR
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
  }
}

namespace {

bool is_out_of_memory(cl_int err) {
  return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
         err == CL_OUT_OF_HOST_MEMORY;
}

// Throws the error type a caller can act on: out-of-memory conditions surface
// as DeviceOutOfMemory wherever the driver reports them (allocation is lazy on
// several platforms, so an enqueue may be the first to fail).
void check(cl_int err, const char* what, const std::string& context = {}) {
  if (err == CL_SUCCESS) return;
  std::string msg = fmt::format("OpenCL error in {}{}: {} ({})", what,
                                context.empty() ? "" : " (" + context + ")", error_name(err), err);
  if (is_out_of_memory(err)) throw DeviceOutOfMemory(msg);
  throw RunError(msg);
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what, T fallback = T{}) {
  T v{};
  return clGetDeviceInfo(d, what, sizeof(T), &v, nullptr) == CL_SUCCESS ? v : fallback;
}

// PCI location: cl_khr_pci_bus_info where the driver has it, else NVIDIA's
// cl_nv_device_attribute_query (bus, slot = device << 3 | function, and the
// domain on drivers that know CL_DEVICE_PCI_DOMAIN_ID_NV). Empty when unknown.
std::string pci_bus_id(cl_device_id d, const std::string& extensions) {
  constexpr cl_device_info kPciBusInfoKhr = 0x410F;
  constexpr cl_device_info kPciBusIdNv = 0x4008, kPciSlotIdNv = 0x4009, kPciDomainIdNv = 0x400A;
  if (extensions.find("cl_khr_pci_bus_info") != std::string::npos) {
    struct {
      cl_uint domain, bus, device, function;
    } where{};
    if (clGetDeviceInfo(d, kPciBusInfoKhr, sizeof where, &where, nullptr) == CL_SUCCESS) {
      return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", where.domain, where.bus, where.device,
                         where.function);
    }
  }
  if (extensions.find("cl_nv_device_attribute_query") != std::string::npos) {
    cl_uint bus = 0, slot = 0, domain = 0;
    if (clGetDeviceInfo(d, kPciBusIdNv, sizeof bus, &bus, nullptr) != CL_SUCCESS ||
        clGetDeviceInfo(d, kPciSlotIdNv, sizeof slot, &slot, nullptr) != CL_SUCCESS) {
      return {};
    }
    const std::string rest =
        fmt::format("{:02x}:{:02x}.{:x}", bus & 0xffu, (slot >> 3) & 0x1fu, slot & 7u);
    if (clGetDeviceInfo(d, kPciDomainIdNv, sizeof domain, &domain, nullptr) == CL_SUCCESS) {
      return fmt::format("{:04x}:{}", domain, rest);
    }
    return rest;
  }
  return {};
}

struct Found {
  cl_platform_id platform;
  cl_device_id device;
};

std::vector<Found> enumerate(std::string* why_none) {
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err != CL_SUCCESS || np == 0) {
    if (why_none) {
      *why_none = fmt::format(
          "OpenCL: no platform ({}); install an ICD (e.g. pocl-opencl-icd) or point "
          "OCL_ICD_VENDORS at a folder of .icd files",
          err == CL_SUCCESS ? "0 platforms" : error_name(err));
    }
    return {};
  }
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  std::vector<Found> found;
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devs(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr);
    for (cl_device_id d : devs) found.push_back({p, d});
  }
  if (found.empty() && why_none) *why_none = "OpenCL: platforms found but no devices";
  return found;
}

DeviceInfo describe(const Found& f, int index) {
  DeviceInfo info;
  info.kind = Kind::opencl;
  info.index = index;
  info.name = device_string(f.device, CL_DEVICE_NAME);
  info.vendor = device_string(f.device, CL_DEVICE_VENDOR);
  auto type = device_value<cl_device_type>(f.device, CL_DEVICE_TYPE);
  info.type = (type & CL_DEVICE_TYPE_GPU)   ? "gpu"
              : (type & CL_DEVICE_TYPE_CPU) ? "cpu"
                                            : "accelerator";
  info.driver_version = device_string(f.device, CL_DRIVER_VERSION);
  info.api_version = device_string(f.device, CL_DEVICE_VERSION);
  info.platform = platform_string(f.platform, CL_PLATFORM_NAME) + " / " +
                  platform_string(f.platform, CL_PLATFORM_VERSION);
  info.global_memory_bytes = device_value<cl_ulong>(f.device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.max_allocation_bytes = device_value<cl_ulong>(f.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.local_memory_bytes = device_value<cl_ulong>(f.device, CL_DEVICE_LOCAL_MEM_SIZE);
  info.l2_cache_bytes = device_value<cl_ulong>(f.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  info.l2_cache_source = "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE";
  info.compute_units =
      static_cast<int>(device_value<cl_uint>(f.device, CL_DEVICE_MAX_COMPUTE_UNITS));
  info.max_work_group_size =
      static_cast<int>(device_value<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  info.clock_mhz = static_cast<int>(device_value<cl_uint>(f.device, CL_DEVICE_MAX_CLOCK_FREQUENCY));
  std::string ext = device_string(f.device, CL_DEVICE_EXTENSIONS);
  if (ext.find("cl_nv_device_attribute_query") != std::string::npos) {
    constexpr cl_device_info kCcMajor = 0x4000, kCcMinor = 0x4001, kWarp = 0x4003;
    info.warp_size = static_cast<int>(device_value<cl_uint>(f.device, kWarp));
    info.compute_capability = fmt::format("{}.{}", device_value<cl_uint>(f.device, kCcMajor),
                                          device_value<cl_uint>(f.device, kCcMinor));
  }
  if (device_value<cl_bool>(f.device, CL_DEVICE_IMAGE_SUPPORT)) {
    info.image2d_max_width = device_value<size_t>(f.device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    info.image2d_max_height = device_value<size_t>(f.device, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  }
  info.pci_bus_id = pci_bus_id(f.device, ext);
  info.zero_copy_host_memory = device_value<cl_bool>(f.device, CL_DEVICE_HOST_UNIFIED_MEMORY) != 0;
  return info;
}

class ClProgram final : public Program {
 public:
  ClProgram(cl_program program, std::string name, std::string log)
      : program_(program), name_(std::move(name)), log_(std::move(log)) {}
  ~ClProgram() override {
    for (auto& [_, k] : kernels_) clReleaseKernel(k);
    clReleaseProgram(program_);
  }
  Kernel kernel(const std::string& name) override {
    auto it = kernels_.find(name);
    if (it == kernels_.end()) {
      cl_int err = CL_SUCCESS;
      cl_kernel k = clCreateKernel(program_, name.c_str(), &err);
      if (err != CL_SUCCESS) {
        throw RunError(fmt::format("kernel '{}' not found in program '{}' ({})", name, name_,
                                   error_name(err)));
      }
      it = kernels_.emplace(name, k).first;
    }
    return Kernel(it->second, name);
  }
  std::string build_log() const override { return log_; }

 private:
  cl_program program_;
  std::string name_;
  std::string log_;
  std::map<std::string, cl_kernel> kernels_;
};

// Mapped host buffers of one context (cl_mem -> its host mapping), shared by
// the device, its queues and the HostBuffers (which may outlive the device).
// OpenCL lets no command use a region while it is mapped, and NVIDIA's driver
// keeps its own device copy of a CL_MEM_ALLOC_HOST_PTR buffer: commands that
// use a mapped buffer are bracketed by an unmap and a map at the same address.
class MappedViews {
 public:
  struct Mapping {
    void* pointer = nullptr;
    std::size_t bytes = 0;  // the mapped size
  };
  void add(cl_mem m, Mapping mapping) {
    std::lock_guard<std::mutex> lock(mutex_);
    mappings_[m] = mapping;
  }
  void remove(cl_mem m) {
    std::lock_guard<std::mutex> lock(mutex_);
    mappings_.erase(m);
  }
  std::optional<Mapping> find(cl_mem m) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = mappings_.find(m);
    if (it == mappings_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::mutex mutex_;
  std::map<cl_mem, Mapping> mappings_;
};

// An Event's cl_event (owned: released with the last copy of the Event).
class ClEvent final : public Event::Impl {
 public:
  explicit ClEvent(cl_event event) : event_(event) {}
  ClEvent(const ClEvent&) = delete;
  ClEvent& operator=(const ClEvent&) = delete;
  ~ClEvent() override { clReleaseEvent(event_); }
  void wait() override {
    const cl_int err = clWaitForEvents(1, &event_);
    if (status() < 0 || err != CL_SUCCESS) failed(err);
  }
  bool done() override {
    const cl_int s = status();
    if (s < 0) failed(s);
    return s == CL_COMPLETE;
  }
  void* native_handle() override { return event_; }
  cl_event event() const { return event_; }

 private:
  cl_int status() const {
    cl_int s = CL_QUEUED;
    const cl_int err =
        clGetEventInfo(event_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
    return err == CL_SUCCESS ? s : err;
  }
  [[noreturn]] void failed(cl_int err) const {
    throw RunError(fmt::format(
        "OpenCL event failed: {} ({}); a command queued before it failed (execution status {})",
        error_name(err), err, status()));
  }
  cl_event event_;
};

class ClQueue final : public Queue {
 public:
  ClQueue(cl_context ctx, cl_device_id dev, std::shared_ptr<MappedViews> views)
      : context_(ctx),
        device_(dev),
        local_memory_bytes_(device_value<cl_ulong>(dev, CL_DEVICE_LOCAL_MEM_SIZE)),
        views_(std::move(views)) {
    cl_int err = CL_SUCCESS;
    queue_ = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
  }
  ~ClQueue() override {
    clFinish(queue_);
    release_spans();
    clReleaseCommandQueue(queue_);
  }

  // Writes and reads are blocking: the host pointer may be reused at once, which
  // is the stricter form of the Queue contract.
  void write(Buffer& dst, std::size_t off, const void* src, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(dst, off, bytes, "write");
    if (bytes == 0) return;
    cl_event ev = nullptr;
    check(clEnqueueWriteBuffer(queue_, mem(dst), CL_TRUE, off, bytes, src, 0, nullptr, &ev),
          "clEnqueueWriteBuffer");
    note(ev);
  }
  void read(void* dst, const Buffer& src, std::size_t off, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(src, off, bytes, "read");
    if (bytes == 0) return;
    with_mapped({&src}, [&] {
      cl_event ev = nullptr;
      check(clEnqueueReadBuffer(queue_, mem(src), CL_TRUE, off, bytes, dst, 0, nullptr, &ev),
            "clEnqueueReadBuffer");
      note(ev);
    });
  }
  void copy(Buffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
            std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(dst, doff, bytes, "copy");
    bounds(src, soff, bytes, "copy");
    if (bytes == 0) return;
    with_mapped({&src}, [&] {
      cl_event ev = nullptr;
      check(clEnqueueCopyBuffer(queue_, mem(src), mem(dst), soff, doff, bytes, 0, nullptr, &ev),
            "clEnqueueCopyBuffer");
      note(ev);
    });
  }
  void fill_zero(Buffer& dst, std::size_t off, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(dst, off, bytes, "fill");
    if (bytes == 0) return;
    const cl_uchar zero = 0;
    cl_event ev = nullptr;
    check(clEnqueueFillBuffer(queue_, mem(dst), &zero, 1, off, bytes, 0, nullptr, &ev),
          "clEnqueueFillBuffer");
    note(ev);
  }
  void write_image(Image2D& image, const float* src) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!image.valid()) throw RunError("write_image into an empty image");
    if (!src) throw RunError("write_image from a null host pointer");
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {image.width(), image.height(), 1};
    cl_event ev = nullptr;
    check(clEnqueueWriteImage(queue_, static_cast<cl_mem>(image.handle()), CL_FALSE, origin, region,
                              0, 0, src, 0, nullptr, &ev),
          "clEnqueueWriteImage");
    note(ev);
  }
  void launch_args(const Kernel& kernel, LaunchShape shape,
                   const std::vector<KernelArg>& args) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shape.groups == 0 || shape.group_size == 0) {
      throw RunError(fmt::format("empty launch shape for kernel '{}'", kernel.name()));
    }
    auto k = static_cast<cl_kernel>(kernel.handle());
    bool dynamic_local = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const KernelArg& a = args[i];
      cl_int err;
      if (a.local) {
        check_dynamic_local(kernel.name(), i, a.local_bytes, dynamic_local);
        dynamic_local = true;
        err = clSetKernelArg(k, static_cast<cl_uint>(i), a.local_bytes, nullptr);
      } else if (a.buffer) {
        cl_mem m = mem(*a.buffer);
        err = clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &m);
      } else if (a.image) {
        cl_mem m = static_cast<cl_mem>(a.image->handle());
        err = clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &m);
      } else {
        err = clSetKernelArg(k, static_cast<cl_uint>(i), a.size, a.bytes);
      }
      check(err, "clSetKernelArg", fmt::format("kernel '{}', argument {}", kernel.name(), i));
    }
    if (dynamic_local) {
      // Static __local arrays plus the dynamic argument, as the driver counts them.
      cl_ulong used = 0;
      if (clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                   nullptr) == CL_SUCCESS &&
          used > local_memory_bytes_) {
        throw RunError(fmt::format(
            "kernel '{}' needs {} bytes of local memory (static and dynamic) but the device has "
            "{} per work-group",
            kernel.name(), used, local_memory_bytes_));
      }
    }
    size_t local = shape.group_size;
    size_t global = static_cast<size_t>(shape.groups) * local;
    std::vector<const Buffer*> buffers;
    for (const KernelArg& a : args) {
      if (a.buffer) buffers.push_back(a.buffer);
    }
    with_mapped(buffers, [&] {
      cl_event ev = nullptr;
      check(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel",
            fmt::format("kernel '{}', {} x {}", kernel.name(), shape.groups, local));
      note(ev);
    });
  }
  void finish() override {
    std::lock_guard<std::mutex> lock(mutex_);
    check(clFinish(queue_), "clFinish");
  }

  Event record() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return record_locked();
  }
  void wait_for(const Event& event) override {
    if (!event.valid()) return;
    auto* cl = dynamic_cast<ClEvent*>(event.impl());
    if (!cl) throw RunError("wait_for on an OpenCL queue: the event is not an OpenCL event");
    cl_event ev = cl->event();
    cl_context context = nullptr;
    check(clGetEventInfo(ev, CL_EVENT_CONTEXT, sizeof context, &context, nullptr),
          "clGetEventInfo");
    if (context != context_) {
      throw RunError(
          "wait_for on an OpenCL queue: the event comes from another OpenCL context (another "
          "opened device); wait for it on the host (Event::wait) instead");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    check(clEnqueueBarrierWithWaitList(queue_, 1, &ev, nullptr), "clEnqueueBarrierWithWaitList");
  }
  Event write_async(Buffer& dst, std::size_t doff, const HostBuffer& src, std::size_t soff,
                    std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(dst, doff, bytes, "write_async");
    check_host_range(src, soff, bytes, "write_async");
    if (bytes == 0) return record_locked();
    cl_event ev = nullptr;
    check(clEnqueueWriteBuffer(queue_, mem(dst), CL_FALSE, doff, bytes,
                               static_cast<const char*>(src.data()) + soff, 0, nullptr, &ev),
          "clEnqueueWriteBuffer", "write_async");
    Event event = keep(ev);
    check(clFlush(queue_), "clFlush");
    return event;
  }
  Event read_async(HostBuffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
                   std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    bounds(src, soff, bytes, "read_async");
    check_host_range(dst, doff, bytes, "read_async");
    if (bytes == 0) return record_locked();
    Event event;
    with_mapped({&src}, [&] {
      cl_event ev = nullptr;
      check(clEnqueueReadBuffer(queue_, mem(src), CL_FALSE, soff, bytes,
                                static_cast<char*>(dst.data()) + doff, 0, nullptr, &ev),
            "clEnqueueReadBuffer", "read_async");
      event = keep(ev);
    });
    check(clFlush(queue_), "clFlush");
    return event;
  }
  void* native_handle() override { return queue_; }

  void begin_span(const std::string& name) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (open_) throw RunError("span '" + name + "' begun inside span '" + current_.name + "'");
    open_ = true;
    current_ = Span{name, nullptr, nullptr};
  }
  void end_span() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!open_) throw RunError("end_span without begin_span");
    open_ = false;
    spans_.push_back(current_);
    current_ = Span{};
  }
  std::vector<TimedSpan> take_spans() override {
    std::lock_guard<std::mutex> lock(mutex_);
    check(clFinish(queue_), "clFinish");
    std::vector<TimedSpan> out;
    for (auto& s : spans_) {
      double ms = 0;
      if (s.first) {
        cl_event last = s.last ? s.last : s.first;  // a one-command span
        // NVIDIA's OpenCL can still report a command of a finished queue as
        // CL_SUBMITTED (seen with several queues in flight), and then has no
        // profiling info for it: wait on the events themselves.
        cl_event ends[2] = {s.first, last};
        check(clWaitForEvents(2, ends), "clWaitForEvents", fmt::format("span '{}'", s.name));
        cl_ulong start = 0, end = 0;
        check(clGetEventProfilingInfo(s.first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      nullptr),
              "clGetEventProfilingInfo", span_context(s.name, "start", s.first));
        check(clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
              "clGetEventProfilingInfo", span_context(s.name, "end", last));
        ms = end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
      }
      out.push_back({s.name, ms});
    }
    release_spans();
    return out;
  }

 private:
  struct Span {
    std::string name;
    cl_event first = nullptr;
    cl_event last = nullptr;
  };
  static cl_mem mem(const Buffer& b) { return static_cast<cl_mem>(b.handle()); }

  // A marker after everything queued so far, flushed so that another queue or
  // a host thread waiting for it does not wait on an unsubmitted command.
  Event record_locked() {
    cl_event ev = nullptr;
    check(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &ev), "clEnqueueMarkerWithWaitList");
    auto event = Event(std::make_shared<ClEvent>(ev));
    check(clFlush(queue_), "clFlush");
    return event;
  }
  // A command's event, both timed in the open span and handed out.
  Event keep(cl_event ev) {
    Event event(std::make_shared<ClEvent>(ev));
    clRetainEvent(ev);
    note(ev);
    return event;
  }

  // Runs `enqueue` with the mapped host buffers among `buffers` unmapped before
  // it and mapped again (non-blocking, at the same address) after it, all in
  // this queue's order and inside the open span: the host sees the command's
  // writes after finish(), as with CUDA's mapped memory.
  template <class Enqueue>
  void with_mapped(const std::vector<const Buffer*>& buffers, Enqueue enqueue) {
    std::vector<std::pair<cl_mem, MappedViews::Mapping>> mapped;
    for (const Buffer* b : buffers) {
      if (!b || !b->valid()) continue;
      cl_mem m = mem(*b);
      bool seen = false;
      for (const auto& entry : mapped) seen = seen || entry.first == m;
      if (seen) continue;
      if (auto mapping = views_->find(m)) mapped.emplace_back(m, *mapping);
    }
    if (mapped.empty()) {
      enqueue();
      return;
    }
    std::size_t unmapped = 0;
    try {
      for (; unmapped < mapped.size(); ++unmapped) {
        const auto& [m, mapping] = mapped[unmapped];
        cl_event ev = nullptr;
        check(clEnqueueUnmapMemObject(queue_, m, mapping.pointer, 0, nullptr, &ev),
              "clEnqueueUnmapMemObject", "mapped host memory used by a command");
        note(ev);
      }
      enqueue();
    } catch (...) {
      remap(mapped, unmapped);
      throw;
    }
    remap(mapped, unmapped);
  }

  void remap(const std::vector<std::pair<cl_mem, MappedViews::Mapping>>& mapped,
             std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const auto& [m, mapping] = mapped[i];
      cl_int err = CL_SUCCESS;
      cl_event ev = nullptr;
      void* p = clEnqueueMapBuffer(queue_, m, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                   mapping.bytes, 0, nullptr, &ev, &err);
      check(err, "clEnqueueMapBuffer", "mapped host memory after a command");
      note(ev);
      if (p != mapping.pointer) {
        throw RunError(fmt::format(
            "OpenCL mapped host memory moved from {} to {} when mapped again: the driver gives "
            "no stable zero-copy mapping",
            mapping.pointer, p));
      }
    }
  }
  void check_dynamic_local(const std::string& kernel, std::size_t index, std::size_t bytes,
                           bool seen_before) const {
    if (seen_before) {
      throw RunError(fmt::format(
          "kernel '{}' argument {}: at most one dynamic local-memory argument per launch", kernel,
          index));
    }
    if (bytes == 0) {
      throw RunError(fmt::format(
          "kernel '{}' argument {}: dynamic local memory of 0 bytes (ask for at least 1)", kernel,
          index));
    }
    if (bytes > local_memory_bytes_) {
      throw RunError(fmt::format(
          "kernel '{}' argument {}: {} bytes of dynamic local memory exceed the device's {} bytes "
          "of local memory per work-group",
          kernel, index, bytes, local_memory_bytes_));
    }
  }
  static void bounds(const Buffer& b, std::size_t off, std::size_t bytes, const char* what) {
    if (off + bytes > b.size()) {
      throw RunError(fmt::format("{} of {} bytes at offset {} overruns a buffer of {} bytes", what,
                                 bytes, off, b.size()));
    }
  }
  // Keeps the first and the latest event of the open span; drops the others.
  // For errors: which span, and the command's execution status (negative:
  // the command failed, e.g. a kernel that faulted).
  static std::string span_context(const std::string& name, const char* end, cl_event ev) {
    cl_int status = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    cl_command_type type = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
    return fmt::format("{} of span '{}', command type 0x{:x}, execution status {}", end, name, type,
                       status);
  }
  void note(cl_event ev) {
    if (!open_) {
      clReleaseEvent(ev);
      return;
    }
    if (!current_.first) {
      current_.first = ev;
      return;
    }
    if (current_.last) clReleaseEvent(current_.last);
    current_.last = ev;
  }
  void release_spans() {
    for (auto& s : spans_) {
      if (s.first) clReleaseEvent(s.first);
      if (s.last) clReleaseEvent(s.last);
    }
    spans_.clear();
  }

  cl_context context_;
  cl_device_id device_;
  cl_ulong local_memory_bytes_;
  std::shared_ptr<MappedViews> views_;
  cl_command_queue queue_ = nullptr;
  std::mutex mutex_;  // one caller at a time (Queue's thread rule)
  bool open_ = false;
  Span current_;
  std::vector<Span> spans_;
};

class ClDevice final : public Device {
 public:
  ClDevice(const Found& f, int index, const std::function<void(DeviceInfo&)>& refine)
      : device_(f.device), info_(describe(f, index)) {
    if (refine) refine(info_);
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    check(err, "clCreateContext", info_.name);
    queue_ = std::make_unique<ClQueue>(context_, device_, views_);
    // Maps and unmaps host buffers, apart from the timed queues.
    host_queue_ = clCreateCommandQueue(context_, device_, 0, &err);
    if (err != CL_SUCCESS) {
      queue_.reset();
      clReleaseContext(context_);
      check(err, "clCreateCommandQueue", "host-memory queue");
    }
  }
  ~ClDevice() override {
    programs_.clear();
    queue_.reset();
    clReleaseCommandQueue(host_queue_);  // host buffers still alive hold their own reference
    clReleaseContext(context_);
  }
  const DeviceInfo& info() const override { return info_; }

  Buffer allocate_memory(std::size_t bytes) override {
    if (bytes > info_.max_allocation_bytes) {
      throw DeviceOutOfMemory(
          fmt::format("out of device memory: {:.1f} MiB exceeds the largest single allocation on "
                      "{} ({:.1f} MiB)",
                      static_cast<double>(bytes) / 1048576.0, info_.name,
                      static_cast<double>(info_.max_allocation_bytes) / 1048576.0));
    }
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
    check(err, "clCreateBuffer", fmt::format("{} bytes on {}", bytes, info_.name));
    return Buffer(m, bytes, [](void* h) { clReleaseMemObject(static_cast<cl_mem>(h)); });
  }

  using Device::allocate_host;
  // pageable: page-aligned malloc. pinned and mapped: the platform's pinned
  // path (NVIDIA's OpenCL best-practice guide): a CL_MEM_ALLOC_HOST_PTR buffer,
  // mapped once for the host and unmapped when the HostBuffer goes; writes and
  // reads from its pointer (clEnqueueWrite/ReadBuffer) run at the pinned rate.
  // mapped also hands kernels the buffer itself as device_view().
  Image2D allocate_image_memory(std::size_t width, std::size_t height) override {
    const cl_image_format format = {CL_R, CL_FLOAT};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(context_, CL_MEM_READ_ONLY, &format, &desc, nullptr, &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES) {
      throw DeviceOutOfMemory(fmt::format("out of device memory: a {} x {} float image on {}",
                                          width, height, info_.name));
    }
    check(err, "clCreateImage", fmt::format("{} x {} floats on {}", width, height, info_.name));
    return Image2D(m, width, height, [](void* h) { clReleaseMemObject(static_cast<cl_mem>(h)); });
  }

  HostBuffer allocate_host(std::size_t bytes, HostMemory kind) override {
    if (kind == HostMemory::pinned && bytes > info_.max_allocation_bytes) {
      kind = HostMemory::pageable;  // larger than one buffer: documented fallback
    }
    if (kind == HostMemory::pageable) {
      std::size_t rounded = ((bytes ? bytes : 1) + 4095) / 4096 * 4096;
      void* p = std::aligned_alloc(4096, rounded);
      if (!p) throw DeviceOutOfMemory(fmt::format("out of host memory allocating {} bytes", bytes));
      return HostBuffer(
          p, bytes, [](void* q) { std::free(q); }, HostMemory::pageable);
    }
    if (bytes > info_.max_allocation_bytes) {
      throw DeviceOutOfMemory(fmt::format(
          "out of host memory: {:.1f} MiB of mapped host memory exceed the largest single "
          "allocation on {} ({:.1f} MiB)",
          static_cast<double>(bytes) / 1048576.0, info_.name,
          static_cast<double>(info_.max_allocation_bytes) / 1048576.0));
    }
    const std::size_t request = bytes ? bytes : 1;
    cl_int err = CL_SUCCESS;
    cl_mem m =
        clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, request, nullptr, &err);
    check(
        err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)",
        fmt::format("{} bytes of {} host memory on {}", bytes, host_memory_name(kind), info_.name));
    void* p = clEnqueueMapBuffer(host_queue_, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, request, 0,
                                 nullptr, nullptr, &err);
    if (err != CL_SUCCESS || !p) {
      clReleaseMemObject(m);
      check(err != CL_SUCCESS ? err : CL_INVALID_VALUE, "clEnqueueMapBuffer",
            fmt::format("{} bytes of {} host memory on {}", bytes, host_memory_name(kind),
                        info_.name));
    }
    cl_command_queue q = host_queue_;
    clRetainCommandQueue(q);
    std::shared_ptr<MappedViews> views;
    if (kind == HostMemory::mapped) {
      views = views_;
      views->add(m, MappedViews::Mapping{p, request});
    }
    auto release = [m, q, p, views] {
      if (views) views->remove(m);
      cl_event done = nullptr;
      if (clEnqueueUnmapMemObject(q, m, p, 0, nullptr, &done) == CL_SUCCESS && done) {
        clWaitForEvents(1, &done);
        clReleaseEvent(done);
      }
      clReleaseMemObject(m);
      clReleaseCommandQueue(q);
    };
    Buffer view = kind == HostMemory::mapped ? Buffer(m, bytes, nullptr) : Buffer();
    return HostBuffer(p, bytes, kind, std::move(release), std::move(view));
  }

  // HARNESS_DUMP_CL=DIR: the built program's binary as DIR/<name>.bin (PTX text on
  // NVIDIA's OpenCL, which micro/atomics/isa_counts.py --ptx reads).
  static void dump_binary(cl_program program, const std::string& source_name, const char* dir) {
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) !=
            CL_SUCCESS ||
        size == 0) {
      return;
    }
    std::string binary(size, '\0');
    unsigned char* ptr = reinterpret_cast<unsigned char*>(binary.data());
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr) != CL_SUCCESS) {
      return;
    }
    std::string name = source_name;
    for (char& c : name) c = (c == '/') ? '_' : c;
    std::ofstream(std::string(dir) + "/" + name + ".bin", std::ios::binary) << binary;
  }

  // Thread-safe: builds of different programs proceed in parallel (OpenCL
  // 1.2's API calls but clSetKernelArg are); the cache is locked only to look
  // up and to insert.
  std::shared_ptr<Program> build(const ProgramSource& source) override {
    {
      std::lock_guard<std::mutex> lock(programs_mutex_);
      auto it = programs_.find(source.name);
      if (it != programs_.end()) return it->second;
    }
    std::string text = compose_source(source.opencl_files) + source.opencl_text;
    if (const char* dir = std::getenv("HARNESS_DUMP_CL")) {
      std::string name = source.name;
      for (char& c : name) c = (c == '/') ? '_' : c;
      std::ofstream(std::string(dir) + "/" + name + ".cl") << text;
    }
    const char* ptr = text.c_str();
    size_t len = text.size();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &ptr, &len, &err);
    check(err, "clCreateProgramWithSource", source.name);
    std::string options = "-cl-std=CL1.2 " + source.opencl_options;
    if (source.max_registers > 0 && takes_register_budget_) {
      options += fmt::format(" -cl-nv-maxrregcount={}", source.max_registers);
    }
    err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    std::string log = build_log(program);
    if (err != CL_SUCCESS) {
      clReleaseProgram(program);
      throw KernelBuildError(
          fmt::format("kernel build failed for program '{}' on {} ({}): {}", source.name,
                      info_.name, error_name(err), first_error_line(log)),
          log);
    }
    if (const char* dir = std::getenv("HARNESS_DUMP_CL")) dump_binary(program, source.name, dir);
    auto p = std::make_shared<ClProgram>(program, source.name, log);
    std::lock_guard<std::mutex> lock(programs_mutex_);
    return programs_.emplace(source.name, p).first->second;  // first build wins
  }
  Queue& queue() override { return *queue_; }
  std::unique_ptr<Queue> create_queue() override {
    return std::make_unique<ClQueue>(context_, device_, views_);
  }
  void* native_handle() override { return context_; }

 private:
  std::string build_log(cl_program program) const {
    size_t n = 0;
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    if (n) clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }
  static std::string first_error_line(const std::string& log) {
    std::size_t pos = log.find("error");
    if (pos == std::string::npos)
      return log.empty() ? "no compiler log" : log.substr(0, log.find('\n'));
    std::size_t start = log.rfind('\n', pos);
    start = start == std::string::npos ? 0 : start + 1;
    return log.substr(start, log.find('\n', pos) - start);
  }

  cl_device_id device_;
  DeviceInfo info_;
  // NVIDIA's compiler options extension: ProgramSource::max_registers applies.
  bool takes_register_budget_ =
      device_string(device_, CL_DEVICE_EXTENSIONS).find("cl_nv_compiler_options") !=
      std::string::npos;
  cl_context context_ = nullptr;
  std::unique_ptr<ClQueue> queue_;
  cl_command_queue host_queue_ = nullptr;
  std::shared_ptr<MappedViews> views_ = std::make_shared<MappedViews>();
  std::mutex programs_mutex_;
  std::map<std::string, std::shared_ptr<Program>> programs_;
};

}  // namespace

std::vector<DeviceInfo> list_devices(std::string* why_none) {
  std::vector<DeviceInfo> out;
  auto found = enumerate(why_none);
  for (std::size_t i = 0; i < found.size(); ++i)
    out.push_back(describe(found[i], static_cast<int>(i)));
  return out;
}

std::unique_ptr<Device> open_device(int index, const std::function<void(DeviceInfo&)>& refine) {
  std::string why;
  auto found = enumerate(&why);
  if (index < 0 || static_cast<std::size_t>(index) >= found.size()) {
    throw NoDevice(
        found.empty() ? why : fmt::format("no OpenCL device {} (found {})", index, found.size()));
  }
  return std::make_unique<ClDevice>(found[static_cast<std::size_t>(index)], index, refine);
}

}  // namespace harness::backend::opencl
