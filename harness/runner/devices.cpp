#include "harness/runner/devices.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/backend/cpu_device.h"
#include "harness/core/errors.h"

namespace harness {

using backend::Kind;

backend::Device* Devices::get(Kind kind, std::optional<int> index, bool required,
                              std::string* why) {
  std::string none;
  auto list = backend::list_devices(kind, &none);
  int chosen = index.value_or(-1);
  if (chosen < 0) {
    for (const auto& d : list) {
      if (d.type == "gpu") {
        chosen = d.index;
        break;
      }
    }
    if (chosen < 0 && !list.empty()) chosen = 0;
  }
  if (chosen < 0 || chosen >= static_cast<int>(list.size())) {
    std::string msg = list.empty() ? fmt::format("no {} device: {}", backend::kind_name(kind), none)
                                   : fmt::format("no {} device {} (found {})",
                                                 backend::kind_name(kind), chosen, list.size());
    if (required) throw NoDevice(msg);
    if (why) *why = msg;
    return nullptr;
  }
  auto key = std::make_pair(kind, chosen);
  auto it = open_.find(key);
  if (it != open_.end()) return it->second.get();
  auto dev = backend::open_device(kind, chosen);
  if (kind != backend::Kind::cpu) dev->set_memory_budget(budget_);
  backend::Device* raw = dev.get();
  open_[key] = std::move(dev);
  return raw;
}

void Devices::set_memory_budget(std::uint64_t bytes) {
  budget_ = bytes;
  for (auto& [key, dev] : open_) {
    if (key.first != backend::Kind::cpu) dev->set_memory_budget(bytes);
  }
}

std::vector<backend::Device*> Devices::get_several(Kind kind, std::optional<int> first, int count,
                                                   std::string* why) {
  std::vector<backend::Device*> out;
  backend::Device* primary = get(kind, first, false, why);
  if (!primary) return out;
  out.push_back(primary);
  const auto list = backend::list_devices(kind);
  // The others: same type as the primary (GPUs beside a GPU), in index order.
  for (const auto& d : list) {
    if (static_cast<int>(out.size()) >= count) break;
    if (d.index == primary->info().index || d.type != primary->info().type) continue;
    out.push_back(get(kind, d.index, true, nullptr));
  }
  if (static_cast<int>(out.size()) < count && why)
    *why = fmt::format("needs {} {} devices of type {}, {} present", count,
                       backend::kind_name(kind), primary->info().type, out.size());
  return out;
}

backend::HostBuffer Devices::host_buffer(Kind kind, std::size_t bytes) {
  for (auto& [key, dev] : open_) {
    if (key.first == kind && dev->info().type == "gpu")
      return dev->allocate_host(bytes, backend::HostMemory::pinned);
  }
  return backend::cpu::open_device(0)->allocate_host(bytes, backend::HostMemory::pageable);
}

void Devices::flush_l2(backend::Device& device) {
  const std::uint64_t l2 = device.info().l2_cache_bytes;
  const std::size_t bytes = static_cast<std::size_t>(std::max<std::uint64_t>(l2, 8u << 20) * 2);
  backend::Buffer& scratch = scratch_[&device];
  if (scratch.size() < bytes) scratch = device.allocate(bytes);
  auto& q = device.queue();
  q.fill_zero(scratch, 0, bytes);
  q.finish();
}

}  // namespace harness
