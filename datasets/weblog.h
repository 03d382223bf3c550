// "weblog": a web server's access log for page view count and rank, one entry
// per line: `URL<TAB>IP<TAB>cookie`. URLs (kWeblogUrls of them, on 200 hosts,
// paths of pseudo-words) are visited with Zipf popularity (exponent 1, offset
// kWeblogUrlOffset); visitors (kWeblogVisitors, each with a fixed IPv4 address
// and a 16-hex-digit cookie) with Zipf activity (offset 10), so popular pages
// get repeat visits that log identical entries; a quarter of the lines repeat
// one of the last 32 lines exactly (reloads). Page view count removes those
// duplicates, then counts each URL's distinct entries.
//
// Independent 4 MiB chunks (chunk i seeded from (seed, i)) of whole lines,
// generated in parallel and written in order: the bytes never depend on the
// thread count. The last line of a chunk carries a longer cookie so that the
// chunk ends exactly at its size with '\n' (chunks under 300 bytes hold one
// line of 'x's instead).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint32_t kWeblogUrls = 20000;
inline constexpr double kWeblogUrlOffset = 1.0;
inline constexpr std::uint32_t kWeblogVisitors = 100000;

const Generator& weblog_generator();

// The URLs for a seed, most visited first (for tests and docs).
std::vector<std::string> weblog_urls(std::uint64_t seed);

}  // namespace harness::datasets
