// MasterCard Affinity (indexed)'s index file (thesis table 4.1: "an extra
// index file (not mapped) is provided that contains offsets to the
// data-fields within the input"): one entry per record, in input order, with
// where its card number and merchant id lie, so a kernel reads those two
// fields and nothing else of the mapped input.
//
// A user could bring the index; here it is always derived from the input
// (build_mastercard_index), untimed: check_input of mastercard-indexed, which
// every family calls before its runs, builds it and keeps it for the input
// (mastercard_index_of), so run_cpu and a family's prepare() find it ready.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace harness::workloads {

struct MastercardIndexEntry {
  std::uint64_t card;             // byte offset of the card number's 16 digits
  std::uint32_t merchant_offset;  // of the merchant id, from `card`
  std::uint32_t merchant_length;  // bytes of the merchant id (1-32)
};
static_assert(sizeof(MastercardIndexEntry) == 16);

using MastercardIndex = std::vector<MastercardIndexEntry>;

// The index of data[0, size), built on `threads` threads (0: every core).
// Throws RunError "mastercard-indexed: line N (byte B): ..." at the first
// malformed record (mastercard_format.h).
MastercardIndex build_mastercard_index(const std::uint8_t* data, std::size_t size,
                                       unsigned threads = 0);

// The index of data[0, size) kept for that input (one input at a time): the
// one the last call built for this address and size, else a new one. With
// `rebuild`, always a new one (check_input: the bytes at an address may have
// changed since).
std::shared_ptr<const MastercardIndex> mastercard_index_of(const std::uint8_t* data,
                                                           std::size_t size, bool rebuild = false);

}  // namespace harness::workloads
