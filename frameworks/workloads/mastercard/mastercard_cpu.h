// MasterCard Affinity's CPU-MT implementation (mastercard_answer.h defines
// the answer), shared by both workloads, which differ only in how a record's
// fields are found: by scanning every byte for the newlines and separators
// (mastercard) or from the index (mastercard-indexed, which reads the card and
// merchant fields and nothing else of the input). The input must pass
// check_input: a malformed record is skipped or misread, never read outside
// the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "frameworks/workloads/mastercard/mastercard_index.h"
#include "frameworks/workloads/workload.h"

namespace harness::workloads::mastercard {

std::unique_ptr<Output> affinity_from_lines(const std::uint8_t* data, std::size_t size,
                                            const std::string& merchant, unsigned threads);

// `index`: the entries of the records to count, in any order (the whole
// index, or, from BigKernel, those of the transactions by X's customers).
std::unique_ptr<Output> affinity_from_index(const std::uint8_t* data,
                                            std::span<const MastercardIndexEntry> index,
                                            const std::string& merchant, unsigned threads);

}  // namespace harness::workloads::mastercard
