// BigKernel's CPU assembly stage (thesis 4.2, fig. 4.2 stage 2): from the
// addresses a round's threads generated on the device, gather the named
// bytes of the mapped (host) array into the prefetch buffer, in the layout
// the COMPUTE build reads (kernels/bigkernel.clh). Pure host code, so the
// layouts and the pattern fallback are tested without a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::bigkernel {

// An address-list entry: the mapped byte offset in bits 0-59, log2 of the
// read's width in bits 60-63.
constexpr std::uint64_t kAddressMask = (std::uint64_t{1} << 60) - 1;
inline std::uint64_t entry_offset(std::uint64_t e) { return e & kAddressMask; }
inline std::uint32_t entry_width(std::uint64_t e) { return 1u << (e >> 60); }

// kernels/pattern.clh's descriptor, read back: every thread t < threads read
// first[n] + t * stride for n < count (widths from first[n]). A record
// pattern (variable-length records, bk_find_record_pattern): thread t read
// its record's first byte + first[n] for n < its own count (at most
// `count`); `stride` is unused.
struct AddressPattern {
  bool holds = false;
  std::uint32_t count = 0;
  std::uint64_t stride = 0;  // two's complement
  std::vector<std::uint64_t> first;
};
// Words of the descriptor for at most `max_entries` reads a thread.
inline std::size_t descriptor_words(std::uint32_t max_entries) { return 3 + max_entries; }
AddressPattern read_descriptor(const std::uint64_t* words, std::uint32_t max_entries);

// The layouts of the assembled values (BK_LAYOUT_*).
enum class Layout : std::uint32_t { coalesced = 0, thread = 1 };

// Where each read's value goes for a round of `threads` threads (its
// records) whose n-th reads have width widths[n].
struct ValueLayout {
  Layout layout = Layout::coalesced;
  std::uint32_t threads = 0;
  std::vector<std::uint32_t> widths;
  std::vector<std::uint64_t>
      offset;                      // coalesced: segment n's start; thread: n's offset in a thread
  std::uint32_t thread_bytes = 0;  // thread layout: bytes a thread (a multiple of the widest)
  std::uint64_t bytes = 0;         // the whole buffer
  std::uint64_t at(std::uint32_t thread, std::uint32_t n) const {
    return layout == Layout::coalesced ? offset[n] + std::uint64_t{thread} * widths[n]
                                       : std::uint64_t{thread} * thread_bytes + offset[n];
  }
};
ValueLayout value_layout(Layout layout, std::uint32_t threads,
                         const std::vector<std::uint32_t>& widths);

// The n-th read's width of a raw list (access-major: entry n of thread t at
// list[n * list_threads + t]): that of the first thread that made n + 1 reads.
std::vector<std::uint32_t> widths_of(const std::uint64_t* list, const std::uint32_t* counts,
                                     std::uint32_t threads, std::uint32_t list_threads);

// Gathers the values of threads [t0, t1) into `values` (laid out by
// `layout`) from `mapped` (`mapped_size` bytes). A read past the array or
// with another width than the layout's n-th is a RunError naming the thread.
void assemble_by_pattern(const std::uint8_t* mapped, std::uint64_t mapped_size,
                         const AddressPattern& pattern, const ValueLayout& layout, std::uint32_t t0,
                         std::uint32_t t1, std::uint8_t* values);
// A record pattern's values of threads [t0, t1): thread t's record starts at
// bases[t * base_stride] (the round's slice of the record table) and it made
// counts[t] reads; threads with fewer reads than the pattern leave the rest
// of their places alone. A count above the pattern's or a read past the
// array is a RunError naming the thread.
void assemble_by_record_pattern(const std::uint8_t* mapped, std::uint64_t mapped_size,
                                const AddressPattern& pattern, const ValueLayout& layout,
                                const std::uint64_t* bases, std::uint32_t base_stride,
                                const std::uint32_t* counts, std::uint32_t t0, std::uint32_t t1,
                                std::uint8_t* values);
void assemble_raw(const std::uint8_t* mapped, std::uint64_t mapped_size, const std::uint64_t* list,
                  const std::uint32_t* counts, std::uint32_t list_threads,
                  const ValueLayout& layout, std::uint32_t t0, std::uint32_t t1,
                  std::uint8_t* values);

// A round's addresses as the host received them: a pattern that holds, or
// the raw list (access-major, `threads` its thread dimension); each thread's
// count with a raw list and with a record pattern (variable-length records:
// `bases`, the round's entries of the record table, `base_stride` u64 each).
struct RoundAddresses {
  AddressPattern pattern;
  const std::uint64_t* list = nullptr;
  const std::uint32_t* counts = nullptr;
  std::uint32_t threads = 0;
  const std::uint64_t* bases = nullptr;
  std::uint32_t base_stride = 0;
  bool has_counts() const { return !pattern.holds || bases != nullptr; }
};
// A RunError naming the record when a thread of the round (its first record
// `first_record`) made more reads than `capacity` (the app's max_reads is
// wrong; the lists hold no more); nothing for a round without counts.
void check_read_counts(const std::string& variant, const RoundAddresses& round,
                       std::uint64_t first_record, std::uint32_t capacity);
// The width of the round's n-th reads: the pattern's, or the raw list's.
std::vector<std::uint32_t> round_widths(const RoundAddresses& round);
// Gathers the values of threads [t0, t1) by whichever the round has: a record
// pattern, a pattern or the raw list.
void assemble_round(const std::uint8_t* mapped, std::uint64_t mapped_size,
                    const RoundAddresses& round, const ValueLayout& layout, std::uint32_t t0,
                    std::uint32_t t1, std::uint8_t* values);

}  // namespace harness::bigkernel
