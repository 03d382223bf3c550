// What the hash table family's points share (sepo_point.cpp: the SePo table
// and its pinned and paging-bound heaps; mapcg_point.cpp: MapCG's global
// table): the app's binding, its records checked against the kernels' u32
// indexes, the device a point needs, and the app's whole input resident on
// the device with, for records of varying length, their offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/line_split.h"
#include "frameworks/hashtable/sepo_app.h"
#include "harness/backend/backend.h"
#include "harness/core/registry.h"

namespace harness::hashtable {

// The app's binding (apps/*_app.cpp); a UsageError for an app without one.
const SepoApp& app_for(const std::string& app);

// The point's device; a UsageError naming hashtable/`variant` without one.
backend::Device& point_device(const PointContext& ctx, const std::string& variant);

// The app's records (SepoApp::shape), or a RunError naming hashtable/`variant`
// when there are more than the kernels' u32 record indexes reach.
RecordShape checked_shape(const SepoApp& app, const PointContext& ctx, const std::string& variant);

// The input on the device: its bytes and the index of its records' offsets
// (8 B a record and 8 B more, apps with records of varying length;
// SepoApp::index), found on the device for apps whose records are lines
// (SepoApp::device_lines) and inputs under 4 GiB, on the host otherwise.
class DeviceInput {
 public:
  // Device bytes of the input, its index (each buffer at least 8 B) and the
  // device line split's scratch.
  static std::uint64_t bytes(const SepoApp& app, std::size_t input_size, std::uint64_t records);
  // Allocates the buffers (counted in the device's memory budget).
  void allocate(backend::Device& device, const SepoApp& app, std::size_t input_size,
                std::uint64_t records);
  // Timed: the input copied in under the span `copy_in`, and the index,
  // whose milliseconds are returned (phase `index`): found on the device
  // after the copy, or built on the host and copied in with the input. A
  // RunError when the device finds other records than the app's check did.
  double upload(backend::Queue& q, const SepoApp& app, const std::uint8_t* input, std::size_t size);
  const backend::Buffer& data() const { return data_; }
  const backend::Buffer& index() const { return index_; }

 private:
  // Whether `app`'s index of an input of `size` bytes is found on the device.
  static bool on_device(const SepoApp& app, std::size_t size);

  backend::Buffer data_, index_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t records_ = 0;
  std::unique_ptr<blocks::BufferPool> pool_;  // the device split's (kept across runs)
  std::unique_ptr<blocks::LineSplit> split_;
};

}  // namespace harness::hashtable
