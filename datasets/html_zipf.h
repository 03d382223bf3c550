// "html-zipf": synthetic HTML pages for the inverted index. Pages follow one
// another, each beginning with a delimiter line `<!-- page: NAME -->` (the
// inverted index's page rule: a page starts at every line that begins with
// `<!-- page:`), then a small HTML document: head (title, a stylesheet
// <link href>), a navigation bar, headings, paragraphs of pseudo-English text
// (text-zipf's vocabulary) with inline links, link lists, images and decoys
// that are not links (<link>, <area href>, <abbr>, <a name> without href,
// data-href attributes, escaped `&lt;a href=...&gt;` in <pre>).
//
// Link targets are drawn from kHtmlZipfUrls URLs with Zipf frequencies
// (exponent 1, offset kHtmlZipfOffset): relative (page.html, dir/page.html,
// ../dir/page.html, #fragment), root-relative (/dir/page.html) and absolute
// (https://host/...; query strings with &amp;; mailto:; percent escapes).
// Anchor tags vary as real HTML does: attributes before and after href,
// double, single or no quotes, `=` with spaces, upper-case <A HREF=...>, a
// tab after <a, a repeated href (the first counts). An <a ...> start tag never
// spans two lines (the inverted index reads links line by line); 2% of the
// pages have their whole body on one line (minified), 3% end lines in CRLF.
//
// The output is made of independent chunks of chunk_bytes (chunk i seeded from
// (seed, i)), generated in parallel and written in order, so it is
// byte-identical for any thread count. A chunk holds whole pages except the
// last, which is cut at the chunk's end; every chunk ends in '\n' and never
// splits a UTF-8 character.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint64_t kHtmlZipfChunkBytes = std::uint64_t{4} << 20;
inline constexpr std::uint32_t kHtmlZipfUrls = 50000;
inline constexpr double kHtmlZipfOffset = 1.0;

const Generator& html_zipf_generator();

// The generator's work with the thread count (0: hardware concurrency) and the
// chunk size as parameters. The bytes depend on chunk_bytes (the generator
// always uses kHtmlZipfChunkBytes) but never on threads.
void generate_html_zipf(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out,
                        unsigned threads, std::uint64_t chunk_bytes = kHtmlZipfChunkBytes);

// The link targets for a seed, most linked first (for tests and docs).
std::vector<std::string> html_zipf_urls(std::uint64_t seed);

}  // namespace harness::datasets
