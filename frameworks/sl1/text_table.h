// The host side of kernels/sl1_text_table.clh, a table in device memory keyed
// by byte strings of the text (mastercard's merchants, page-view-count's
// URLs): allocation, clearing before a launch, growth when a launch filled
// more than half of it, and the claimed slots read back as (string, value).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::sl1 {

class TextTable {
 public:
  static constexpr std::uint64_t kSlotBytes = 16;  // key, value word
  static constexpr unsigned kLengthBit = 48;       // SL1_TEXT_KEY_LENGTH_BIT

  // A zeroed table of `slots` slots (previous contents dropped).
  void allocate(backend::Device& device, std::uint64_t slots);
  // Before a launch that fills the table: every slot empty, none claimed.
  void clear(backend::Queue& q);
  // After such a launch: when it claimed more than half the slots (a probe
  // may then have found none free, so the launch is to run again), a larger
  // table and true.
  bool grow_if_over_half(backend::Queue& q);

  backend::Buffer& slots() { return slots_; }
  backend::Buffer& claimed() { return claimed_; }
  std::uint64_t count() const { return count_; }
  std::uint64_t bytes() const { return count_ * kSlotBytes; }

  // Copies the table back and calls fn(the key's bytes in `text`, the slot's
  // value word) for each claimed slot.
  void read(backend::Queue& q, const std::uint8_t* text,
            const std::function<void(std::string_view, std::uint64_t)>& fn);

 private:
  backend::Device* device_ = nullptr;
  backend::Buffer slots_, claimed_;
  std::uint64_t count_ = 0;
  std::vector<std::uint64_t> host_;
};

}  // namespace harness::sl1
