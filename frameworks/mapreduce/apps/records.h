// Record splitting shared by the text apps: records are lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace harness::apps {

// Splits data[0, size) into records: each line (up to and including its '\n';
// the last may lack one) is a record. With max_record_bytes > 0, a line longer
// than that is cut at the first position p >= start + max_record_bytes where
// can_cut(data[p - 1], data[p]) holds (never inside a token the app must see
// whole). Returns the start offsets followed by `size`. Inputs of 8 MiB and
// more are split on all host cores, each thread taking a run of whole lines:
// the records are those of a serial split. size must be below 4 GiB.
std::vector<std::uint32_t> split_lines(const std::uint8_t* data, std::size_t size,
                                       std::size_t max_record_bytes = 0,
                                       bool (*can_cut)(std::uint8_t before,
                                                       std::uint8_t after) = nullptr);

// Records of the numeric apps, one per task: record r spans [codes[r],
// codes[r + 1]) and the map reads only its begin offset, the task's code (an
// output cell i * m + j, a document pair i * docs + j). Returns an empty
// vector with room for count + 1 entries: the caller appends the ascending
// codes, then `end` (> every code). Throws RunError naming `app` when they do
// not fit the 32-bit record offsets.
std::vector<std::uint32_t> reserve_task_records(const std::string& app, std::uint64_t count,
                                                std::uint64_t end);

// Runs fn(begin, end) over [0, count) split into contiguous blocks, one per
// host core (the references' parallel loops).
void parallel_blocks(std::size_t count, const std::function<void(std::size_t, std::size_t)>& fn);

}  // namespace harness::apps
