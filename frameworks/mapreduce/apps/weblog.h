// Web logs for page view count and rank, read the way their references read
// them (independently of the jobs' dialect code): an entry is a line without
// its '\n' and a '\r' before it; empty lines are not entries; a page view is
// an entry `URL<TAB>IP<TAB>...` with a non-empty URL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace harness::apps {

// The distinct entries of a log.
std::unordered_set<std::string_view> distinct_entries(const std::uint8_t* data, std::size_t size);

// URL -> page views: the distinct entries that are page views of the URL.
std::unordered_map<std::string, std::uint32_t> page_views(const std::uint8_t* data,
                                                          std::size_t size);

// The keys of a job's output as lines of text, each ending in '\n' (the
// distinct entries, as the input of page view count's second job), written
// over `into` (its memory reused).
void keys_as_lines(const std::vector<std::pair<std::string, std::string>>& output,
                   std::string& into);

}  // namespace harness::apps
