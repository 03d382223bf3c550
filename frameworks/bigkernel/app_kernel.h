// An app's BigKernel kernel, seen from the host: its record, the device
// buffers beside the mapped data (K-means' centroids and write buffer,
// netflix's per-chunk table), how a chunk's kernel is launched in each mode,
// and how the chunks' results become the workload's Output. Every variant of
// the family (single/double buffer, zero-copy, the BigKernel pipeline) drives
// the same AppKernel, so the app's host code exists once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/bigkernel/chunk_plan.h"
#include "frameworks/bigkernel/persistent.h"
#include "frameworks/bigkernel/records.h"
#include "frameworks/blocks/buffer_pool.h"
#include "frameworks/workloads/workload.h"
#include "harness/backend/backend.h"
#include "harness/core/params.h"

namespace harness::bigkernel {

// The three builds of one kernel source (kernels/bigkernel.clh).
enum class Mode { plain, addrgen, compute };

// Every launch of the family runs one thread a record in work-groups of
// kGroupSize; a launch over `records` records has launch_threads(records)
// work-items (the T of the address lists and the value layouts).
constexpr std::uint32_t kGroupSize = 256;
inline std::uint64_t launch_threads(std::uint64_t records) {
  return (records + kGroupSize - 1) / kGroupSize * kGroupSize;
}

// BK_MAPPED_PARAMS' values for one launch (unused ones may stay null: the app
// passes a dummy buffer).
struct MappedArgs {
  // PLAIN: mapped bytes; COMPUTE: assembled values; ADDRGEN: the 8-byte
  // stand-in value every mapped read returns (derivable.h).
  const backend::Buffer* data = nullptr;
  const backend::Buffer* list = nullptr;    // ADDRGEN: the address list
  const backend::Buffer* counts = nullptr;  // ADDRGEN: reads per thread
  // ADDRGEN: entries a thread; COMPUTE: the round's threads (coalesced layout)
  // or bytes a thread (thread layout).
  std::uint32_t capacity = 0;
  std::uint32_t layout = 0;      // COMPUTE: 0 coalesced, 1 thread-major
  std::uint64_t data_base = 0;   // PLAIN: the mapped offset of data's first byte
  std::uint64_t chunk_base = 0;  // the chunk's first byte (write slot 0); set by the app
  // Variable-length records: the round's slice of the record table
  // (records.h), record_words u64 a record; null and 0 for fixed-length ones.
  const backend::Buffer* records = nullptr;
  std::uint32_t record_words = 0;
  std::uint32_t list_threads = 0;  // ADDRGEN: the round's records R (the list's thread dimension)
  // COMPUTE with S-L1 (AppKernel::use_sl1): SL1_PARAMS' values, after the
  // others: lines a thread, accesses monitored, the statistics buffer and
  // the work-group's line storage in local memory.
  const backend::Buffer* sl1_stats = nullptr;
  std::uint32_t sl1_lines = 0;
  std::uint32_t sl1_monitor = 0;
  std::size_t sl1_local_bytes = 0;
};

class AppKernel {
 public:
  virtual ~AppKernel() = default;
  // The workload's name (its programs are bigkernel/<app>/<mode>).
  virtual std::string app() const = 0;
  // Bytes of a fixed-length record; 0 for variable-length records (the app
  // overrides make_records).
  virtual std::size_t record_bytes() const = 0;
  // Untimed, first of all (before the round plan): the input's records,
  // kept for records().
  void bind(backend::Device& device, const Params& params, const std::uint8_t* input,
            std::size_t size);
  const RecordTable& records() const { return records_; }
  RecordTable& records() { return records_; }
  // Mapped reads one record's thread makes at most, and the bytes their values
  // take packed at their widths with alignment (the pipeline's buffer sizes);
  // after bind (a variable-length app's depend on its records).
  virtual std::uint32_t max_reads() const = 0;
  virtual std::uint32_t max_value_bytes() const = 0;
  // Passes over the input a run makes (mastercard: 2, the customers of X,
  // then their merchants): every round of a pass runs before the next pass.
  virtual std::uint32_t passes() const { return 1; }
  // Timed: before pass `pass`'s first round (after begin_run).
  virtual void begin_pass(std::uint32_t /*pass*/) {}
  // Timed: once every round of pass `pass` is done on the device (the
  // queues finished).
  virtual void end_pass(std::uint32_t /*pass*/) {}
  // Device bytes of the buffers every lane shares (pool slack included), and
  // what they hold, for messages.
  virtual std::uint64_t fixed_bytes(const Params& params) const = 0;
  virtual std::string fixed_text() const = 0;
  // Before prepare: COMPUTE reads the values through S-L1 (BK_SL1; program
  // bigkernel/<app>/compute-sl1), for BigKernel + S-L1 (thesis figure 5.14).
  void use_sl1(bool on) { sl1_ = on; }
  // Untimed: builds the program of each mode in `modes`, allocates the fixed
  // device buffers.
  void prepare(backend::Device& device, blocks::BufferPool& pool, const Params& params,
               const std::uint8_t* input, std::size_t size, const std::vector<Mode>& modes);
  // Device bytes of one lane's buffers beside its chunk, for `records` records.
  virtual std::uint64_t side_bytes(std::uint64_t records) const = 0;
  // What side_bytes holds, for messages ("write buffer of 8 B a record").
  virtual std::string side_text() const = 0;
  // Timed: host storage for a run over `chunks` of at most `per_chunk` records.
  virtual void begin_run(const std::vector<Chunk>& chunks, std::uint64_t per_chunk) = 0;
  // Enqueues chunk `index`'s ADDRGEN launch on `q`: one thread per record.
  virtual void enqueue_addrgen(backend::Queue& q, const MappedArgs& mapped, const Chunk& chunk) = 0;
  // Enqueues chunk `index`'s PLAIN or COMPUTE launch on `q` with lane `lane`'s
  // side buffers, then ends the compute span, opens "copy_out" and copies the
  // chunk's results back.
  virtual void enqueue(backend::Queue& q, Mode mode, const MappedArgs& mapped, std::uint32_t lane,
                       std::size_t index, const Chunk& chunk) = 0;
  // The persistent kernel (persistent.h), after begin_run: the app's
  // arguments after BK_MAPPED_PARAMS for a pass of `shape` (buffers a block
  // come from the pool: side_bytes(round_records) a block, which the plan
  // counted) and (an app with mapped writes) the device pointer of its write
  // buffer, one i64 a record, that finish_run reads; false when the app has
  // no persistent kernel.
  virtual bool persistent_args(const PersistentShape& /*shape*/, PersistentAppArgs& /*args*/,
                               std::int64_t*& /*writes*/) {
    return false;
  }
  // Timed: the run's Output from the results in host memory.
  virtual std::unique_ptr<workloads::Output> finish_run() = 0;
  virtual std::uint64_t copied_out() const = 0;
  virtual std::string copy_out_ceiling() const = 0;

 protected:
  // The app's own part of prepare (centroids, flags), after its programs are
  // built.
  virtual void prepare_app(const Params& params, const std::uint8_t* input, std::size_t size) = 0;
  // Its .clh file, and the name of its kernel.
  virtual std::string source_file() const = 0;
  virtual std::string kernel_name() const = 0;
  const backend::Kernel& kernel(Mode mode) const;
  // Variable-length apps: their record table (records.h); by default
  // fixed-length records of record_bytes().
  // (It may keep what it derives from the records for later calls.)
  virtual RecordTable make_records(backend::Device& device, const Params& params,
                                   const std::uint8_t* input, std::size_t size);
  // Any kernel of the app's file, from one of the programs prepare built
  // (every mode's program holds the file's kernels).
  backend::Kernel any_program_kernel(const std::string& name) const;
  // A small buffer for BK_MAPPED_PARAMS a mode does not use.
  backend::Buffer& unused() const { return *unused_; }

  backend::Device* device_ = nullptr;
  blocks::BufferPool* pool_ = nullptr;

 private:
  std::vector<std::shared_ptr<backend::Program>> programs_;
  std::vector<backend::Kernel> kernels_;  // by Mode
  backend::Buffer* unused_ = nullptr;
  RecordTable records_;
  bool sl1_ = false;
};

// The app's AppKernel; a UsageError for an app the family does not run.
std::unique_ptr<AppKernel> make_app_kernel(const std::string& app);
// The apps the family runs.
std::vector<std::string> app_names();

// Launches `kernel` with BK_MAPPED_PARAMS from `m` (dummy buffers where null)
// followed by `rest`.
template <class... Rest>
void launch_mapped(backend::Queue& q, const backend::Kernel& kernel, backend::LaunchShape shape,
                   const MappedArgs& m, backend::Buffer& dummy, std::uint32_t record_bytes,
                   backend::Buffer& writes, const Rest&... rest) {
  // BK_MAPPED_PARAMS' values, then S-L1's when the build has them, then the app's.
  const auto launch = [&](const auto&... sl1) {
    q.launch(kernel, shape, m.data ? *m.data : dummy, m.list ? *m.list : dummy,
             m.counts ? *m.counts : dummy, m.capacity, m.layout, m.data_base, m.chunk_base,
             record_bytes, writes, m.records ? *m.records : dummy, m.record_words, m.list_threads,
             sl1..., rest...);
  };
  if (m.sl1_stats) {
    launch(m.sl1_lines, m.sl1_monitor, *m.sl1_stats, backend::local_memory(m.sl1_local_bytes));
  } else {
    launch();
  }
}

}  // namespace harness::bigkernel
