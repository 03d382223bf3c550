// What the text generators share: chunks generated independently (chunk i
// seeded from (seed, i)) on several threads and written in order, so the
// bytes never depend on the thread count; and a chunk's clean end.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace harness::datasets {

// Fills `buffer` with chunk `index`, exactly `size` bytes.
using ChunkMaker = std::function<void(std::uint64_t index, std::size_t size, std::string& buffer)>;

// Writes size_bytes bytes as chunks of chunk_bytes (the last one shorter),
// made by `make_chunk` on `threads` threads (0: hardware concurrency) and
// written in order. Throws UsageError("<generator>: chunk size ...") for a
// chunk size outside 1 byte..1 GiB; rethrows a maker's exception. Stops when
// `out` goes bad.
void write_chunks(const std::string& generator, std::uint64_t size_bytes, std::uint64_t chunk_bytes,
                  unsigned threads, std::ostream& out, const ChunkMaker& make_chunk);

// Makes the last byte '\n' and blanks a UTF-8 character the chunk's end cut
// in half.
void end_chunk_with_newline(std::string& out);

}  // namespace harness::datasets
