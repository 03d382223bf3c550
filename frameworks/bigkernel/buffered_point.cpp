// The baselines of figure 4.10 that run the plain kernel (BK_MODE_PLAIN):
// single and double buffering (chunks copied over one or two queues) and
// zero-copy (no copy: the kernel reads mapped host memory over the link).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/points.h"
#include "frameworks/bigkernel/round_plan.h"
#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/blocks/pipeline.h"
#include "frameworks/workloads/workload_point.h"
#include "harness/core/errors.h"
#include "harness/core/stopwatch.h"

namespace harness::bigkernel {
namespace {

// Chunks of whole records copied into a lane's buffer, the plain kernel run
// on it, the written fields or the chunk's table copied back, each lane in
// its queue's order.
class BufferedPoint final : public workloads::WorkloadPoint {
 public:
  BufferedPoint(const PointContext& ctx, std::string variant, std::uint32_t lanes)
      : WorkloadPoint(ctx), variant_(std::move(variant)), lanes_(lanes) {
    if (!ctx.device) throw UsageError("bigkernel/" + variant_ + " needs a GPU backend device");
    device_ = ctx.device;
    pool_ = std::make_unique<blocks::BufferPool>(*device_);
    pipeline_ = std::make_unique<blocks::CopyComputePipeline>(*device_, *pool_, "bk.chunk");
    pipeline_->set_lanes(lanes_);
    app_ = make_app_kernel(ctx.app);
  }

 protected:
  void prepare_run() override {
    app_->bind(*device_, ctx_.params, ctx_.input, ctx_.input_size);
    const RecordTable& recs = app_->records();
    records_ = recs.count();
    per_chunk_ = plan_round(
        *device_, *app_, ctx_.params, variant_, records_, lanes_,
        [this, &recs](std::uint64_t r) {
          return pool_bytes(recs.max_bytes(r)) + app_->side_bytes(r) +
                 (recs.variable() ? pool_bytes(recs.slice_bytes(r)) : 0);
        },
        "a chunk of the records + its " + app_->side_text() +
            (recs.variable() ? " + its records' entries" : ""));
    app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size, {Mode::plain});
    chunks_ = chunks(records_, per_chunk_);
    chunk_bytes_ = recs.max_bytes(per_chunk_);
    pieces_.clear();
    table_bytes_ = 0;
    for (const Chunk& c : chunks_) {
      pieces_.push_back({recs.begin(c.first), recs.bytes(c.first, c.count)});
      table_bytes_ += recs.slice_bytes(c.count);
    }
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    app_->begin_run(chunks_, per_chunk_);
    blocks::CopyComputePipeline::Busy busy;
    double pass_ms = 0;
    for (std::uint32_t pass = 0; pass < app_->passes(); ++pass) {
      app_->begin_pass(pass);
      if (!chunks_.empty()) {
        const auto b = pipeline_->run(
            ctx_.input, pieces_, [this](backend::Queue& q, backend::Buffer& data, std::size_t i) {
              const auto lane = static_cast<std::uint32_t>(i % lanes_);
              MappedArgs mapped;
              mapped.data = &data;
              mapped.data_base = app_->records().begin(chunks_[i].first);
              send_records(q, lane, chunks_[i], mapped);
              app_->enqueue(q, Mode::plain, mapped, lane, i, chunks_[i]);
            });
        busy.copy_ms += b.copy_ms;
        busy.compute_ms += b.compute_ms;
        busy.copy_out_ms += b.copy_out_ms;
      }
      Stopwatch between;
      app_->end_pass(pass);
      pass_ms += between.elapsed_ms();
    }
    Stopwatch merge;
    last_ = app_->finish_run();
    const double merge_ms = merge.elapsed_ms() + pass_ms;
    m.total_ms = clock.elapsed_ms();
    m.phases = {{"copy_in", busy.copy_ms},
                {"compute", busy.compute_ms},
                {"copy_out", busy.copy_out_ms},
                {"merge", merge_ms}};
    m.counters["lanes"] = lanes_;
    m.counters["chunks"] = static_cast<double>(chunks_.size());  // a pass's
    m.counters["passes"] = app_->passes();
    m.counters["records_per_chunk"] = static_cast<double>(per_chunk_);
    m.counters["chunk_bytes"] = static_cast<double>(chunk_bytes_);
    return m;
  }

  Work work() const override {
    Work w = input_work();
    w.items("records", records_)
        // The runner's input buffer copies at the pinned rate (2 GiB in 38.8 ms,
        // 55 GB/s, on the H200 machine where h2d_pageable measured 7.9 GB/s);
        // variable-length records add their table's entries; every pass
        // sends the input.
        .reads(level::h2d, (ctx_.input_size + table_bytes_) * app_->passes(), "copy_in",
               "h2d_pinned")
        .reads(level::dram, ctx_.input_size * app_->passes(), "compute")
        .writes(level::d2h, app_->copied_out(), "copy_out", app_->copy_out_ceiling());
    return w;
  }

 private:
  // Variable-length records: the chunk's entries of the record table, copied
  // on its lane (a "copy_in" span) before the plain kernel reads them.
  void send_records(backend::Queue& q, std::uint32_t lane, const Chunk& c, MappedArgs& mapped) {
    RecordTable& recs = app_->records();
    if (!recs.variable()) return;
    backend::Buffer& slice =
        pool_->get("bk.records.lane" + std::to_string(lane), recs.slice_bytes(per_chunk_));
    q.end_span();
    q.begin_span("copy_in");
    q.write_async(slice, 0, recs.host_buffer(), recs.slice_offset(c.first),
                  recs.slice_bytes(c.count));
    q.end_span();
    q.begin_span("compute");
    mapped.records = &slice;
    mapped.record_words = recs.words();
  }

  std::string variant_;
  std::uint32_t lanes_;
  backend::Device* device_ = nullptr;
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<blocks::CopyComputePipeline> pipeline_;
  std::unique_ptr<AppKernel> app_;
  std::uint64_t records_ = 0, per_chunk_ = 0, table_bytes_ = 0, chunk_bytes_ = 0;
  std::vector<Chunk> chunks_;
  std::vector<blocks::CopyComputePipeline::Piece> pieces_;
};

// The plain kernel over the input in mapped host memory: every mapped read
// crosses the link when the kernel makes it (EMOGI, PyTorch's UnifiedTensor).
// The input is copied into mapped memory untimed (the app's data would live
// there); only the app's side buffers (write buffer, chunk table) take device
// memory, so chunks are sized from the budget as the baselines' are, with no
// copy of the input.
class ZeroCopyPoint final : public workloads::WorkloadPoint {
 public:
  explicit ZeroCopyPoint(const PointContext& ctx) : WorkloadPoint(ctx) {
    if (!ctx.device) throw UsageError("bigkernel/zero-copy needs a GPU backend device");
    device_ = ctx.device;
    backend::require_zero_copy(device_->info());
    pool_ = std::make_unique<blocks::BufferPool>(*device_);
    app_ = make_app_kernel(ctx.app);
  }

 protected:
  void prepare_run() override {
    app_->bind(*device_, ctx_.params, ctx_.input, ctx_.input_size);
    const RecordTable& recs = app_->records();
    records_ = recs.count();
    per_chunk_ = plan_round(
        *device_, *app_, ctx_.params, "zero-copy", records_, 1,
        [this, &recs](std::uint64_t r) {
          return app_->side_bytes(r) + (recs.variable() ? pool_bytes(recs.slice_bytes(r)) : 0);
        },
        "the " + app_->side_text() + (recs.variable() ? " + the records' entries" : ""));
    app_->prepare(*device_, *pool_, ctx_.params, ctx_.input, ctx_.input_size, {Mode::plain});
    chunks_ = chunks(records_, per_chunk_);
    if (mapped_.size() < ctx_.input_size || !mapped_.data()) {
      mapped_ = backend::HostBuffer();
      mapped_ = device_->allocate_host(std::max<std::size_t>(ctx_.input_size, 8),
                                       backend::HostMemory::mapped);
    }
    if (ctx_.input_size) std::memcpy(mapped_.data(), ctx_.input, ctx_.input_size);
  }

  Measurement run_once() override {
    last_.reset();
    Measurement m;
    Stopwatch clock;
    app_->begin_run(chunks_, per_chunk_);
    backend::Queue& q = device_->queue();
    RecordTable& recs = app_->records();
    double compute_ms = 0, copy_out_ms = 0, copy_in_ms = 0, pass_ms = 0;
    for (std::uint32_t pass = 0; pass < app_->passes(); ++pass) {
      app_->begin_pass(pass);
      for (std::size_t i = 0; i < chunks_.size(); ++i) {
        MappedArgs mapped;
        mapped.data = &mapped_.device_view();
        mapped.data_base = 0;
        if (recs.variable()) {  // the chunk's entries of the record table
          backend::Buffer& slice = pool_->get("bk.records", recs.slice_bytes(per_chunk_));
          q.begin_span("copy_in");
          q.write_async(slice, 0, recs.host_buffer(), recs.slice_offset(chunks_[i].first),
                        recs.slice_bytes(chunks_[i].count));
          q.end_span();
          mapped.records = &slice;
          mapped.record_words = recs.words();
        }
        q.begin_span("compute");
        app_->enqueue(q, Mode::plain, mapped, 0, i, chunks_[i]);
        q.end_span();
      }
      for (const auto& s : q.take_spans()) {
        (s.name == "copy_out"  ? copy_out_ms
         : s.name == "copy_in" ? copy_in_ms
                               : compute_ms) += s.milliseconds;
      }
      Stopwatch between;
      app_->end_pass(pass);
      pass_ms += between.elapsed_ms();
    }
    Stopwatch merge;
    last_ = app_->finish_run();
    const double merge_ms = merge.elapsed_ms() + pass_ms;
    m.total_ms = clock.elapsed_ms();
    m.phases = {{"compute", compute_ms}, {"copy_out", copy_out_ms}, {"merge", merge_ms}};
    if (recs.variable()) m.phases.push_back({"copy_in", copy_in_ms});
    m.counters["chunks"] = static_cast<double>(chunks_.size());  // a pass's
    m.counters["passes"] = app_->passes();
    m.counters["records_per_chunk"] = static_cast<double>(per_chunk_);
    return m;
  }

  Work work() const override {
    Work w = input_work();
    // The reads cross the link: bounded by the pinned copy's ceiling.
    w.items("records", records_)
        .reads(level::h2d, ctx_.input_size * app_->passes(), "compute", "h2d_pinned")
        .writes(level::d2h, app_->copied_out(), "copy_out", app_->copy_out_ceiling());
    return w;
  }

 private:
  backend::Device* device_ = nullptr;
  std::unique_ptr<blocks::BufferPool> pool_;
  std::unique_ptr<AppKernel> app_;
  backend::HostBuffer mapped_;
  std::uint64_t records_ = 0, per_chunk_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace

std::unique_ptr<PointRunner> make_buffered_point(const PointContext& ctx,
                                                 const std::string& variant, std::uint32_t lanes) {
  return std::make_unique<BufferedPoint>(ctx, variant, lanes);
}

std::unique_ptr<PointRunner> make_zero_copy_point(const PointContext& ctx) {
  return std::make_unique<ZeroCopyPoint>(ctx);
}

}  // namespace harness::bigkernel
