// "geo-articles": Wikipedia articles with the place each was created from,
// for Geo Location, one article per line:
//   article_id<TAB>title<TAB>location<TAB>timestamp<TAB>bytes<TAB>contributor\n
// Locations are `Town, Region, Country` names of pseudo-words, all distinct:
// geo_articles_places(size) of them (1000 + 50 sqrt(size in KiB): about 23
// thousand at 0.2 GB, 110 thousand at 5 GB), countries drawn with Zipf
// weights (some countries hold many towns). Articles pick their location
// with Zipf popularity (weights 1/(rank + 2)). Titles are 1-4 capitalized
// pseudo-words; the timestamp (ISO 8601, UTC) and the id both grow with the
// line's offset in the file: id 1000000 + offset/32 (lines are longer than
// 32 bytes, so ids increase, with gaps), time 2001-01-15 plus offset/8
// seconds; bytes is the article's size, contributor a user name.
//
// Independent 4 MiB chunks (chunk i seeded from (seed, i)) of whole lines,
// generated in parallel and written in order: the bytes never depend on the
// thread count. A chunk's last line pads its contributor with 'x' so the
// chunk ends exactly at its size with '\n'; a chunk too small for one line
// (only the last one can be) holds empty lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint32_t kGeoFirstArticleId = 1'000'000;
inline constexpr double kGeoPlaceOffset = 1.0;  // Zipf weights 1 / (rank + 1 + offset)

const Generator& geo_articles_generator();

// The number of distinct places of a file of `size_bytes`.
std::uint32_t geo_articles_places(std::uint64_t size_bytes);

// The locations for (size, seed), most popular first (for tests and docs).
std::vector<std::string> geo_articles_locations(std::uint64_t size_bytes, std::uint64_t seed);

}  // namespace harness::datasets
