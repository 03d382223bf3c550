// The per-device memory budget (Device::set_memory_budget): device buffers and
// images count against it until they go, host memory does not, and an
// allocation past it is a DeviceOutOfMemory that names the numbers. Every
// kernel backend with a device, and the cpu device.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "harness/backend/tests/device_fixture.h"
#include "harness/core/errors.h"

namespace harness::testing {
namespace {

using backend::Buffer;
using backend::HostMemory;

constexpr std::size_t kMiB = std::size_t{1} << 20;

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

void check_budget(backend::Device& device) {
  EXPECT_EQ(device.memory_budget(), 0u);
  const std::uint64_t base = device.memory_in_use();
  const std::uint64_t budget = base + 4 * kMiB;
  device.set_memory_budget(budget);
  EXPECT_EQ(device.memory_budget(), budget);

  // Up to the budget.
  Buffer a = device.allocate(kMiB);
  Buffer b = device.allocate(2 * kMiB);
  Buffer c = device.allocate(kMiB);
  EXPECT_EQ(device.memory_in_use(), budget);
  EXPECT_EQ(device.memory_available(), 0u);

  // One byte past it.
  try {
    (void)device.allocate(1);
    ADD_FAILURE() << "expected DeviceOutOfMemory";
  } catch (const DeviceOutOfMemory& e) {
    const std::string what = e.what();
    expect_contains(what, "memory budget of " + std::to_string(budget) + " bytes");
    expect_contains(what, "allocating 1 bytes");
    expect_contains(what, "with " + std::to_string(budget) + " bytes");
    expect_contains(what, "in use");
    expect_contains(what, device.info().name);
  }
  EXPECT_EQ(device.memory_in_use(), budget);  // the refused request took nothing

  // Moves keep the count; freeing makes room again.
  Buffer moved = std::move(b);
  EXPECT_EQ(device.memory_in_use(), budget);
  moved = Buffer();
  EXPECT_EQ(device.memory_in_use(), base + 2 * kMiB);
  EXPECT_EQ(device.memory_available(),
            std::min<std::uint64_t>(2 * kMiB, device.device_free_memory()));
  Buffer d = device.allocate(2 * kMiB);
  EXPECT_EQ(device.memory_in_use(), budget);
  a = Buffer();
  c = Buffer();
  d = Buffer();
  EXPECT_EQ(device.memory_in_use(), base);
  EXPECT_THROW((void)device.allocate(4 * kMiB + 1), DeviceOutOfMemory);  // more than all of it

  // Host memory of every kind is not device memory.
  for (HostMemory kind : {HostMemory::pageable, HostMemory::pinned, HostMemory::mapped}) {
    if (kind == HostMemory::mapped && !device.info().zero_copy_host_memory &&
        device.info().kind == backend::Kind::cuda) {
      continue;  // refused on such a CUDA device
    }
    backend::HostBuffer h = device.allocate_host(8 * kMiB, kind);
    EXPECT_EQ(device.memory_in_use(), base) << backend::host_memory_name(kind);
  }

  // Images count as width * height floats.
  if (device.info().image2d_max_width >= 1024 && device.info().image2d_max_height >= 1024) {
    {
      backend::Image2D image = device.allocate_image_f32(512, 512);
      EXPECT_EQ(device.memory_in_use(), base + kMiB);
      try {
        (void)device.allocate_image_f32(1024, 1024);
        ADD_FAILURE() << "expected DeviceOutOfMemory";
      } catch (const DeviceOutOfMemory& e) {
        expect_contains(e.what(), "allocating " + std::to_string(4 * kMiB) + " bytes");
      }
    }
    EXPECT_EQ(device.memory_in_use(), base);
  }

  // A budget below what is in use frees nothing; 0 lifts it.
  Buffer big = device.allocate(3 * kMiB);
  device.set_memory_budget(base + kMiB);
  EXPECT_THROW((void)device.allocate(1), DeviceOutOfMemory);
  EXPECT_EQ(device.memory_available(), 0u);
  device.set_memory_budget(0);
  Buffer bigger = device.allocate(6 * kMiB);
  EXPECT_EQ(device.memory_in_use(), base + 9 * kMiB);
  EXPECT_LE(device.memory_available(), device.device_free_memory());
}

using DeviceMemoryBudget = DeviceTest;

TEST_P(DeviceMemoryBudget, AllocationsHonourTheBudget) { check_budget(*device_); }

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeviceMemoryBudget);
INSTANTIATE_TEST_SUITE_P(Backends, DeviceMemoryBudget, ::testing::ValuesIn(kernel_backends()),
                         backend_test_name);

TEST(CpuMemoryBudget, AllocationsHonourTheBudget) {
  auto cpu = backend::open_device(backend::Kind::cpu, 0);
  check_budget(*cpu);
}

// A Buffer gives its bytes back after its Device is gone.
TEST(CpuMemoryBudget, BufferOutlivesItsDevice) {
  Buffer kept;
  {
    auto cpu = backend::open_device(backend::Kind::cpu, 0);
    cpu->set_memory_budget(kMiB);
    kept = cpu->allocate(1000);
  }
  EXPECT_EQ(kept.size(), 1000u);
  kept = Buffer();
}

// Threads allocating at once never pass the budget together.
TEST(CpuMemoryBudget, ConcurrentAllocationsStayWithinIt) {
  auto cpu = backend::open_device(backend::Kind::cpu, 0);
  constexpr std::size_t kPiece = 64 * 1024;
  cpu->set_memory_budget(4 * kPiece);
  std::atomic<std::uint64_t> most{0};
  std::atomic<int> refused{0};
  auto work = [&] {
    for (int i = 0; i < 300; ++i) {
      try {
        Buffer held[2] = {cpu->allocate(kPiece), cpu->allocate(kPiece)};
        std::uint64_t seen = cpu->memory_in_use();
        std::uint64_t before = most.load();
        while (seen > before && !most.compare_exchange_weak(before, seen)) {
        }
      } catch (const DeviceOutOfMemory&) {
        ++refused;
      }
    }
  };
  std::thread t1(work), t2(work), t3(work);
  t1.join();
  t2.join();
  t3.join();
  EXPECT_LE(most.load(), 4 * kPiece);
  EXPECT_EQ(cpu->memory_in_use(), 0u);
  std::cout << refused.load() << " of 900 rounds refused\n";
}

}  // namespace
}  // namespace harness::testing
