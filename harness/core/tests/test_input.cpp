// The runner's input in host memory (harness/runner/point.h): an input the
// host cannot hold is refused with its cause before anything is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "harness/backend/cpu_device.h"
#include "harness/core/errors.h"
#include "harness/runner/devices.h"
#include "harness/runner/point.h"

namespace harness {
namespace {

TEST(HostMemory, AvailableIsSomeOfTheHostsMemory) {
  const std::uint64_t available = backend::cpu::host_memory_available();
  EXPECT_GT(available, 0u);
  EXPECT_LE(available, backend::cpu::host_memory_bytes());
}

// 1 PiB: more than any host that runs the tests; the file is never read.
TEST(Input, LargerThanTheHostsAvailableMemoryIsARunError) {
  datasets::DatasetFile file;
  file.path = "/nonexistent/never-read.txt";
  file.generator = "text-zipf";
  file.size_bytes = std::uint64_t{1} << 50;
  Input in(file, "1PiB");
  Devices devices;
  try {
    in.for_backend(backend::Kind::cpu, devices);
    FAIL() << "no RunError";
  } catch (const RunError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the input 1PiB (1125899906842624 bytes) does not fit the host's "
                           "available memory"),
              std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace harness
