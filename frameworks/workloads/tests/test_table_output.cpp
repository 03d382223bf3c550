// TableOutput: rows added on several threads' tables and appended give the
// table of the same rows added to one; finish() orders keys by unsigned bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/workload.h"

namespace harness::workloads {
namespace {

struct Row {
  std::string key;
  std::int64_t count;
  std::vector<std::int64_t> list;
};

void add(TableOutput& t, const Row& r) {
  t.add(r.key, std::span<const std::int64_t>(&r.count, 1), {}, r.list);
}

TEST(TableOutput, AppendedTablesEqualOneTableOfTheSameRows) {
  const std::vector<Row> rows = {{"cc", 2, {7, 3}}, {"a", 1, {9}},  {"bbbb", 3, {1, 2, 3}},
                                 {"d", 0, {}},      {"ab", 1, {4}}, {"zz", 2, {5, 6}}};
  TableOutput one(1, 0, true);
  for (const Row& r : rows) add(one, r);
  one.finish();

  // Three pieces, the first empty, appended in another order than added.
  TableOutput whole(1, 0, true), first(1, 0, true), second(1, 0, true);
  for (std::size_t i = 0; i < rows.size(); ++i) add(i % 2 ? first : second, rows[i]);
  whole.append(std::move(first));
  whole.append(std::move(second));
  EXPECT_EQ(first.rows(), 0u);  // moved out
  ASSERT_EQ(whole.rows(), rows.size());
  whole.finish();
  ValidationPolicy exact;
  EXPECT_EQ(whole.compare_with(one, exact), "");
  for (std::size_t r = 0; r < whole.rows(); ++r) {
    EXPECT_EQ(whole.key(r), one.key(r));
    EXPECT_EQ(std::vector<std::int64_t>(whole.list(r).begin(), whole.list(r).end()),
              std::vector<std::int64_t>(one.list(r).begin(), one.list(r).end()));
  }
  EXPECT_EQ(whole.find("bbbb"), one.find("bbbb"));
  EXPECT_EQ(whole.ints(whole.find("bbbb"))[0], 3);

  // A repeated key across pieces is still refused at finish().
  TableOutput a(1, 0, true), b(1, 0, true);
  add(a, rows[0]);
  add(b, rows[0]);
  a.append(std::move(b));
  EXPECT_THROW(a.finish(), std::logic_error);
  // Different columns cannot be appended.
  TableOutput other(2, 0, false);
  EXPECT_THROW(a.append(std::move(other)), std::logic_error);
}

TEST(TableOutput, ConcatenatedTablesKeepEveryRowInOrder) {
  const std::vector<Row> rows = {{"cc", 2, {7, 3}}, {"a", 1, {9}},  {"bbbb", 3, {1, 2, 3}},
                                 {"d", 0, {}},      {"ab", 1, {4}}, {"zz", 2, {5, 6}}};
  // Four parts, one empty, rows spread over them in order: part i % 3 of
  // the first three, so concatenation order is part 0's rows, then 1's, 2's.
  std::vector<TableOutput> parts;
  for (int i = 0; i < 4; ++i) parts.emplace_back(1, 0, true);
  std::vector<Row> expected_order;
  for (std::size_t p = 0; p < 3; ++p)
    for (std::size_t i = p; i < rows.size(); i += 3) {
      add(parts[p], rows[i]);
      expected_order.push_back(rows[i]);
    }
  TableOutput whole = TableOutput::concatenate(std::move(parts));
  EXPECT_EQ(parts[0].rows(), 0u);  // emptied
  ASSERT_EQ(whole.rows(), rows.size());
  for (std::size_t r = 0; r < whole.rows(); ++r) {  // before finish(): in part order
    EXPECT_EQ(whole.key(r), expected_order[r].key);
    EXPECT_EQ(whole.ints(r)[0], expected_order[r].count);
    EXPECT_EQ(std::vector<std::int64_t>(whole.list(r).begin(), whole.list(r).end()),
              expected_order[r].list);
  }
  TableOutput one(1, 0, true);
  for (const Row& r : rows) add(one, r);
  one.finish();
  whole.finish();
  EXPECT_EQ(whole.compare_with(one, ValidationPolicy{}), "");

  std::vector<TableOutput> mixed;
  mixed.emplace_back(1, 0, true);
  mixed.emplace_back(1, 0, false);
  EXPECT_THROW(TableOutput::concatenate(std::move(mixed)), std::logic_error);
  EXPECT_THROW(TableOutput::concatenate({}), std::logic_error);
}

// Rows added in key order keep it; a list out of order, or one key out of
// order, still gets the sort (finish() checks before it skips sorting).
TEST(TableOutput, RowsAddedInOrderAreCanonicalAfterFinish) {
  TableOutput in_order(1, 0, true);
  const std::int64_t sorted_list[] = {1, 2}, unsorted_list[] = {5, 3};
  const std::int64_t one[] = {1};
  in_order.add("a", one, {}, sorted_list);
  in_order.add("b", one, {}, unsorted_list);
  in_order.add("c", one, {}, sorted_list);
  in_order.finish();
  ASSERT_EQ(in_order.rows(), 3u);
  EXPECT_EQ(std::vector<std::int64_t>(in_order.list(1).begin(), in_order.list(1).end()),
            (std::vector<std::int64_t>{3, 5}));
  TableOutput last_out_of_order(1, 0, false);
  for (const char* k : {"a", "b", "d", "c"}) last_out_of_order.add(k, one);
  last_out_of_order.finish();
  EXPECT_EQ(last_out_of_order.key(2), "c");
  EXPECT_EQ(last_out_of_order.key(3), "d");
}

// finish() orders rows by unsigned bytes: keys that share their first 8
// bytes, a short key against the same key with zero bytes after it, bytes of
// 0x80 and above, the empty key; a key repeated past 8 bytes is refused.
TEST(TableOutput, FinishOrdersKeysByUnsignedBytes) {
  using namespace std::string_literals;
  const std::vector<std::string> keys = {"abcdefgh-2"s, "abcdefgh-10"s, "abcdefgh"s, "a"s, "a\0"s,
                                         "a\0\0b"s,     "\x80"s,        "\xff\xff"s, ""s,  "zz"s,
                                         "abcdefghZ"s,  "abcdefg"s,     "\x7f"s};
  TableOutput t(1, 0, false);
  for (std::size_t i = 0; i < keys.size(); ++i)
    add(t, Row{keys[i], static_cast<std::int64_t>(i), {}});
  t.finish();
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end(), [](const std::string& x, const std::string& y) {
    return std::string_view(x) < std::string_view(y);  // char_traits: unsigned bytes
  });
  ASSERT_EQ(t.rows(), keys.size());
  for (std::size_t r = 0; r < t.rows(); ++r) {
    EXPECT_EQ(std::string(t.key(r)), sorted[r]) << "row " << r;
    EXPECT_EQ(keys[static_cast<std::size_t>(t.ints(r)[0])], sorted[r]);  // its own row
  }
  EXPECT_LT(t.find("\x80"s), t.find("\xff\xff"s));
  EXPECT_LT(t.find("\x7f"s), t.find("\x80"s));

  TableOutput twice(1, 0, false);
  add(twice, Row{"abcdefgh-same", 1, {}});
  add(twice, Row{"abcdefgh-else", 2, {}});
  add(twice, Row{"abcdefgh-same", 3, {}});
  EXPECT_THROW(twice.finish(), std::logic_error);
}

}  // namespace
}  // namespace harness::workloads
