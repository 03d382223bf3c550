// kmeans-particles: the hand-written example's answer and near ties, CPU-MT
// against the reference on every thread count (generated and tiny inputs),
// malformed inputs, k against the particle count, the comparison's near-tie
// rule, the particles generator and the access share.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "datasets/particles.h"
#include "frameworks/workloads/kmeans_particles/cluster_ids_output.h"
#include "frameworks/workloads/kmeans_particles/kmeans_particles_cpu.h"
#include "frameworks/workloads/kmeans_particles/particles_format.h"
#include "frameworks/workloads/tests/fixed_records_testing.h"

namespace harness::workloads {
namespace {

using namespace testing;
using kmeans_particles::ClusterIdsOutput;

const char* const kApp = "kmeans-particles";

Params k_of(std::uint32_t k) { return {{"k", std::to_string(k)}}; }

// One 64-byte particle record: coordinates, cluster id -1, zero velocities.
std::string particle(double x0, double x1, double x2, double x3) {
  std::string record(64, '\0');
  const double coords[4] = {x0, x1, x2, x3};
  std::memcpy(record.data(), coords, sizeof coords);
  const std::int64_t no_cluster = -1;
  std::memcpy(record.data() + 32, &no_cluster, sizeof no_cluster);
  return record;
}

const ClusterIdsOutput& ids_of(const Output& out) {
  return dynamic_cast<const ClusterIdsOutput&>(out);
}

TEST(KmeansParticles, HandWrittenExampleGivesItsExpectedDump) {
  const std::string input = source_file("frameworks/workloads/kmeans_particles/examples/small.bin");
  const std::string expected =
      source_file("frameworks/workloads/kmeans_particles/examples/small.expected");
  ASSERT_EQ(input.size(), 13u * 64);
  const auto ref = reference(kApp, input, k_of(3));
  EXPECT_EQ(dump(*ref), expected);
  // Exact ties (particles 4, 5 and 9) went to the lower id; 12 is a near tie.
  std::vector<std::size_t> ties;
  for (std::size_t i = 0; i < 13; ++i)
    if (ids_of(*ref).near_ties()[i]) ties.push_back(i);
  EXPECT_EQ(ties, (std::vector<std::size_t>{4, 5, 9, 12}));
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u})
    EXPECT_EQ(dump(*run_cpu(kApp, input, threads, k_of(3))), expected) << threads << " threads";
}

TEST(KmeansParticles, CpuAgreesWithTheReferenceOnGeneratedParticles) {
  const std::string input = generate("particles", 2 << 20);
  ASSERT_EQ(input.size(), std::size_t{2} << 20);
  for (std::uint32_t k : {1u, 16u, 100u, 1024u}) expect_cpu_agrees(kApp, input, k_of(k));
  // An odd number of particles: ranges and vector blocks end inside a block.
  expect_cpu_agrees(kApp, input.substr(0, 64 * 1001), k_of(16));
}

TEST(KmeansParticles, EveryVectorWidthTheHostRunsGivesTheReferenceIds) {
  const std::string input = generate("particles", 64 * 5001, 11);
  const auto ref = reference(kApp, input, k_of(37));
  const auto centroids = kmeans_particles::first_k_centroids(bytes(input), input.size(), 37);
  const auto widths = kmeans_particles::supported_lane_widths();
  EXPECT_EQ(widths.back(), 2u);
  for (unsigned lanes : widths) {
    for (unsigned threads : {1u, 3u}) {
      ClusterIdsOutput got(5001, 37);
      kmeans_particles::assign_clusters_parallel(bytes(input), 5001, centroids, threads, got.ids(),
                                                 lanes);
      EXPECT_EQ(dump(got), dump(*ref)) << lanes << " lanes, " << threads << " threads";
    }
  }
}

TEST(KmeansParticles, CpuAgreesOnTinyInputs) {
  const std::string input = generate("particles", 64 * 40, 3);
  for (std::size_t n : {1u, 2u, 3u, 7u, 9u, 17u, 40u})
    expect_cpu_agrees(kApp, input.substr(0, 64 * n), k_of(1));
  expect_cpu_agrees(kApp, input.substr(0, 64 * 9), k_of(9));
}

TEST(KmeansParticles, EveryParticleItsOwnCentroidWhenKIsTheParticleCount) {
  const std::string input = generate("particles", 64 * 200, 5);
  const auto ref = reference(kApp, input, k_of(200));
  for (std::uint32_t i = 0; i < 200; ++i) ASSERT_EQ(ids_of(*ref).ids()[i], i);
  expect_cpu_agrees(kApp, input, k_of(200));
}

TEST(KmeansParticles, EqualParticlesAllJoinClusterZeroAsNearTies) {
  std::string input;
  for (int i = 0; i < 50; ++i) input += particle(1.5, -2, 3, 4);
  const auto ref = reference(kApp, input, k_of(8));
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(ids_of(*ref).ids()[i], 0u);
    EXPECT_EQ(ids_of(*ref).near_ties()[i], 1);
  }
  expect_cpu_agrees(kApp, input, k_of(8));
}

TEST(KmeansParticles, FewerParticlesThanKIsAUsageError) {
  const std::string three = particle(0, 0, 0, 0) + particle(1, 0, 0, 0) + particle(2, 0, 0, 0);
  for (const std::string& input : {std::string(), three}) {
    const Params k4 = k_of(4);
    EXPECT_THROW(find_workload(kApp).reference(k4, bytes(input), input.size()), UsageError);
    EXPECT_THROW(find_workload(kApp).run_cpu(k4, bytes(input), input.size(), 2), UsageError);
  }
  EXPECT_EQ(dump(*reference(kApp, three, k_of(3))), "0\t0\n1\t1\n2\t2\n");
  try {
    find_workload(kApp).reference(k_of(16), bytes(three), three.size());
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "kmeans-particles: k=16 needs at least 16 particles (the centroids are the first "
                 "k), the input holds 3");
  }
}

TEST(KmeansParticles, MalformedInputsNameTheRecordAndOffset) {
  const std::string good = particle(0, 0, 0, 0) + particle(1, 2, 3, 4);
  EXPECT_EQ(input_error(kApp, good), "");
  EXPECT_EQ(input_error(kApp, ""), "");
  EXPECT_EQ(input_error(kApp, good + "abc"),
            "kmeans-particles: the input (131 bytes) is not a whole number of 64-byte records: "
            "the last 3 bytes, from byte offset 128, are a cut record 2");
  EXPECT_EQ(input_error(kApp, good + particle(0, 0, std::nan(""), 0)),
            "kmeans-particles: record 2 (byte offset 128): coordinate 2 is nan (coordinates must "
            "be finite)");
  EXPECT_EQ(input_error(kApp, good + particle(-std::numeric_limits<double>::infinity(), 0, 0, 0)),
            "kmeans-particles: record 2 (byte offset 128): coordinate 0 is -inf (coordinates "
            "must be finite)");
}

TEST(KmeansParticles, MalformedExampleFailsWithItsDocumentedError) {
  const std::string error =
      source_file("frameworks/workloads/kmeans_particles/examples/malformed.error");
  EXPECT_EQ(input_error(kApp, source_file("frameworks/workloads/kmeans_particles/examples/"
                                          "malformed.bin")) +
                "\n",
            error);
  EXPECT_EQ(source_file("frameworks/workloads/kmeans_particles/examples/small.params"), "k=3\n");
}

TEST(KmeansParticles, ComparisonAcceptsAnotherIdOnlyAtANearTie) {
  ClusterIdsOutput expected(4, 3), got(4, 3);
  const std::uint32_t want[4] = {0, 1, 2, 1};
  std::memcpy(expected.ids(), want, sizeof want);
  expected.near_ties() = {0, 1, 0, 0};
  std::memcpy(got.ids(), want, sizeof want);
  EXPECT_EQ(got.compare_with(expected, {}), "");
  got.ids()[1] = 2;  // a near tie: either centroid
  EXPECT_EQ(got.compare_with(expected, {}), "");
  got.ids()[1] = 3;  // not a centroid at all
  EXPECT_EQ(got.compare_with(expected, {}),
            "1 of 4 particles differ: particle 1: cluster 3 "
            "(expected 1)");
  got.ids()[1] = 1;
  got.ids()[3] = 0;
  got.ids()[0] = 2;
  EXPECT_EQ(got.compare_with(expected, {}),
            "2 of 4 particles differ: particle 0: cluster 2 (expected 0); particle 3: cluster 0 "
            "(expected 1)");
  ClusterIdsOutput shorter(3, 3);
  EXPECT_EQ(shorter.compare_with(expected, {}), "3 particles (expected 4)");
}

double coord(const std::string& file, std::size_t particle, std::size_t offset) {
  double v;
  std::memcpy(&v, file.data() + particle * 64 + offset, sizeof v);
  return v;
}

TEST(ParticlesGenerator, WholeRecordsDeterministicAndSeeded) {
  const auto& g = datasets::find_generator("particles");
  EXPECT_EQ(g.output_bytes(64 * 100 + 63), 64u * 100);
  EXPECT_EQ(g.output_bytes(63), 0u);
  EXPECT_EQ(generate("particles", 63), "");
  const std::string a = generate("particles", 64 * 70000 + 5);  // two chunks
  EXPECT_EQ(a.size(), 64u * 70000);
  EXPECT_EQ(generate("particles", 64 * 70000 + 5), a);
  EXPECT_NE(generate("particles", 64 * 70000, 7), a);
  // A prefix of the file is the smaller file: chunks depend on (seed, index) only.
  EXPECT_EQ(generate("particles", 64 * 1000), a.substr(0, 64 * 1000));
  EXPECT_EQ(input_error(kApp, a), "");
}

TEST(ParticlesGenerator, ParticlesLieAroundTheHiddenCentres) {
  const std::string file = generate("particles", 64 * 32768);
  const auto centres = datasets::particle_centres(42);
  ASSERT_EQ(centres.size(), 32u);
  std::vector<std::size_t> members(32, 0);
  for (std::size_t i = 0; i < 32768; ++i) {
    std::int64_t cluster_id;
    std::memcpy(&cluster_id, file.data() + i * 64 + 32, sizeof cluster_id);
    ASSERT_EQ(cluster_id, -1);
    for (std::size_t d = 0; d < 3; ++d) {
      const double v = coord(file, i, 40 + 8 * d);
      ASSERT_TRUE(v >= -1 && v < 1) << "velocity " << v;
    }
    // The centres it may belong to (within 2 spreads on every axis).
    std::size_t owner = 32, candidates = 0;
    for (std::size_t c = 0; c < 32; ++c) {
      bool inside = true;
      for (std::size_t d = 0; d < 4; ++d)
        inside &= std::abs(coord(file, i, 8 * d) - centres[c].position[d]) <= 2 * centres[c].spread;
      if (inside) {
        owner = c;
        ++candidates;
      }
    }
    ASSERT_GE(candidates, 1u) << "particle " << i << " is near no centre";
    if (candidates == 1) ++members[owner];
  }
  // Centres are drawn uniformly: about 1024 particles each (seed 42's
  // centres do not overlap, so every particle has one owner).
  for (std::size_t m : members) {
    EXPECT_GT(m, 900u);
    EXPECT_LT(m, 1150u);
  }
}

TEST(KmeansParticles, AccessShareMatchesTable41) {
  const std::string input = generate("particles", 1 << 20);
  const auto& w = find_workload(kApp);
  const AccessShare s = w.access_share(k_of(16), bytes(input), input.size());
  EXPECT_EQ(s.records, (1u << 20) / 64);
  EXPECT_EQ(s.read_bytes, (1u << 20) / 2);
  EXPECT_EQ(s.written_bytes, (1u << 20) / 8);
  EXPECT_NEAR(s.read_share(), *w.paper().read_share, 0.01);
  EXPECT_NEAR(s.written_share(), *w.paper().written_share, 0.01);
  EXPECT_TRUE(w.modifies_input());
  EXPECT_EQ(w.record_type(), "fixed");
}

}  // namespace
}  // namespace harness::workloads
