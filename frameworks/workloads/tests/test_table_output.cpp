// TableOutput: rows added on several threads' tables and appended give the
// table of the same rows added to one.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
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

}  // namespace
}  // namespace harness::workloads
