// Whether a kernel's address generation can be derived (thesis 4.2: the
// compiler rejects a kernel whose mapped reads' addresses, or the control
// flow around them, depend on mapped data). ADDRGEN reads a stand-in value
// for every mapped read (kernels/bigkernel.clh); the pipeline generates its
// first round's addresses twice, with stand-ins 0 and 1, before timing, and
// the two lists must agree.
#pragma once

#include <cstdint>
#include <string>

namespace harness::bigkernel {

// The first difference between two address lists of one round of `threads`
// threads (entry n of thread t at list[n * threads + t], up to `capacity`
// entries a thread, counts[t] reads), as a message naming the record
// (`first_record` + t) and the read; "" when they agree.
std::string first_address_difference(const std::uint64_t* list_zero,
                                     const std::uint32_t* counts_zero,
                                     const std::uint64_t* list_one, const std::uint32_t* counts_one,
                                     std::uint32_t threads, std::uint32_t capacity,
                                     std::uint64_t first_record);

}  // namespace harness::bigkernel
