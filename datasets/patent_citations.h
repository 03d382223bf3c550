// "patent-citations": a patent citation file for Patent Citation, the NBER
// layout with zero-padded numbers: fixed 18-byte records `CITING,CITED\n`,
// both 8-digit decimal patent numbers, sorted by citing patent, each citing
// patent's citations by cited number.
//
// Patents are numbered in time order from kPatentFirstNumber, in eras of
// kPatentEra patents. The first kPatentOldEras eras are older patents that
// are only cited; from then on every patent cites 1..20 earlier ones (the
// count drawn with weights 1/(count + 4): 7.8 on average, as in the NBER
// file). A citation picks how many eras back it looks (0 = the era before
// the citing patent's, weights 1/(back + 3): recent eras are cited most),
// then a patent of that era by its popularity rank (weights 1/(rank + 11),
// ranks scattered over the era by a fixed permutation): a few patents of
// each era collect many citations, as preferential attachment makes them.
// A patent never cites itself (cited eras are earlier) nor one patent twice.
//
// The file holds whole records: output_bytes rounds the size down to a
// multiple of 18. Chunks of kPatentChunkRecords records are generated in
// parallel from (seed, chunk): a first pass draws every chunk's citation
// counts to number its patents, so the bytes never depend on the thread
// count. The last patent of a chunk keeps only the citations that fit.
// Numbers past 99999999 do not fit: sizes above about 13 GB are a UsageError.
#pragma once

#include <cstdint>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::uint64_t kPatentRecordBytes = 18;
inline constexpr std::uint64_t kPatentChunkRecords = 233'016;  // 4 MiB - 16 bytes
inline constexpr std::uint32_t kPatentFirstNumber = 3'000'000;
inline constexpr std::uint32_t kPatentEra = 1 << 14;
inline constexpr std::uint32_t kPatentOldEras = 8;
inline constexpr std::uint32_t kPatentMaxCitations = 20;

const Generator& patent_citations_generator();

}  // namespace harness::datasets
