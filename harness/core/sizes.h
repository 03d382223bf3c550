// Sizes as people write them ("4MiB", "1.5GB", "4096") and back: dataset
// sizes, size-typed parameters and result keys share one spelling.
#pragma once

#include <cstdint>
#include <string>

namespace harness {

// "4MiB", "1GiB", "512KiB", "100MB", "1.5GB", "4096", "4096B". Units are
// case-insensitive: KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB powers of
// 1000, B (or no unit) is bytes. A fraction (at most 6 decimal places) needs a
// unit and is rounded to the nearest byte. Throws harness::UsageError
// ("invalid size 'x': ...") for empty, negative, junk or overflowing input.
std::uint64_t parse_size(const std::string& text);

// Exact inverse of parse_size for display and file names: the largest unit of
// TiB, TB, GiB, GB, MiB, MB, KiB, KB that divides the size exactly ("4MiB",
// "1GiB", "100MB", "1KB"), else plain bytes ("1536B", "0B").
// parse_size(format_size(n)) == n for every n.
std::string format_size(std::uint64_t bytes);

}  // namespace harness
