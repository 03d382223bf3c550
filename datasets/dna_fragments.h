// "dna-fragments": fixed-length sequencing reads for DNA Assembly's first
// stage (thesis ch4/ch5/ch6). Each record is kFragmentRecordBytes = 100
// bytes, one text line:
//
//   bytes  0-9   fragment id, 10 digits (the record's index, zero-padded)
//   byte    10   ' '
//   bytes 11-46  the fragment: 36 bases, each one of A C G T (what the
//                kernel reads: 36% of the record)
//   byte    47   ' '
//   bytes 48-83  quality string, one Phred+33 character per base
//   byte    84   ' '
//   bytes 85-98  sequencer coordinates "L:TTTT:XXX:YYY" (lane, tile, x, y)
//   byte    99   '\n'
//
// The reads come from a random genome (41% GC) whose length grows with the
// file, kFragmentCoverage = 30 bases of reads per genome base (so about 0.83
// reads start at each genome position), with repeated regions: interspersed
// repeat families of 300-3000 bases copied with 1% divergence until they
// cover 8% of the genome, and microsatellites (units of 1-6 bases repeated to
// 30-200 bases) covering 1%. A read starts at a uniform position on the
// forward strand; 10% are PCR duplicates of one of the chunk's last 64 reads
// (the same position, fresh noise). Sequencing noise substitutes a base with
// probability 0.4% at the read's first base rising to 1.6% at its last
// (1% on average); substituted bases get low quality (Q2-14), others Q20-40.
// So identical fragments (and 32-base parts) occur often and noisy ones once.
//
// The file is a whole number of records: output_bytes rounds the requested
// size down to a multiple of 100. The genome is built first (serially, from
// (seed, genome length)); then independent chunks of 40,000 records (chunk i
// seeded from (seed, i)) are generated in parallel and written in order: the
// bytes never depend on the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "datasets/dataset.h"

namespace harness::datasets {

inline constexpr std::size_t kFragmentRecordBytes = 100;
inline constexpr std::size_t kFragmentBasesAt = 11;
inline constexpr std::size_t kFragmentBases = 36;
inline constexpr std::uint64_t kFragmentCoverage = 30;

const Generator& dna_fragments_generator();

// The genome the reads of a file of `records` records come from (for tests
// and docs).
std::string dna_fragments_genome(std::uint64_t records, std::uint64_t seed);

}  // namespace harness::datasets
