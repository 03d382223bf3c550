// Error types with the exit status each maps to: a usage error (bad option,
// unknown name, malformed spec) exits 2; a run failure (no device, build
// failure, out of memory, wrong result, unwritable output) exits 1.
#pragma once

#include <stdexcept>
#include <string>

namespace harness {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class NoDevice : public RunError {
 public:
  using RunError::RunError;
};

class DeviceOutOfMemory : public RunError {
 public:
  using RunError::RunError;
};

// Thrown by a variant (from its factory or prepare()) that declines a point:
// an axis combination it cannot run, or a device that lacks what it needs
// (nvbench's state.skip). The point is recorded with status "skipped" and
// the reason; it is neither a failure nor an error.
class SkipPoint : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// what() is the one-line cause; log() holds the compiler's full output.
class KernelBuildError : public RunError {
 public:
  KernelBuildError(const std::string& what, std::string log)
      : RunError(what), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

}  // namespace harness
