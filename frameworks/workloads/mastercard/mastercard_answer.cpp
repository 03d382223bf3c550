#include "frameworks/workloads/mastercard/mastercard_answer.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "frameworks/workloads/mastercard/mastercard_format.h"

namespace harness::workloads::mastercard {

std::unique_ptr<Output> reference_affinity(const std::uint8_t* data, std::size_t size,
                                           const std::string& merchant, const std::string& app) {
  auto text = [&](std::uint64_t offset, std::size_t length) {
    return std::string_view(reinterpret_cast<const char*>(data) + offset, length);
  };
  auto card_of = [&](const RecordFields& f) { return text(f.card, kCardDigits); };
  auto merchant_of = [&](const RecordFields& f) { return text(f.merchant, f.merchant_length); };

  // Pass 1: the customers of X.
  std::unordered_set<std::string_view> customers_of_x;
  for_each_record(data, 0, size, app, [&](const RecordFields& f) {
    if (merchant_of(f) == merchant) customers_of_x.insert(card_of(f));
  });

  // Pass 2: every merchant those customers bought at.
  struct Row {
    std::int64_t visits = 0;
    std::unordered_set<std::string_view> customers;
  };
  std::unordered_map<std::string_view, Row> rows;
  for_each_record(data, 0, size, app, [&](const RecordFields& f) {
    if (!customers_of_x.count(card_of(f))) return;
    Row& row = rows[merchant_of(f)];
    ++row.visits;
    row.customers.insert(card_of(f));
  });

  auto table = affinity_table();
  for (const auto& [id, row] : rows) {
    const std::int64_t values[2] = {row.visits, static_cast<std::int64_t>(row.customers.size())};
    table->add(id, values);
  }
  return table;
}

}  // namespace harness::workloads::mastercard
