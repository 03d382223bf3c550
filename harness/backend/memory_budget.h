// A device's memory budget: the bytes its buffers and images hold, counted
// against an optional limit (Device::set_memory_budget). Shared by the Device
// and what it allocated, so a Buffer may give its bytes back after its Device
// is gone. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace harness::backend {

class MemoryBudget {
 public:
  // 0: no limit.
  void set_limit(std::uint64_t bytes) { limit_.store(bytes); }
  std::uint64_t limit() const { return limit_.load(); }
  std::uint64_t in_use() const { return in_use_.load(); }
  // Counts `bytes` as in use, or throws DeviceOutOfMemory naming `device`, the
  // budget, the request and the bytes in use when that would pass the limit.
  void take(std::uint64_t bytes, const std::string& device);
  void give_back(std::uint64_t bytes) { in_use_.fetch_sub(bytes); }

 private:
  std::atomic<std::uint64_t> limit_{0};
  std::atomic<std::uint64_t> in_use_{0};
};

// Bytes taken from a MemoryBudget, given back when the charge goes. Moves only.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  MemoryCharge(std::shared_ptr<MemoryBudget> budget, std::uint64_t bytes)
      : budget_(std::move(budget)), bytes_(bytes) {}
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;
  MemoryCharge(MemoryCharge&& o) noexcept : budget_(std::move(o.budget_)), bytes_(o.bytes_) {
    o.bytes_ = 0;
  }
  MemoryCharge& operator=(MemoryCharge&& o) noexcept {
    if (this != &o) {
      reset();
      budget_ = std::move(o.budget_);
      bytes_ = o.bytes_;
      o.bytes_ = 0;
    }
    return *this;
  }
  ~MemoryCharge() { reset(); }
  void reset() noexcept {
    if (budget_) budget_->give_back(bytes_);
    budget_.reset();
    bytes_ = 0;
  }

 private:
  std::shared_ptr<MemoryBudget> budget_;
  std::uint64_t bytes_ = 0;
};

}  // namespace harness::backend
