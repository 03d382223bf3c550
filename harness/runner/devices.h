// The devices a run uses, opened once and shared by all its points, and the
// host memory its inputs are loaded into.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/backend/backend.h"

namespace harness {

class Devices {
 public:
  // The device of `kind` to use: `index` when given, else the first GPU-type
  // device (OpenCL lists PoCL beside NVIDIA), else device 0. Null when the
  // backend has none and `required` is false (then `why` says why); NoDevice
  // when it is true.
  backend::Device* get(backend::Kind kind, std::optional<int> index, bool required,
                       std::string* why);
  // `count` devices of `kind` starting at the one get() picks, in index order;
  // fewer when fewer exist (the caller skips the point with a reason).
  std::vector<backend::Device*> get_several(backend::Kind kind, std::optional<int> first, int count,
                                            std::string* why);
  // Host memory suited to `kind`'s copies: pinned by that backend's driver
  // when one of its GPU-type devices is open (a CUDA-pinned page is not
  // pinned for NVIDIA's OpenCL driver, and the reverse), plain otherwise.
  backend::HostBuffer host_buffer(backend::Kind kind, std::size_t bytes);
  // A GPU memory budget (bytes; 0: none) for every device opened, now and
  // later (backend::Device::set_memory_budget): out-of-GPU-memory paths run on
  // any GPU and in CI.
  void set_memory_budget(std::uint64_t bytes);
  std::uint64_t memory_budget() const { return budget_; }
  // Evicts the device's L2 cache (for cold measurements) by writing a scratch
  // buffer of twice its size; untimed.
  void flush_l2(backend::Device& device);

 private:
  std::map<std::pair<backend::Kind, int>, std::unique_ptr<backend::Device>> open_;
  std::map<backend::Device*, backend::Buffer> scratch_;
  std::uint64_t budget_ = 0;
};

}  // namespace harness
