// The host side of S-L1's apps (apps/*.clh): each app's buffers beside the
// text, its kernel's arguments and its answer read back as the workload's
// Output. The text, the cuts, the launch shape and the S-L1 arguments are
// the point's (sl1.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frameworks/sl1/sl1.h"
#include "frameworks/workloads/workload.h"
#include "harness/backend/backend.h"
#include "harness/core/params.h"

namespace harness::sl1 {

// What every kernel takes beside the app's own buffers.
struct Launch {
  Mode mode = Mode::no_l1;  // the variant's: which of the app's kernels runs
  backend::LaunchShape shape;
  backend::Buffer* text = nullptr;
  std::uint64_t size = 0;  // bytes of text (the buffer is padded past them)
  // The sliced kernels (every mode but staging).
  backend::Buffer* cuts = nullptr;
  std::uint32_t lines = 0, monitor = 0;
  backend::Buffer* stats = nullptr;
  std::size_t local_bytes = 8;
  // The staged kernels: tiles of `part` bytes a work-item in local memory.
  std::uint32_t part = 0;
};

class AppKernel {
 public:
  virtual ~AppKernel() = default;
  // The kernel source (apps/<app>.clh).
  virtual std::string source() const = 0;
  // The cacheable structures, in the order of their ids in the app's .clh.
  virtual std::vector<std::string> structures() const = 0;
  // parts + 1 byte offsets, each work-item's slice: whole lines (line_cuts)
  // unless the app's records say otherwise.
  virtual std::vector<std::uint64_t> cuts(const std::uint8_t* input, std::size_t size,
                                          unsigned parts) const;
  // Empty when the app has a staged kernel, else why not.
  virtual std::string staging_problem() const { return {}; }
  // Whether the app has a coalesced kernel (upper and wc: answers that are
  // sums over bytes and their neighbours, so any cut of the text will do).
  virtual bool has_coalesced() const { return false; }
  // The kernel of a mode: the app's accessor kernel, or its staged or
  // coalesced one.
  virtual std::string kernel_name(Mode mode) const = 0;
  // Untimed: the app's own buffers for an input scanned by `threads`.
  virtual void prepare(backend::Device& device, const Params& params, const std::uint8_t* input,
                       std::size_t size, std::uint64_t threads) = 0;
  // Timed: resets what a run consumes, then launches.
  virtual void launch(backend::Queue& q, const backend::Kernel& kernel, const Launch& l) = 0;
  // Timed: the answer copied back.
  virtual std::unique_ptr<workloads::Output> read_output(backend::Queue& q, const Launch& l) = 0;
  virtual std::uint64_t copied_out() const = 0;
  // Bytes of the input the kernel writes (for the point's work).
  virtual std::uint64_t written_bytes(std::uint64_t /*size*/) const { return 0; }
  // Launches per run, each writing its own statistics (SL1_END_PASS).
  virtual std::uint32_t passes() const { return 1; }
};

// A read whose bytes the host uses next. Queue commands are asynchronous:
// CUDA's copy into pageable memory happens to return when done, its copy into
// pinned memory does not, so the read is followed by finish().
void read_now(backend::Queue& q, void* dst, const backend::Buffer& src, std::size_t offset,
              std::size_t bytes);

// A device buffer of `bytes` from `data`, zero-padded to whole lines of every
// size (S-L1 loads whole lines past a structure's end).
backend::Buffer padded_copy(backend::Device& device, const void* data, std::size_t bytes);
// The same of zeros (an output structure S-L1 may cache).
backend::Buffer padded_zeros(backend::Device& device, std::size_t bytes);
// parts + 1 byte offsets of whole records of `record` bytes, as evenly as they go.
std::vector<std::uint64_t> record_cuts(std::size_t size, std::size_t record, unsigned parts);
// Lines of a text, a last one without '\n' included.
std::uint64_t count_lines(const std::uint8_t* input, std::size_t size);

// The apps that aggregate into hash tables with atomics (table_apps.cpp).
std::unique_ptr<AppKernel> make_dna_kernel();
// mastercard, or with `indexed` mastercard-indexed.
std::unique_ptr<AppKernel> make_mastercard_kernel(bool indexed);
// The thesis' other three apps, each in <app>_kernel.cpp.
std::unique_ptr<AppKernel> make_inverted_index_kernel();
std::unique_ptr<AppKernel> make_page_view_count_kernel();
std::unique_ptr<AppKernel> make_matrix_multiply_kernel();

std::unique_ptr<AppKernel> make_app_kernel(const std::string& app);
const std::vector<std::string>& app_names();

}  // namespace harness::sl1
