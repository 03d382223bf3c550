// The Mars GPU string library (Mars paper, section 3.3; figure 3: mars.fig3)
// as a harness family: six C string functions run once per operation of a
// set, on the GPU with byte (char) or 4-byte (char4) accesses
// (kernels/strlib.clh), and on every host core with the C library. See
// README.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/backend/backend.h"

namespace harness::mars::strlib {

enum class Op { strcpy_op, strcat_op, memset_op, strcmp_op, strchr_op, strstr_op };

const std::vector<Op>& all_ops();
const char* op_name(Op op);            // "strcpy", ...
Op parse_op(const std::string& name);  // throws UsageError
// strcpy, strcat and memset write strings (bytes); the other three one value per operation.
bool writes_bytes(Op op);

// A set of operations in Mars' layout: one byte pool holding every
// operation's strings A, B and needle, each NUL-terminated, operation after
// operation, and a directory of offsets and lengths (plus the byte c). The
// pool is padded with at least 8 NUL bytes to a multiple of 4 (the char4
// functions read up to a word past a terminator).
struct OpSet {
  std::vector<std::uint8_t> pool;
  std::vector<std::uint32_t> a_off, a_len, b_off, b_len, n_off, n_len;
  std::vector<std::uint8_t> ch;
  std::size_t size() const { return a_off.size(); }
  std::string_view a(std::size_t i) const;
  std::string_view b(std::size_t i) const;
  std::string_view needle(std::size_t i) const;
};

// One operation's operands, for hand-made sets (tests, edge cases).
struct StrOp {
  std::string a, b, needle;
  unsigned char c = 'a';
};

// Throws UsageError when a string holds a NUL byte; RunError past 32-bit offsets.
OpSet make_opset(std::span<const StrOp> ops);
// The "strops" dataset (datasets/strops.h): 80-byte records, one operation
// each (a partial record at the end is ignored).
OpSet parse_strops(const std::uint8_t* data, std::size_t bytes);

// Where each operation's destination string lies in the destination pool
// (strcpy: |A| + 1 bytes, strcat: |A| + |B| + 1, memset: |A|), packed in
// operation order, so the pool is exactly the operations' output; `padded`
// adds the char4 slack. Empty for strcmp, strchr, strstr.
struct DstLayout {
  std::vector<std::uint32_t> off;
  std::size_t used = 0;
  std::size_t padded = 0;
};
DstLayout dst_layout(Op op, const OpSet& set);
// The destination pool before the operations: strcat's holds each A, its NUL,
// then poison bytes (0xA5, never a NUL); the others are all poison.
std::vector<std::uint8_t> initial_dst(Op op, const OpSet& set, const DstLayout& layout);

// An operation set's results: the destination pool (`used` bytes) for the
// writing ops; one value per operation otherwise (strcmp: the sign, -1/0/1;
// strchr and strstr: the match's index from the string's start, -1 when none).
struct Output {
  std::vector<std::uint8_t> bytes;
  std::vector<std::int32_t> values;
};
inline constexpr std::int32_t kPoisonValue = 0x7fffffff;  // never a valid value
inline constexpr std::uint8_t kPoisonByte = 0xA5;

// The independent CPU answer: std::string_view operations on the directory's
// lengths (no C string function, no NUL scanning).
Output reference(Op op, const OpSet& set, const DstLayout& layout);
// The baseline: the C library's function on every operation, `threads` host
// threads each taking a contiguous share. `dst` holds initial_dst (writing
// ops), `values` set.size() entries (the others).
void run_libc(Op op, const OpSet& set, const DstLayout& layout, std::uint8_t* dst,
              std::int32_t* values, unsigned threads);
// "" when equal; else how many operations are wrong and the first three,
// with their operands, expected and actual results.
std::string compare_outputs(Op op, const OpSet& set, const DstLayout& layout,
                            const Output& expected, const Output& got);

// Bytes one operation set reads and writes at least once (a byte-at-a-time
// implementation's traffic: strings up to the terminator, the first
// difference or the match; directory entries), for the declared work.
struct Traffic {
  std::uint64_t read = 0, written = 0;
};
Traffic op_traffic(Op op, const OpSet& set, const Output& expected);

// The GPU side: kernels (program "mars/strlib"), device buffers and the
// launches of one operation on one set.
class GpuStrlib {
 public:
  GpuStrlib(backend::Device& device, Op op, bool char4, const OpSet& set, const DstLayout& layout,
            std::uint32_t group_size);
  // Untimed: poisons the device's output (and queues nothing else).
  void reset();
  // Spans copy_in (operands, directory; strcat's initial destination), ops
  // (one launch), copy_out (results into `out`); finishes the queue.
  void run(Output& out);
  std::uint64_t copied_in() const { return copied_in_; }
  std::uint64_t copied_out() const { return copied_out_; }

 private:
  struct Upload {
    backend::Buffer* buffer;
    const void* data;
    std::size_t bytes;
  };
  backend::Buffer alloc(std::size_t bytes);

  backend::Device& device_;
  Op op_;
  const OpSet& set_;
  const DstLayout& layout_;
  std::uint32_t group_size_;
  std::shared_ptr<backend::Program> program_;
  backend::Kernel kernel_;
  backend::Buffer pool_, off1_, off2_, aux_, dst_, out_;
  std::vector<std::uint8_t> initial_;
  std::vector<Upload> uploads_;
  std::uint64_t copied_in_ = 0, copied_out_ = 0;
};

// The apps strcpy ... strstr and the variants marsstr/gpu-char,
// marsstr/gpu-char4 (opencl, cuda) and marsstr/cpu-libc (cpu).
void register_family();

}  // namespace harness::mars::strlib
