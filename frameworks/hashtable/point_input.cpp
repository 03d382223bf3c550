#include "frameworks/hashtable/point_input.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::hashtable {

const SepoApp& app_for(const std::string& app) {
  for (const SepoApp* a :
       {&netflix_app(), &dna_assembly_app(), &patent_citation_app(), &geo_location_app(),
        &kv_pairs_app(), &word_count_app(), &page_view_count_app(), &key_counts_app()})
    if (a->name() == app) return *a;
  throw UsageError("hashtable: no SePo binding for the app " + app);
}

backend::Device& point_device(const PointContext& ctx, const std::string& variant) {
  if (!ctx.device)
    throw UsageError(fmt::format("hashtable/{} needs a GPU backend device", variant));
  return *ctx.device;
}

RecordShape checked_shape(const SepoApp& app, const PointContext& ctx, const std::string& variant) {
  const RecordShape shape = app.shape(ctx.input, ctx.input_size);
  if (shape.records >= 0xFFFF'FFFFull)
    throw RunError(fmt::format("hashtable/{}: {} records, more than the kernel's u32 indexes",
                               variant, shape.records));
  return shape;
}

bool DeviceInput::on_device(const SepoApp& app, std::size_t size) {
  // blocks::LineSplit takes 32-bit sizes.
  return app.indexed() && app.device_lines() != SepoApp::DeviceLines::none &&
         size < (std::uint64_t{1} << 32);
}

std::uint64_t DeviceInput::bytes(const SepoApp& app, std::size_t input_size,
                                 std::uint64_t records) {
  const std::uint64_t index_bytes = app.indexed() ? (records + 1) * 8 : 0;
  const std::uint64_t split_bytes =
      on_device(app, input_size) ? blocks::LineSplit::pool_bytes(input_size) : 0;
  return std::max<std::uint64_t>(input_size, 8) + std::max<std::uint64_t>(index_bytes, 8) +
         split_bytes;
}

void DeviceInput::allocate(backend::Device& device, const SepoApp& app, std::size_t input_size,
                           std::uint64_t records) {
  const std::uint64_t index_bytes = app.indexed() ? (records + 1) * 8 : 0;
  records_ = records;
  data_ = device.allocate(std::max<std::size_t>(input_size, 8));
  index_ = device.allocate(std::max<std::uint64_t>(index_bytes, 8));
  if (on_device(app, input_size) && (!pool_ || &pool_->device() != &device)) {
    split_.reset();
    pool_ = std::make_unique<blocks::BufferPool>(device);
    split_ = std::make_unique<blocks::LineSplit>(*pool_);
  }
}

double DeviceInput::upload(backend::Queue& q, const SepoApp& app, const std::uint8_t* input,
                           std::size_t size) {
  if (on_device(app, size)) {
    q.begin_span("copy_in");
    if (size) q.write(data_, 0, input, size);
    q.end_span();
    // The index's clock starts once the copy is done (a write from pinned
    // memory may return before it is: CUDA's index then took 3.1 ms at 128
    // MiB, the copy's 2.5 with it).
    q.finish();
    Stopwatch index_clock;
    const bool skip_empty = app.device_lines() == SepoApp::DeviceLines::non_empty_lines;
    const std::uint32_t lines = split_->split_wide(data_, static_cast<std::uint32_t>(size),
                                                   skip_empty, index_, records_ + 1);
    if (lines != records_)
      throw RunError(fmt::format(
          "hashtable: {}'s input of {} B holds {} records, but the device found {} lines",
          app.name(), size, records_, lines));
    return index_clock.elapsed_ms();
  }
  Stopwatch index_clock;
  if (app.indexed()) app.index(input, size, offsets_);
  const double index_ms = index_clock.elapsed_ms();
  q.begin_span("copy_in");
  if (size) q.write(data_, 0, input, size);
  if (!offsets_.empty()) q.write(index_, 0, offsets_.data(), offsets_.size() * 8);
  q.end_span();
  return index_ms;
}

}  // namespace harness::hashtable
