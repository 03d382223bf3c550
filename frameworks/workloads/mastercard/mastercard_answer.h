// MasterCard Affinity's answer, the same for both workloads: with S the set
// of cards that have a transaction at merchant X (the `merchant` parameter),
// for every merchant m with at least one transaction by a card of S (X
// included):
//   visits(m)    = transactions at m by cards of S,
//   customers(m) = distinct cards of S with a transaction at m
// (so X's row holds all its transactions and |S|). A TableOutput keyed by
// merchant id with the integers (visits, customers); dump lines
// `merchant<TAB>visits<TAB>customers`, sorted by merchant id bytes; no rows
// when X has no transaction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "frameworks/workloads/outputs.h"

namespace harness::workloads::mastercard {

inline std::unique_ptr<TableOutput> affinity_table() {
  return std::make_unique<TableOutput>(2, 0, false);
}

// The reference: two serial passes over the records with standard containers
// of the fields' bytes, independent of the CPU-MT code.
std::unique_ptr<Output> reference_affinity(const std::uint8_t* data, std::size_t size,
                                           const std::string& merchant, const std::string& app);

}  // namespace harness::workloads::mastercard
