// Similarity score, matrix multiplication and KMeans, host side: .npy inputs,
// task records, side data, references on inputs with answers worked out by
// hand, key/value formats, tolerance validation and bad input.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "datasets/npy.h"
#include "frameworks/mapreduce/apps/binary_values.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "harness/core/errors.h"

namespace harness::apps {
namespace {

std::string npy(const std::vector<std::uint64_t>& shape, const std::vector<float>& values) {
  std::string out = datasets::npy_header(shape);
  out.append(reinterpret_cast<const char*>(values.data()), 4 * values.size());
  return out;
}
const auto* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }
std::vector<std::uint32_t> words(const std::vector<std::uint8_t>& side) {
  std::vector<std::uint32_t> w(side.size() / 4);
  std::memcpy(w.data(), side.data(), side.size());
  return w;
}

TEST(Npy, HeaderRoundTripsAndBadInputIsAUsageError) {
  const std::string a = npy({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(datasets::npy_header({2, 3}).size() % 64, 0u);
  const auto arrays = datasets::parse_npy_arrays(bytes(a + a), 2 * a.size(), "t");
  ASSERT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays[1].shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(arrays[1].data_offset, a.size() + datasets::npy_header({2, 3}).size());
  const std::string vector7 = npy({7}, std::vector<float>(7));
  EXPECT_EQ(datasets::parse_npy(bytes(vector7), vector7.size(), 0, "t").shape,
            std::vector<std::uint64_t>{7});
  const std::string truncated = a.substr(0, a.size() - 1);
  EXPECT_THROW(datasets::parse_npy(bytes(truncated), truncated.size(), 0, "t"), UsageError);
  std::string f8 = a;
  f8.replace(f8.find("<f4"), 3, "<f8");
  EXPECT_THROW(datasets::parse_npy(bytes(f8), f8.size(), 0, "t"), UsageError);
  const std::string text = "not a numpy file at all";
  EXPECT_THROW(matrixmult_app().split_records(bytes(text), text.size()), UsageError);
}

TEST(MatrixMult, OneTaskPerCellAndAReferenceWorkedByHand) {
  const MapReduceApp& app = matrixmult_app();
  // A = [[1, 2], [3, 4], [5, 6]], B = [[1, 0, -1, 2], [0.5, 1, 1, 0]].
  const std::string in =
      npy({3, 2}, {1, 2, 3, 4, 5, 6}) + npy({2, 4}, {1, 0, -1, 2, 0.5f, 1, 1, 0});
  const auto records = app.split_records(bytes(in), in.size());
  ASSERT_EQ(records.size(), 13u);
  EXPECT_EQ(records[5], 5u);
  const auto side = words(app.side_data({}, bytes(in), in.size()));
  EXPECT_EQ((std::vector<std::uint32_t>(side.begin(), side.begin() + 3)),
            (std::vector<std::uint32_t>{3, 2, 4}));
  KeyValueList ref = app.reference({}, bytes(in), in.size());
  sort_output(app, ref);
  ASSERT_EQ(ref.size(), 12u);
  const float expected[12] = {2, 2, 1, 2, 5, 4, 1, 6, 8, 6, 1, 10};
  for (std::size_t c = 0; c < 12; ++c) {
    EXPECT_EQ(app.format_key(ref[c].first), std::to_string(c / 4) + "\t" + std::to_string(c % 4));
    EXPECT_EQ(from_raw<float>(ref[c].second), expected[c]) << c;
  }
  EXPECT_EQ(app.format_value(raw_bytes(0.1f)), "0.100000001");
  // Tolerance: a value off by 1e-7 relative passes, by 1e-3 fails; a cell missing fails.
  KeyValueList close = ref, far = ref, fewer = ref;
  close[7].second = raw_bytes(6.0000005f);
  far[7].second = raw_bytes(6.01f);
  fewer.pop_back();
  EXPECT_EQ(compare_by_policy(app, ref, close, app.validation()), "");
  EXPECT_NE(compare_by_policy(app, ref, far, app.validation()), "");
  EXPECT_NE(compare_by_policy(app, ref, fewer, app.validation()), "");
  // The stacked (2, n, n) form, and a mismatched inner dimension.
  const std::string stacked = npy({2, 2, 2}, {1, 2, 3, 4, 1, 0, 0, 1});
  EXPECT_EQ(app.reference({}, bytes(stacked), stacked.size()).size(), 4u);
  const std::string bad = npy({3, 2}, {1, 2, 3, 4, 5, 6}) + npy({3, 1}, {1, 2, 3});
  EXPECT_THROW(app.split_records(bytes(bad), bad.size()), UsageError);
}

TEST(Similarity, PairsInOrderScoresByHandAndOrderedKeys) {
  const MapReduceApp& app = similarity_app();
  // d0 = (1, 0), d1 = (1, 1), d2 = (0, 0): cos(d0, d1) = 1/sqrt(2); zero vector -> 0.
  const std::string in = npy({3, 2}, {1, 0, 1, 1, 0, 0});
  EXPECT_EQ(app.split_records(bytes(in), in.size()),
            (std::vector<std::uint32_t>{0 * 3 + 1, 0 * 3 + 2, 1 * 3 + 2, 9}));
  KeyValueList ref = app.reference({}, bytes(in), in.size());
  sort_output(app, ref);
  ASSERT_EQ(ref.size(), 3u);
  EXPECT_EQ(app.format_key(ref[0].first) + "|" + app.format_value(ref[0].second), "0|0\t2");
  EXPECT_EQ(app.format_key(ref[1].first) + "|" + app.format_value(ref[1].second), "0|1\t2");
  EXPECT_EQ(app.format_value(ref[2].second), "0\t1");
  EXPECT_NEAR(from_ordered_bits(read_be32(ref[2].first)), 1 / std::sqrt(2.0), 1e-7);
  for (float v : {-2.5f, -0.0f, 0.0f, 1e-30f, 0.5f, 1.0f}) {
    EXPECT_EQ(from_ordered_bits(ordered_bits(v)), v);
  }
  EXPECT_LT(ordered_bits(-2.5f), ordered_bits(-1.0f));
  EXPECT_LT(ordered_bits(-1.0f), ordered_bits(0.25f));
  // Tolerance view: the pair is the identity, the score may differ in the last bits.
  KeyValueList nudged = ref;
  std::string key;
  append_be32(key, ordered_bits(static_cast<float>(1 / std::sqrt(2.0)) * (1 + 2e-7f)));
  nudged[2].first = key;
  EXPECT_EQ(compare_by_policy(app, ref, nudged, app.validation()), "");
  nudged[2].second = raw_bytes(std::array<std::uint32_t, 2>{0, 2});
  EXPECT_NE(compare_by_policy(app, ref, nudged, app.validation()), "");
}

// Past 1 Mi points the record offsets are filled on every core, in place: a
// second split into the same vector keeps its memory (runtimes keep it from
// run to run), and split_records gives the same offsets.
TEST(KMeans, RecordOffsetsFilledInPlaceOnEveryCore) {
  const std::uint64_t n = 3 << 20, dims = 2;
  const std::string in = npy({n, dims}, std::vector<float>(n * dims, 1.0f));
  const std::size_t header = in.size() - 4 * n * dims;
  std::vector<std::uint32_t> offsets;
  kmeans_app().split_records_into(bytes(in), in.size(), offsets);
  ASSERT_EQ(offsets.size(), n + 1);
  for (std::uint64_t i = 0; i <= n; ++i) ASSERT_EQ(offsets[i], header + 4 * dims * i) << i;
  const std::uint32_t* memory = offsets.data();
  offsets[7] = 0;
  kmeans_app().split_records_into(bytes(in), in.size(), offsets);
  EXPECT_EQ(offsets.data(), memory);
  EXPECT_EQ(offsets[7], header + 4 * dims * 7);
  EXPECT_EQ(kmeans_app().split_records(bytes(in), in.size()), offsets);
}

TEST(KMeans, AssignsToTheNearestOfTheFirstKPoints) {
  const MapReduceApp& app = kmeans_app();
  EXPECT_EQ(defaults_of(app.params()), (Params{{"k", "16"}}));
  // Centroids (0, 0) and (10, 0): (4, 0) is nearer 0, (6, 2) nearer 1, and (5, 0) is 5
  // from both: the lower id wins.
  const std::string in = npy({5, 2}, {0, 0, 10, 0, 4, 0, 6, 2, 5, 0});
  const Params k2{{"k", "2"}};
  EXPECT_EQ(app.split_records(bytes(in), in.size()).size(), 6u);
  const auto side = words(app.side_data(k2, bytes(in), in.size()));
  EXPECT_EQ(side.size(), 2u + 4u);
  EXPECT_EQ(side[0], 2u);
  EXPECT_EQ(side[1], 2u);
  KeyValueList ref = app.reference(k2, bytes(in), in.size());
  sort_output(app, ref);
  ASSERT_EQ(ref.size(), 2u);
  EXPECT_EQ(app.format_key(ref[0].first) + "|" + app.format_value(ref[0].second), "0|3\t3\t0");
  EXPECT_EQ(app.format_key(ref[1].first) + "|" + app.format_value(ref[1].second), "1|2\t8\t1");
  EXPECT_THROW(app.resolve_params({{"k", "0"}}), UsageError);
  EXPECT_THROW(app.resolve_params({{"k", "x"}}), UsageError);
  EXPECT_THROW(app.side_data({{"k", "6"}}, bytes(in), in.size()), UsageError);  // 5 points
  const std::string nine = npy({1, 9}, std::vector<float>(9));
  EXPECT_THROW(app.split_records(bytes(nine), nine.size()), UsageError);
}

}  // namespace
}  // namespace harness::apps
