#include "frameworks/sl1/text_table.h"

#include <algorithm>

#include "frameworks/sl1/app_kernels.h"

namespace harness::sl1 {

void TextTable::allocate(backend::Device& device, std::uint64_t slots) {
  device_ = &device;
  count_ = slots;
  slots_ = device.allocate(bytes());
  if (!claimed_.size()) claimed_ = device.allocate(sizeof(std::uint32_t));
  host_.assign(2 * slots, 0);
  clear(device.queue());
  device.queue().finish();
}

void TextTable::clear(backend::Queue& q) {
  q.fill_zero(slots_, 0, bytes());
  q.fill_zero(claimed_, 0, sizeof(std::uint32_t));
}

bool TextTable::grow_if_over_half(backend::Queue& q) {
  std::uint32_t claimed = 0;
  read_now(q, &claimed, claimed_, 0, sizeof(claimed));
  if (2 * std::uint64_t{claimed} <= count_) return false;
  allocate(*device_, std::max(2 * count_, 4 * std::uint64_t{claimed}));
  return true;
}

void TextTable::read(backend::Queue& q, const std::uint8_t* text,
                     const std::function<void(std::string_view, std::uint64_t)>& fn) {
  read_now(q, host_.data(), slots_, 0, bytes());
  constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kLengthBit) - 1;
  for (std::uint64_t s = 0; s < count_; ++s) {
    const std::uint64_t key = host_[2 * s];
    if (key == 0) continue;
    fn(std::string_view(reinterpret_cast<const char*>(text) + (key & kOffsetMask) - 1,
                        key >> kLengthBit),
       host_[2 * s + 1]);
  }
}

}  // namespace harness::sl1
