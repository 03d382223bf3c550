// dna-assembly: the hand-written example's answer, run_cpu against the
// reference on every thread count, the packed keys and the table, the input
// checks, the "dna-fragments" generator and the access share.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "datasets/dna_fragments.h"
#include "frameworks/workloads/dna_assembly/dna_cpu.h"
#include "frameworks/workloads/dna_assembly/dna_format.h"
#include "frameworks/workloads/dna_assembly/dna_part_table.h"
#include "frameworks/workloads/dna_assembly/dna_parts_output.h"
#include "frameworks/workloads/tests/fixed_text_test_support.h"
#include "harness/core/errors.h"

namespace harness::workloads {
namespace {

using namespace test_support;
using dna::kRecordBytes;

constexpr const char* kApp = "dna-assembly";

// A record with the 36 `bases` and plausible other fields.
std::string record(const std::string& bases, std::uint64_t id = 7) {
  EXPECT_EQ(bases.size(), 36u);
  std::string id_text = std::to_string(id);
  std::string r = std::string(10 - id_text.size(), '0') + id_text + ' ' + bases + ' ' +
                  std::string(36, 'I') + " 1:1101:123:456\n";
  EXPECT_EQ(r.size(), kRecordBytes);
  return r;
}

std::string random_bases(std::mt19937_64& rng, std::size_t n) {
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() % 4];
  return s;
}

std::filesystem::path example(const char* file) {
  return source_dir() / "frameworks/workloads/dna_assembly/examples" / file;
}

TEST(DnaAssembly, HandWrittenExample) {
  const std::string input = read_file(example("small.txt"));
  ASSERT_EQ(input.size(), 12 * kRecordBytes);
  EXPECT_EQ(dump(*reference(kApp, input)), read_file(example("small.expected")));
  expect_cpu_agrees(kApp, input);
}

TEST(DnaAssembly, PythonCheckAcceptsTheExampleAndRejectsOtherAnswers) {
  if (!have_python()) GTEST_SKIP() << "no python3";
  EXPECT_EQ(run_check("dna_assembly_check.py", example("small.txt"), example("small.expected")), 0);
  std::string expected = read_file(example("small.expected"));
  std::string wrong_mask = expected;
  wrong_mask.replace(wrong_mask.find("\t2\t2\t33024"), 10, "\t2\t3\t33024");
  const TempFile a(wrong_mask);
  EXPECT_EQ(run_check("dna_assembly_check.py", example("small.txt"), a.path()), 1);
  const TempFile b(expected.substr(expected.find('\n') + 1));  // a part missing
  EXPECT_EQ(run_check("dna_assembly_check.py", example("small.txt"), b.path()), 1);
  // And a generated input with the reference's dump.
  const std::string input = generate("dna-fragments", 300000);
  const TempFile in(input), out(dump(*reference(kApp, input)));
  EXPECT_EQ(run_check("dna_assembly_check.py", in.path(), out.path()), 0);
}

TEST(DnaAssembly, PackedPartsRoundTripInBaseCodeOrder) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 1000; ++i) {
    const std::string bases = random_bases(rng, 32);
    const std::uint64_t key = dna::pack_part(bytes(bases));
    EXPECT_EQ(dna::unpack_part(key), bases);
    for (std::size_t b = 0; b < 32; ++b)
      ASSERT_EQ(static_cast<int>((key >> (2 * b)) & 3),
                dna::base_code(static_cast<std::uint8_t>(bases[b])));
  }
  EXPECT_EQ(dna::pack_part(bytes(std::string(32, 'A'))), 0u);
  EXPECT_EQ(dna::pack_part(bytes(std::string(32, 'T'))), ~std::uint64_t{0});
  for (char x : std::string("ACGT")) {
    for (char y : std::string("ACGT")) {
      const std::string edge{x, y};
      EXPECT_EQ(dna::edge_mask(bytes(edge)), 1u << dna::edge_bit(bytes(edge))) << edge;
    }
  }
  EXPECT_EQ(dna::edge_bit(bytes(std::string("AA"))), 0u);
  EXPECT_EQ(dna::edge_bit(bytes(std::string("CG"))), 6u);
  EXPECT_EQ(dna::edge_bit(bytes(std::string("TT"))), 15u);
}

// part_text_order orders packed parts as their text (the table's order), so
// the packed output adds its rows already sorted; it is its own inverse.
TEST(DnaAssembly, PartTextOrderIsTheTextsOrder) {
  std::mt19937_64 rng(6);
  std::vector<std::uint64_t> keys = {0, ~std::uint64_t{0}, 1, std::uint64_t{1} << 62};
  for (int i = 0; i < 2000; ++i) keys.push_back(rng());
  for (int i = 0; i < 200; ++i) keys.push_back(keys[i] ^ (std::uint64_t{1} << (rng() % 64)));
  for (std::size_t i = 1; i < keys.size(); ++i) {
    const std::uint64_t a = keys[i - 1], b = keys[i];
    EXPECT_EQ(dna::part_text_order(a) < dna::part_text_order(b),
              dna::unpack_part(a) < dna::unpack_part(b))
        << dna::unpack_part(a) << " " << dna::unpack_part(b);
    EXPECT_EQ(dna::part_text_order(dna::part_text_order(a)), a);
  }
}

TEST(DnaAssembly, PartTableCombinesAndGrows) {
  dna::PartTable t;  // no slots: grows on the first add
  for (std::uint64_t k = 0; k < 5000; ++k) {
    const std::uint64_t key = k % 1000;  // key 0 (all A) too
    t.add({key, 1, static_cast<std::uint16_t>(1u << (k % 16)), 1}, dna::part_hash(key));
  }
  EXPECT_EQ(t.size(), 1000u);
  std::size_t seen = 0;
  for (const dna::PartSlot& s : t.slots()) {
    if (s.count == 0) continue;
    ++seen;
    EXPECT_EQ(s.count, 5u);
    EXPECT_EQ(s.right, 1u);
    std::uint16_t left = 0;
    for (std::uint64_t k = s.key; k < 5000; k += 1000)
      left |= static_cast<std::uint16_t>(1u << (k % 16));
    EXPECT_EQ(s.left, left);
  }
  EXPECT_EQ(seen, 1000u);
}

TEST(DnaAssembly, TinyAndDegenerateInputsAgree) {
  EXPECT_EQ(dump(*reference(kApp, "")), "");
  expect_cpu_agrees(kApp, "");
  const std::string one = record("AC" + std::string(32, 'G') + "TA");
  EXPECT_EQ(dump(*reference(kApp, one)), std::string(32, 'G') + "\t1\t2\t4096\n");
  expect_cpu_agrees(kApp, one);
  // All parts equal: one row, every edge seen.
  std::string same, distinct;
  std::mt19937_64 rng(3);
  const std::string part = random_bases(rng, 32);
  for (int i = 0; i < 1000; ++i) {
    const std::string edges = random_bases(rng, 4);
    same += record(edges.substr(0, 2) + part + edges.substr(2));
    distinct += record(random_bases(rng, 36), static_cast<std::uint64_t>(i));
  }
  EXPECT_EQ(dump(*reference(kApp, same)), part + "\t1000\t65535\t65535\n");
  expect_cpu_agrees(kApp, same);
  EXPECT_EQ(reference(kApp, distinct)->items(), 1000u);
  expect_cpu_agrees(kApp, distinct);
  // 13 records split unevenly (some threads get none).
  expect_cpu_agrees(kApp, distinct.substr(0, 13 * kRecordBytes));
}

TEST(DnaAssembly, ThreadsAgreeWithTheReferenceOnGeneratedFragments) {
  const std::string input = generate("dna-fragments", 3 << 20);
  expect_cpu_agrees(kApp, input);
  // Straight from count_parts_parallel: every part in its hash's partition.
  const auto tables = dna::count_parts_parallel(bytes(input), input.size(), 4);
  ASSERT_EQ(tables.size(), dna::kPartitions);
  std::size_t parts = 0;
  for (std::size_t p = 0; p < tables.size(); ++p) {
    for (const dna::PartSlot& s : tables[p].slots()) {
      if (s.count == 0) continue;
      ++parts;
      ASSERT_EQ(dna::part_hash(s.key) >> (64 - dna::kPartitionBits), p);
    }
  }
  EXPECT_EQ(parts, reference(kApp, input)->items());
}

TEST(DnaAssembly, PackedOutputIsUsableOnlyAfterFinish) {
  const std::string input = read_file(example("small.txt"));
  auto out = find_workload(kApp).run_cpu({}, bytes(input), input.size(), 2);
  EXPECT_EQ(out->items(), 6u);
  EXPECT_THROW(dump(*out), std::logic_error);
  out->finish();
  EXPECT_EQ(out->items(), 6u);
  auto again = find_workload(kApp).run_cpu({}, bytes(input), input.size(), 3);
  again->finish();
  EXPECT_EQ(out->compare_with(*again, {}), "");
  const auto wrong = reference(kApp, input.substr(0, 11 * kRecordBytes));
  EXPECT_NE(out->compare_with(*wrong, {}), "");
}

TEST(DnaAssembly, MalformedRecordsNameTheirIndexAndOffset) {
  const Workload& w = find_workload(kApp);
  auto error = [&](const std::string& input) -> std::string {
    try {
      w.check_input(bytes(input), input.size());
    } catch (const RunError& e) {
      EXPECT_THROW(w.reference({}, bytes(input), input.size()), RunError);
      return e.what();
    }
    return "no error";
  };
  const std::string good = read_file(example("small.txt"));
  EXPECT_EQ(error(good), "no error");
  EXPECT_EQ(error(good.substr(0, 250)),
            "dna-assembly: record 2 (bytes 200-299), byte 250: the input ends after 50 of the "
            "record's 100 bytes (records are 100 bytes: 250 bytes are not a whole number of "
            "records)");
  std::string n = good;
  n[300 + 11 + 20] = 'N';
  EXPECT_EQ(error(n),
            "dna-assembly: record 3 (bytes 300-399), byte 331: base 20 of the fragment is 'N', "
            "not one of A C G T (the fragment is bytes 11-46 of a record)");
  std::string lower = good;
  lower[46] = 'c';
  EXPECT_EQ(error(lower),
            "dna-assembly: record 0 (bytes 0-99), byte 46: base 35 of the fragment is 'c', not "
            "one of A C G T (the fragment is bytes 11-46 of a record)");
  std::string newline = good;
  newline[1100 + 60] = '\n';
  EXPECT_EQ(error(newline),
            "dna-assembly: record 11 (bytes 1100-1199), byte 1160: a '\\n' 60 bytes into the "
            "record (a 100-byte record has its only '\\n' as its last byte)");
  std::string unended = good;
  unended[199] = ' ';
  EXPECT_EQ(error(unended),
            "dna-assembly: record 1 (bytes 100-199), byte 199: the record's last byte is 0x20, "
            "not '\\n'");
  // Bytes outside the fragment are not checked: quality may be anything.
  std::string quality = good;
  quality[48] = 'N';
  EXPECT_EQ(error(quality), "no error");
}

// ---------------------------------------------------------------- generator
TEST(DnaFragmentsGenerator, DeterministicWholeRecordsOfTheExactSize) {
  const auto& g = datasets::find_generator("dna-fragments");
  EXPECT_EQ(g.extension(), "txt");
  EXPECT_EQ(g.output_bytes(1000), 1000u);
  EXPECT_EQ(g.output_bytes(1099), 1000u);
  EXPECT_EQ(g.output_bytes(99), 0u);
  EXPECT_EQ(generate("dna-fragments", 99), "");
  for (std::uint64_t size : {std::uint64_t{100}, std::uint64_t{12345}, std::uint64_t{4100000}}) {
    const std::string f = generate("dna-fragments", size);
    EXPECT_EQ(f.size(), g.output_bytes(size));
    EXPECT_NO_THROW(find_workload(kApp).check_input(bytes(f), f.size()));
    EXPECT_EQ(generate("dna-fragments", size), f) << "same seed, same bytes";
    EXPECT_NE(generate("dna-fragments", size, 43), f) << "another seed";
  }
}

TEST(DnaFragmentsGenerator, ReadsComeFromTheGenomeWithNoiseDuplicatesAndRepeats) {
  const std::uint64_t records = 50000;  // two chunks
  const std::string f = generate("dna-fragments", records * kRecordBytes);
  const std::string genome = datasets::dna_fragments_genome(records, 42);
  EXPECT_EQ(genome.size(), records * 36 / 30);
  std::map<char, std::size_t> bases;
  for (char c : genome) ++bases[c];
  const double gc =
      static_cast<double>(bases['C'] + bases['G']) / static_cast<double>(genome.size());
  EXPECT_NEAR(gc, 0.41, 0.015);

  std::size_t low_quality = 0, clean_reads = 0, clean_found = 0;
  std::map<std::string, std::size_t> parts;
  for (std::uint64_t r = 0; r < records; ++r) {
    const std::string rec = f.substr(r * kRecordBytes, kRecordBytes);
    ASSERT_EQ(std::stoull(rec.substr(0, 10)), r);
    const std::string read = rec.substr(11, 36), quality = rec.substr(48, 36);
    bool clean = true;
    for (char q : quality) {
      ASSERT_TRUE(q >= '!' + 2 && q <= '!' + 40) << r;
      const bool low = q < '!' + 15;
      low_quality += low;
      clean = clean && !low;
    }
    ++parts[read.substr(2, 32)];
    if (clean && r % 50 == 0) {  // a noise-free read is a substring of the genome
      ++clean_reads;
      clean_found += genome.find(read) != std::string::npos;
    }
  }
  EXPECT_EQ(clean_found, clean_reads);
  EXPECT_GT(clean_reads, 400u);
  // 1% of the bases substituted (and marked by low quality).
  EXPECT_NEAR(static_cast<double>(low_quality) / (36.0 * records), 0.01, 0.002);
  // Identical parts are frequent, noisy ones once; microsatellites repeat most.
  std::size_t repeated = 0, top = 0;
  for (const auto& [part, count] : parts) {
    if (count >= 2) repeated += count;
    top = std::max(top, count);
  }
  const double repeated_share = static_cast<double>(repeated) / records;
  EXPECT_GT(repeated_share, 0.3);
  EXPECT_LT(repeated_share, 0.6);
  EXPECT_GT(top, 30u);
  EXPECT_GT(parts.size(), records / 2);
}

TEST(DnaAssembly, AccessShareIsTheFragment) {
  const std::string f = generate("dna-fragments", 1 << 20);
  const AccessShare s = find_workload(kApp).access_share({}, bytes(f), f.size());
  EXPECT_EQ(s.records, f.size() / kRecordBytes);
  EXPECT_EQ(s.read_bytes, s.records * 36);
  EXPECT_EQ(s.written_bytes, 0u);
  const PaperFacts p = find_workload(kApp).paper();
  EXPECT_NEAR(s.read_share(), *p.read_share, 0.005);
  EXPECT_EQ(*p.table4_1_bytes, 4.5e9);
  EXPECT_EQ(p.table6_1_bytes[0], 2e9);
  EXPECT_EQ(p.table6_1_bytes[3], 8e9);
  EXPECT_EQ(find_workload(kApp).default_dataset(), "dna-fragments");
}

}  // namespace
}  // namespace harness::workloads
