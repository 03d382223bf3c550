// Host memory kinds, dynamic local memory, native handles and device facts of
// the backend layer. Kernel tests run on every kernel backend with a device
// (OpenCL: PoCL here, NVIDIA's driver on a GPU machine; CUDA: skipped without a
// GPU); the cpu device's host memory is tested on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/tests/test_program.h"
#include "harness/core/ceilings.h"
#include "harness/core/errors.h"

#ifdef HARNESS_HAVE_OPENCL
#include <CL/cl.h>
#endif
#ifdef HARNESS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace harness::backend {
namespace {

std::vector<Kind> kernel_backends() {
  std::vector<Kind> kinds;
  for (Kind k : compiled_kinds()) {
    if (k != Kind::cpu) kinds.push_back(k);
  }
  return kinds;
}

std::string kind_test_name(const ::testing::TestParamInfo<Kind>& info) {
  return kind_name(info.param);
}

// Expects `call` to throw RunError whose message contains `part`.
template <class Call>
void expect_run_error(Call call, const std::string& part) {
  try {
    call();
    ADD_FAILURE() << "expected RunError containing '" << part << "'";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

class BackendFeatures : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    std::string why;
    const auto devices = list_devices(GetParam(), &why);
    if (devices.empty()) GTEST_SKIP() << why;
    int index = devices.front().index;
    for (const auto& d : devices) {
      if (d.type == "gpu") {
        index = d.index;
        break;
      }
    }
    device_ = open_device(GetParam(), index);
  }

  std::shared_ptr<Program> program() { return testing::backend_test_program(*device_); }

  std::unique_ptr<Device> device_;
};

TEST_P(BackendFeatures, HostBufferReportsItsKind) {
  for (HostMemory kind : {HostMemory::pageable, HostMemory::pinned, HostMemory::mapped}) {
    HostBuffer h = device_->allocate_host(4096, kind);
    ASSERT_NE(h.data(), nullptr) << host_memory_name(kind);
    EXPECT_EQ(h.size(), 4096u);
    EXPECT_EQ(h.kind(), kind) << host_memory_name(kind);
    if (kind == HostMemory::mapped) {
      EXPECT_TRUE(h.device_view().valid());
      EXPECT_EQ(h.device_view().size(), 4096u);
    } else {
      expect_run_error([&] { (void)h.device_view(); }, "only mapped host memory");
    }
    std::memset(h.data(), 0xab, 4096);  // the whole buffer is writable host memory
    EXPECT_EQ(static_cast<unsigned char*>(h.data())[4095], 0xab);
  }
  // The bool form picks pinned or pageable.
  EXPECT_EQ(device_->allocate_host(64, true).kind(), HostMemory::pinned);
  EXPECT_EQ(device_->allocate_host(64, false).kind(), HostMemory::pageable);
}

TEST_P(BackendFeatures, MovedHostBufferKeepsKindAndView) {
  HostBuffer a = device_->allocate_host(256, HostMemory::mapped);
  void* data = a.data();
  void* view = a.device_view().handle();
  HostBuffer b = std::move(a);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(b.kind(), HostMemory::mapped);
  EXPECT_EQ(b.device_view().handle(), view);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(a.size(), 0u);
  b = device_->allocate_host(128, HostMemory::pinned);  // frees the mapped buffer
  EXPECT_EQ(b.kind(), HostMemory::pinned);
  EXPECT_EQ(b.size(), 128u);
}

TEST_P(BackendFeatures, PinnedHostBufferRoundTrip) {
  const std::size_t count = (1u << 18) + 3;  // 1 MiB + 12 bytes of u32
  const std::size_t bytes = count * sizeof(std::uint32_t);
  HostBuffer in = device_->allocate_host(bytes, HostMemory::pinned);
  HostBuffer out = device_->allocate_host(bytes, HostMemory::pinned);
  ASSERT_EQ(in.kind(), HostMemory::pinned);
  auto* src = static_cast<std::uint32_t*>(in.data());
  auto* dst = static_cast<std::uint32_t*>(out.data());
  for (std::size_t i = 0; i < count; ++i) src[i] = static_cast<std::uint32_t>(i * 2654435761u);
  std::fill(dst, dst + count, 0u);
  Buffer a = device_->allocate(bytes);
  Buffer b = device_->allocate(bytes);
  Queue& q = device_->queue();
  q.write(a, 0, src, bytes);
  q.copy(b, 0, a, 0, bytes);
  q.read(dst, b, 0, bytes);
  q.finish();
  for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(dst[i], src[i]) << i;
  // Partial copies at offsets from the middle of pinned memory.
  q.fill_zero(b, 0, bytes);
  q.write(b, 400, src + 100, 4000);
  std::fill(dst, dst + count, 7u);
  q.read(dst + 1, b, 396, 4008);
  q.finish();
  EXPECT_EQ(dst[0], 7u);
  EXPECT_EQ(dst[1], 0u);
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(dst[2 + i], src[100 + i]) << i;
  EXPECT_EQ(dst[1002], 0u);
  EXPECT_EQ(dst[1003], 7u);
}

TEST_P(BackendFeatures, MappedHostMemorySharedWithKernels) {
  const std::uint32_t n = 3000;
  const std::size_t bytes = n * sizeof(std::uint32_t);
  HostBuffer mapped = device_->allocate_host(bytes, HostMemory::mapped);
  auto* host = static_cast<std::uint32_t*>(mapped.data());
  for (std::uint32_t i = 0; i < n; ++i) host[i] = i * 5 + 1;
  Kernel add = program()->kernel("add_u32");
  Queue& q = device_->queue();
  // Kernel reads the host's values and writes in place: no copy either way.
  q.launch(add, LaunchShape::cover(n, 128), mapped.device_view(), n, std::uint32_t{7});
  q.finish();
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(host[i], i * 5 + 8) << i;
  // New host writes are seen by the next kernel.
  for (std::uint32_t i = 0; i < n; ++i) host[i] = 1000000 - i;
  q.launch(add, LaunchShape::cover(n, 64), mapped.device_view(), n, std::uint32_t{3});
  q.finish();
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(host[i], 1000003 - i) << i;
  // The view is also a copy source into device memory.
  Buffer device_copy = device_->allocate(bytes);
  q.copy(device_copy, 0, mapped.device_view(), 0, bytes);
  std::vector<std::uint32_t> back(n, 0);
  q.read(back.data(), device_copy, 0, bytes);
  q.finish();
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(back[i], 1000003 - i) << i;
  // Another queue of the device, inside a timed span.
  std::unique_ptr<Queue> other = device_->create_queue();
  other->begin_span("mapped");
  other->launch(add, LaunchShape::cover(n, 256), mapped.device_view(), n, std::uint32_t{1});
  other->end_span();
  const auto spans = other->take_spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_GT(spans[0].milliseconds, 0.0);
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(host[i], 1000004 - i) << i;
}

// Zero-copy (DeviceInfo::zero_copy_host_memory, as the driver reports it):
// where the device has it, a kernel reads mapped host memory that the host
// wrote, with no copy; where it has not, require_zero_copy() refuses naming
// the backend, and so does a mapped request on CUDA.
TEST_P(BackendFeatures, ZeroCopyHostMemory) {
  const DeviceInfo& info = device_->info();
  std::cout << info.name << ": zero_copy_host_memory " << info.zero_copy_host_memory << "\n";
#ifdef HARNESS_HAVE_OPENCL
  if (GetParam() == Kind::opencl) {
    cl_device_id id = nullptr;
    ASSERT_EQ(clGetContextInfo(static_cast<cl_context>(device_->native_handle()),
                               CL_CONTEXT_DEVICES, sizeof id, &id, nullptr),
              CL_SUCCESS);
    cl_bool unified = CL_FALSE;
    ASSERT_EQ(clGetDeviceInfo(id, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(info.zero_copy_host_memory, unified != CL_FALSE);
  }
#endif
#ifdef HARNESS_HAVE_CUDA
  if (GetParam() == Kind::cuda) {
    int can_map = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, info.index),
              cudaSuccess);
    EXPECT_EQ(info.zero_copy_host_memory, can_map != 0);
  }
#endif
  if (!info.zero_copy_host_memory) {
    expect_run_error([&] { require_zero_copy(info); },
                     std::string("(backend ") + kind_name(GetParam()) + ")");
    if (GetParam() == Kind::cuda) {
      expect_run_error([&] { (void)device_->allocate_host(4096, HostMemory::mapped); },
                       "cannot map host memory");
    }
    GTEST_SKIP() << info.name << " has no zero-copy host memory (mapped memory is "
                 << (GetParam() == Kind::cuda ? "refused" : "emulated") << ")";
  }
  require_zero_copy(info);
  const std::uint32_t n = 4099;
  const std::size_t bytes = n * sizeof(std::uint32_t);
  HostBuffer mapped = device_->allocate_host(bytes, HostMemory::mapped);
  ASSERT_EQ(mapped.kind(), HostMemory::mapped);
  auto* host = static_cast<std::uint32_t*>(mapped.data());
  Buffer out = device_->allocate(bytes);
  Kernel add_to = program()->kernel("add_to_u32");
  Queue& q = device_->queue();
  std::vector<std::uint32_t> got(n);
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (std::uint32_t i = 0; i < n; ++i) host[i] = i * 2654435761u + round;
    q.launch(add_to, LaunchShape::cover(n, 128), mapped.device_view(), out, n, 11u);
    q.read(got.data(), out, 0, bytes);
    q.finish();
    for (std::uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], i * 2654435761u + round + 11u) << "round " << round << ", element " << i;
    }
  }
}

TEST(ZeroCopy, RefusalNamesDeviceBackendAndReason) {
  DeviceInfo info;
  info.name = "Some GPU";
  info.kind = Kind::opencl;
  expect_run_error([&] { require_zero_copy(info); }, "on Some GPU (backend opencl)");
  expect_run_error([&] { require_zero_copy(info); }, "CL_DEVICE_HOST_UNIFIED_MEMORY");
  info.kind = Kind::cuda;
  expect_run_error([&] { require_zero_copy(info); }, "canMapHostMemory");
  info.zero_copy_host_memory = true;
  require_zero_copy(info);
  EXPECT_TRUE(open_device(Kind::cpu, 0)->info().zero_copy_host_memory);
}

// Images (streammr.image): every texel written from the host comes back
// through the texture path at its (x, y), for a wide and a tall image; a size
// beyond the device's limit is a RunError naming it.
TEST_P(BackendFeatures, ImageTexelsReadBackExactly) {
  if (device_->info().image2d_max_width == 0) GTEST_SKIP() << "no image support";
  Kernel copy = program()->kernel("copy_image_f32");
  Queue& q = device_->queue();
  for (auto [width, height] : {std::pair<std::uint32_t, std::uint32_t>{67, 5}, {3, 130}}) {
    std::vector<float> texels(std::size_t{width} * height);
    for (std::size_t i = 0; i < texels.size(); ++i)
      texels[i] = 0.5f * static_cast<float>(i) - 7.25f;
    Image2D image = device_->allocate_image_f32(width, height);
    EXPECT_EQ(image.width(), width);
    EXPECT_EQ(image.height(), height);
    q.write_image(image, texels.data());
    Buffer out = device_->allocate(texels.size() * sizeof(float));
    q.launch(copy, LaunchShape::cover(texels.size(), 64), image, out, width, height);
    std::vector<float> back(texels.size(), 0.0f);
    q.read(back.data(), out, 0, back.size() * sizeof(float));
    q.finish();
    for (std::size_t i = 0; i < texels.size(); ++i) ASSERT_EQ(back[i], texels[i]) << i;
  }
  expect_run_error(
      [&] { (void)device_->allocate_image_f32(device_->info().image2d_max_width + 1, 1); },
      "exceeds");
}

TEST_P(BackendFeatures, DynamicLocalReductionAtTwoSizes) {
  auto prog = program();
  Kernel sum = prog->kernel("group_sum_u32");
  Kernel max = prog->kernel("group_max_u64");
  Queue& q = device_->queue();
  const std::uint32_t n = 5000;
  std::vector<std::uint32_t> in32(n);
  std::vector<std::uint64_t> in64(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    in32[i] = (i * 7919u) % 1013u;
    in64[i] = (std::uint64_t{i} * 0x9E3779B97F4A7C15ull) >> 3;
  }
  Buffer b32 = device_->allocate(n * sizeof(std::uint32_t));
  Buffer b64 = device_->allocate(n * sizeof(std::uint64_t));
  q.write(b32, 0, in32.data(), n * sizeof(std::uint32_t));
  q.write(b64, 0, in64.data(), n * sizeof(std::uint64_t));
  for (std::uint32_t group_size : {64u, 256u}) {
    const LaunchShape shape = LaunchShape::cover(n, group_size);
    Buffer sums = device_->allocate(shape.groups * sizeof(std::uint32_t));
    Buffer maxima = device_->allocate(shape.groups * sizeof(std::uint64_t));
    q.launch(sum, shape, b32, sums, n, local_memory(group_size * sizeof(std::uint32_t)));
    q.launch(max, shape, local_memory(group_size * sizeof(std::uint64_t)), b64, maxima, n);
    std::vector<std::uint32_t> got_sums(shape.groups);
    std::vector<std::uint64_t> got_max(shape.groups);
    q.read(got_sums.data(), sums, 0, sums.size());
    q.read(got_max.data(), maxima, 0, maxima.size());
    q.finish();
    for (std::uint32_t g = 0; g < shape.groups; ++g) {
      std::uint32_t want_sum = 0;
      std::uint64_t want_max = 0;
      for (std::uint32_t i = g * group_size; i < std::min(n, (g + 1) * group_size); ++i) {
        want_sum += in32[i];
        want_max = std::max(want_max, in64[i]);
      }
      ASSERT_EQ(got_sums[g], want_sum) << "group " << g << " of size " << group_size;
      ASSERT_EQ(got_max[g], want_max) << "group " << g << " of size " << group_size;
    }
  }
}

// Near the device's limit: on CUDA above the default 48 KiB, which needs the
// opt-in (cudaFuncSetAttribute) done by the launch.
TEST_P(BackendFeatures, LargeDynamicLocalMemoryIsUsable) {
  const DeviceInfo& info = device_->info();
  std::uint64_t bytes = info.local_memory_bytes / 2;
  if (GetParam() == Kind::cuda) {
    ASSERT_GE(info.local_memory_optin_bytes, info.local_memory_bytes);
    bytes = info.local_memory_optin_bytes - 1024;
  }
  bytes = std::min<std::uint64_t>(bytes, 1u << 20) / 4 * 4;
  ASSERT_GT(bytes, 0u);
  const auto words = static_cast<std::uint32_t>(bytes / 4);
  Kernel fill = program()->kernel("fill_local_u32");
  Queue& q = device_->queue();
  const std::uint32_t groups = 3;
  Buffer out = device_->allocate(groups * sizeof(std::uint32_t));
  q.fill_zero(out, 0, out.size());
  q.launch(fill, LaunchShape{groups, 128}, out, words, local_memory(bytes));
  std::vector<std::uint32_t> got(groups);
  q.read(got.data(), out, 0, out.size());
  q.finish();
  for (std::uint32_t g = 0; g < groups; ++g) {
    std::uint32_t want = 0;
    for (std::uint32_t j = 0; j < words; ++j) want += j * 3u + g;
    EXPECT_EQ(got[g], want) << "group " << g << ", " << bytes << " bytes of local memory";
  }
}

TEST_P(BackendFeatures, BadDynamicLocalMemoryIsARunError) {
  auto prog = program();
  Kernel sum = prog->kernel("group_sum_u32");
  Kernel max = prog->kernel("group_max_u64");
  Queue& q = device_->queue();
  const DeviceInfo& info = device_->info();
  Buffer in = device_->allocate(256 * sizeof(std::uint64_t));
  Buffer out = device_->allocate(sizeof(std::uint64_t));
  q.fill_zero(in, 0, in.size());
  const std::size_t too_much =
      static_cast<std::size_t>(std::max(info.local_memory_bytes, info.local_memory_optin_bytes)) +
      4096;
  expect_run_error(
      [&] {
        q.launch(sum, LaunchShape{1, 64}, in, out, 64u, local_memory(too_much));
      },
      "local memory");
  expect_run_error(
      [&] {
        q.launch(sum, LaunchShape{1, 64}, in, out, 64u, local_memory(0));
      },
      "0 bytes");
  expect_run_error(
      [&] {
        q.launch(max, LaunchShape{1, 64}, local_memory(512), local_memory(512), out, 64u);
      },
      "at most one dynamic local-memory argument");
  // The queue still runs a correct launch afterwards.
  std::vector<std::uint32_t> ones(64, 1u);
  q.write(in, 0, ones.data(), ones.size() * sizeof(std::uint32_t));
  q.launch(sum, LaunchShape{1, 64}, in, out, 64u, local_memory(64 * sizeof(std::uint32_t)));
  std::uint32_t total = 0;
  q.read(&total, out, 0, sizeof total);
  q.finish();
  EXPECT_EQ(total, 64u);
}

TEST_P(BackendFeatures, NativeHandles) {
  Queue& q = device_->queue();
  std::unique_ptr<Queue> other = device_->create_queue();
  ASSERT_NE(q.native_handle(), nullptr);
  ASSERT_NE(other->native_handle(), nullptr);
  EXPECT_NE(q.native_handle(), other->native_handle());
  device_->make_current();
#ifdef HARNESS_HAVE_OPENCL
  if (GetParam() == Kind::opencl) {
    ASSERT_NE(device_->native_handle(), nullptr);
    for (Queue* queue : {&q, other.get()}) {
      auto cl_queue = static_cast<cl_command_queue>(queue->native_handle());
      cl_context context = nullptr;
      ASSERT_EQ(
          clGetCommandQueueInfo(cl_queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(static_cast<void*>(context), device_->native_handle());
    }
  }
#endif
#ifdef HARNESS_HAVE_CUDA
  if (GetParam() == Kind::cuda) {
    EXPECT_EQ(device_->native_handle(), nullptr);
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, device_->info().index);
    auto stream = static_cast<cudaStream_t>(q.native_handle());
    unsigned flags = 0;
    ASSERT_EQ(cudaStreamGetFlags(stream, &flags), cudaSuccess);
    EXPECT_EQ(flags & cudaStreamNonBlocking, static_cast<unsigned>(cudaStreamNonBlocking));
    // Work queued on the native stream is ordered with the queue's own commands.
    Buffer b = device_->allocate(1024);
    std::vector<unsigned char> host(1024, 0);
    ASSERT_EQ(cudaMemsetAsync(b.handle(), 0x5a, 1024, stream), cudaSuccess);
    q.read(host.data(), b, 0, 1024);
    q.finish();
    EXPECT_EQ(host[0], 0x5a);
    EXPECT_EQ(host[1023], 0x5a);
  }
#endif
}

TEST_P(BackendFeatures, DeviceInfoSaysWhereTheL2SizeComesFrom) {
  const DeviceInfo& info = device_->info();
  std::cout << info.name << ": pci_bus_id '" << info.pci_bus_id << "', L2 " << info.l2_cache_bytes
            << " bytes from " << info.l2_cache_source << ", local memory "
            << info.local_memory_bytes << " (opt-in " << info.local_memory_optin_bytes << ")\n";
  if (GetParam() == Kind::cuda) {
    EXPECT_EQ(info.l2_cache_source, "cudaDeviceProp::l2CacheSize");
    EXPECT_GT(info.l2_cache_bytes, 0u);
    EXPECT_EQ(info.pci_bus_id.size(), 12u) << info.pci_bus_id;  // "0000:19:00.0"
    EXPECT_GE(info.local_memory_optin_bytes, info.local_memory_bytes);
  } else {
    EXPECT_TRUE(info.l2_cache_source == "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE" ||
                info.l2_cache_source == "matched CUDA device by PCI bus id")
        << info.l2_cache_source;
    if (info.vendor.find("NVIDIA") != std::string::npos) {
      EXPECT_FALSE(info.pci_bus_id.empty());
    }
    // The opened device and the listing agree (both apply the CUDA correction).
    for (const DeviceInfo& listed : list_devices(Kind::opencl)) {
      if (listed.index != info.index) continue;
      EXPECT_EQ(listed.l2_cache_bytes, info.l2_cache_bytes);
      EXPECT_EQ(listed.l2_cache_source, info.l2_cache_source);
      EXPECT_EQ(listed.pci_bus_id, info.pci_bus_id);
    }
#ifdef HARNESS_HAVE_CUDA
    // An NVIDIA OpenCL device with a CUDA twin reports the CUDA L2 size.
    for (const DeviceInfo& twin : list_devices(Kind::cuda)) {
      if (info.pci_bus_id.empty() || twin.pci_bus_id.size() < info.pci_bus_id.size() ||
          twin.pci_bus_id.compare(twin.pci_bus_id.size() - info.pci_bus_id.size(),
                                  info.pci_bus_id.size(), info.pci_bus_id) != 0) {
        continue;
      }
      EXPECT_EQ(info.l2_cache_source, "matched CUDA device by PCI bus id");
      EXPECT_EQ(info.l2_cache_bytes, twin.l2_cache_bytes);
    }
#endif
  }
}

TEST_P(BackendFeatures, CeilingsNameTheirHostMemory) {
  const nlohmann::json ceilings = measure_ceilings(*device_, 16u << 20, 2);
  std::vector<std::string> names;
  for (const auto& c : ceilings) {
    const std::string name = c.at("name");
    names.push_back(name);
    std::cout << device_->info().name << ": " << name << " " << c.at("value").get<double>()
              << " GB/s\n";
    EXPECT_GT(c.at("value").get<double>(), 0.0) << name;
    if (name == "d2d_copy") {
      EXPECT_FALSE(c.contains("host_memory"));
    } else if (name == "h2d_pageable" || name == "d2h_pageable") {
      EXPECT_EQ(c.at("host_memory"), "pageable") << name;
    } else {
      EXPECT_EQ(c.at("host_memory"), "pinned") << name;
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"d2d_copy", "h2d_pinned", "h2d_pageable", "d2h_pinned",
                                             "d2h_pageable"}));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BackendFeatures);
INSTANTIATE_TEST_SUITE_P(Backends, BackendFeatures, ::testing::ValuesIn(kernel_backends()),
                         kind_test_name);

// The cpu device: every kind is plain memory; mapped memory's view is the same pointer.
TEST(CpuHostMemory, KindsAndViews) {
  std::unique_ptr<Device> cpu = open_device(Kind::cpu, 0);
  for (HostMemory kind : {HostMemory::pageable, HostMemory::pinned, HostMemory::mapped}) {
    HostBuffer h = cpu->allocate_host(100, kind);
    EXPECT_EQ(h.kind(), kind);
    ASSERT_NE(h.data(), nullptr);
    if (kind == HostMemory::mapped) {
      EXPECT_EQ(h.device_view().handle(), h.data());
      EXPECT_EQ(h.device_view().size(), 100u);
      // Writes through the view are host writes.
      Buffer dst = cpu->allocate(100);
      std::memset(h.data(), 9, 100);
      cpu->queue().copy(dst, 0, h.device_view(), 0, 100);
      EXPECT_EQ(static_cast<unsigned char*>(dst.handle())[99], 9);
    } else {
      expect_run_error([&] { (void)h.device_view(); }, host_memory_name(kind));
    }
  }
  EXPECT_EQ(cpu->native_handle(), nullptr);
  EXPECT_EQ(cpu->queue().native_handle(), nullptr);
  cpu->make_current();
}

TEST(HostBufferOwnership, ReleaseRunsOnceAfterMoves) {
  int released = 0;
  std::vector<unsigned char> storage(16);
  {
    HostBuffer a(storage.data(), storage.size(), HostMemory::pinned, [&released] { ++released; });
    HostBuffer b = std::move(a);
    HostBuffer c;
    c = std::move(b);
    EXPECT_EQ(released, 0);
    EXPECT_EQ(c.kind(), HostMemory::pinned);
    EXPECT_EQ(c.data(), storage.data());
  }
  EXPECT_EQ(released, 1);
  EXPECT_STREQ(host_memory_name(HostMemory::mapped), "mapped");
}

}  // namespace
}  // namespace harness::backend
