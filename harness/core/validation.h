// Validation per family. Every measured run is checked against an independent
// CPU reference; what "equal" means depends on the family:
//   exact      key/value lists equal element by element (MapReduce; compared
//              by the family, which knows its value format)
//   set        the same key/value pairs in any order (hash tables)
//   tolerance  numbers equal within a relative/absolute tolerance stated in
//              the experiment spec (floating-point apps, stream graphs)
//   sanity     measured values positive and finite (microbenchmarks)
// Each check returns "" when it passes, else one line naming the first
// differences, so a failed point says what was wrong.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace harness {

struct ValidationPolicy {
  std::string kind = "exact";  // exact | set | tolerance | sanity
  double rel = 0;              // tolerance: |a - e| <= abs + rel * |e|
  double abs = 0;
};

// Throws UsageError for an unknown kind or a negative tolerance.
void check_policy(const ValidationPolicy& policy);

// One number: |actual - expected| <= abs + rel * |expected|; NaN never passes.
bool within_tolerance(double expected, double actual, const ValidationPolicy& policy);

// Element-wise within_tolerance;
// lengths must agree. Names up to three offending indices and the largest
// relative error.
std::string compare_within_tolerance(std::span<const double> expected,
                                     std::span<const double> actual,
                                     const ValidationPolicy& policy);

using Pairs = std::vector<std::pair<std::string, std::string>>;
// Multiset equality of key/value pairs, any order. Names up to three missing
// and three unexpected pairs (keys and values shown escaped).
std::string compare_as_sets(Pairs expected, Pairs actual);

// Every value finite and > 0. Names the offending values.
std::string check_sane(const std::map<std::string, double>& values);

// Printable form of raw bytes for messages: printable ASCII as is, others \xNN,
// cut to `max` characters.
std::string escape_bytes(const std::string& raw, std::size_t max = 40);

}  // namespace harness
