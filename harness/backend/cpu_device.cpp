#include "harness/backend/cpu_device.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/huge_page_array.h"

namespace harness::backend::cpu {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown CPU";
}

namespace {
// Bytes of the pages sysconf reports for `name` (_SC_PHYS_PAGES, _SC_AVPHYS_PAGES); 0 if unknown.
std::uint64_t page_bytes(int name) {
  long pages = sysconf(name);
  long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : 0;
}
}  // namespace

std::uint64_t host_memory_bytes() { return page_bytes(_SC_PHYS_PAGES); }

std::uint64_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  const std::string key = "MemAvailable:";
  for (std::string line; std::getline(meminfo, line);) {
    if (line.compare(0, key.size(), key) == 0)
      return std::strtoull(line.c_str() + key.size(), nullptr, 10) * 1024;  // kB
  }
  return page_bytes(_SC_AVPHYS_PAGES);
}

std::vector<DeviceInfo> list_devices() {
  DeviceInfo d;
  d.kind = Kind::cpu;
  d.index = 0;
  d.name = cpu_model_name();
  d.vendor = "host";
  d.type = "cpu";
  d.platform = "native threads";
  d.global_memory_bytes = host_memory_bytes();
  d.max_allocation_bytes = d.global_memory_bytes;
  d.compute_units = static_cast<int>(harness::usable_cores());
  d.zero_copy_host_memory = true;
  return {d};
}

namespace {

class HostQueue final : public Queue {
 public:
  void write(Buffer& dst, std::size_t off, const void* src, std::size_t bytes) override {
    std::memcpy(static_cast<char*>(dst.handle()) + off, src, bytes);
  }
  void read(void* dst, const Buffer& src, std::size_t off, std::size_t bytes) override {
    std::memcpy(dst, static_cast<const char*>(src.handle()) + off, bytes);
  }
  void copy(Buffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
            std::size_t bytes) override {
    std::memcpy(static_cast<char*>(dst.handle()) + doff,
                static_cast<const char*>(src.handle()) + soff, bytes);
  }
  void fill_zero(Buffer& dst, std::size_t off, std::size_t bytes) override {
    std::memset(static_cast<char*>(dst.handle()) + off, 0, bytes);
  }
  void launch_args(const Kernel& kernel, LaunchShape, const std::vector<KernelArg>&) override {
    throw RunError("the cpu backend runs no kernels (asked for '" + kernel.name() + "')");
  }
  void finish() override {}
  // Every command is done when its call returns: events are empty, and a
  // wait for another backend's event is a host wait.
  Event record() override { return {}; }
  void wait_for(const Event& event) override { event.wait(); }
  Event write_async(Buffer& dst, std::size_t doff, const HostBuffer& src, std::size_t soff,
                    std::size_t bytes) override {
    check_host_range(src, soff, bytes, "write_async");
    write(dst, doff, static_cast<const char*>(src.data()) + soff, bytes);
    return {};
  }
  Event read_async(HostBuffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
                   std::size_t bytes) override {
    check_host_range(dst, doff, bytes, "read_async");
    read(static_cast<char*>(dst.data()) + doff, src, soff, bytes);
    return {};
  }
  void begin_span(const std::string&) override {}
  void end_span() override {}
  std::vector<TimedSpan> take_spans() override { return {}; }
};

class HostDevice final : public Device {
  // Large buffers on transparent huge pages (huge_page_array.h): the CPU
  // runtimes scan gigabytes of them.
  static void* allocate(std::size_t bytes) {
    try {
      return allocate_huge(bytes ? bytes : 1);
    } catch (const std::bad_alloc&) {
      throw DeviceOutOfMemory("out of host memory allocating " + std::to_string(bytes) + " bytes");
    }
  }

 public:
  HostDevice() : info_(list_devices().front()) {}
  const DeviceInfo& info() const override { return info_; }
  Buffer allocate_memory(std::size_t bytes) override {
    void* p = allocate(bytes);
    return Buffer(p, bytes, [](void* q) { std::free(q); });
  }
  using Device::allocate_host;
  // Every kind is plain memory; mapped memory's device view is the same
  // pointer (owned by the HostBuffer).
  HostBuffer allocate_host(std::size_t bytes, HostMemory kind) override {
    void* p = allocate(bytes);
    if (kind != HostMemory::mapped) {
      return HostBuffer(
          p, bytes, [](void* q) { std::free(q); }, kind);
    }
    return HostBuffer(
        p, bytes, kind, [p] { std::free(p); }, Buffer(p, bytes, nullptr));
  }
  std::shared_ptr<Program> build(const ProgramSource& source) override {
    throw KernelBuildError("the cpu backend builds no kernels (program '" + source.name + "')", "");
  }
  Queue& queue() override { return queue_; }
  std::unique_ptr<Queue> create_queue() override { return std::make_unique<HostQueue>(); }

 private:
  DeviceInfo info_;
  HostQueue queue_;
};

}  // namespace

std::unique_ptr<Device> open_device(int index) {
  if (index != 0)
    throw NoDevice("no cpu device " + std::to_string(index) + " (the host is device 0)");
  return std::make_unique<HostDevice>();
}

}  // namespace harness::backend::cpu
