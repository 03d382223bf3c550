// MasterCard Affinity's input (thesis ch4/ch5): purchase transactions, one
// record per line, fields separated by '|':
//
//   card|merchant|other|...        e.g. 5312345678901234|M0000042|2013-04-17 13:45:12|23.80|...
//
// field 1, the customer: a card number of exactly 16 ASCII digits;
// field 2, the merchant (payment terminal) id: 1 to 32 visible ASCII bytes
//   (0x21-0x7E) other than '|';
// then at least one more field; the other fields are not interpreted (any
// bytes but '\n'). A record ends at '\n' or at the end of the input; an empty
// line is no record (skipped). Anything else is malformed: RunError
// "<app>: line N (byte B): what", N counting every line from 1 and B the
// record's first byte.
//
// What both workloads share: the record's fields found by scanning it
// (check_input, the reference, the index builder), a card number's value,
// the merchant parameter.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/cuts.h"
#include "harness/core/parallel.h"
#include "harness/core/params.h"

namespace harness::workloads::mastercard {

// The two workloads' names.
inline constexpr const char* kApp = "mastercard";
inline constexpr const char* kIndexedApp = "mastercard-indexed";
inline constexpr std::uint8_t kSeparator = '|';
inline constexpr std::size_t kCardDigits = 16;
inline constexpr std::size_t kMaxMerchantBytes = 32;
inline constexpr std::size_t kMinFields = 3;
// The merchant the transactions generator makes the most visited.
inline constexpr const char* kDefaultMerchant = "M0000001";

// A record's two fields the kernel reads, as byte offsets into the input.
struct RecordFields {
  std::uint64_t card = 0;  // the 16 digits: the record's first byte
  std::uint64_t merchant = 0;
  std::uint32_t merchant_length = 0;
};

// The fields of the record data[begin, end) (a non-empty line without its
// '\n'); RunError "<app>: line N (byte B): ..." when it is malformed.
RecordFields parse_record(const std::uint8_t* data, std::size_t begin, std::size_t end,
                          const std::string& app);

// Calls visit(fields) for each record of data[begin, end) in order; `begin`
// is a line start. Throws parse_record's RunError at the first malformed one.
template <typename Visit>
void for_each_record(const std::uint8_t* data, std::size_t begin, std::size_t end,
                     const std::string& app, Visit&& visit) {
  for (std::size_t at = begin; at < end;) {
    const void* nl = std::memchr(data + at, '\n', end - at);
    const std::size_t line_end =
        nl ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - data) : end;
    if (line_end > at) visit(parse_record(data, at, line_end, app));
    at = line_end + 1;
  }
}

// for_each_record on `parts` pieces of the input cut at line starts, piece
// p's records visited in order by worker p as visit(p, fields). A malformed
// record throws the RunError of the earliest one.
template <typename Visit>
void for_each_record_in_parts(const std::uint8_t* data, std::size_t size, const std::string& app,
                              unsigned parts, Visit&& visit) {
  const auto cuts = line_cuts(data, size, parts);
  std::vector<std::exception_ptr> failed(parts);
  parallel_for(parts, [&](unsigned p) {
    try {
      for_each_record(data, cuts[p], cuts[p + 1], app,
                      [&](const RecordFields& fields) { visit(p, fields); });
    } catch (...) {
      failed[p] = std::current_exception();
    }
  });
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

// Throws RunError at the first malformed record, checking on every core.
void check_records(const std::uint8_t* data, std::size_t size, const std::string& app);

// What is wrong with a merchant id ("" when it is valid).
std::string merchant_id_problem(std::string_view id);

// The `merchant` parameter (merchant X), a valid merchant id, else UsageError.
std::string merchant_param(const Params& params, const std::string& app);

// The value of 16 ASCII digits (a card number; distinct numbers, distinct
// values), eight digits at a time.
inline std::uint64_t card_value(const std::uint8_t* digits) {
  static_assert(std::endian::native == std::endian::little);
  auto eight = [](const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    v -= 0x3030303030303030ULL;                                 // bytes 0-9, the first digit lowest
    v = v * 10 + (v >> 8);                                      // pairs: 10a+b in every other byte
    v = ((v & 0x000000FF000000FFULL) * 0x000F424000000064ULL +  // *100, *10^6
         ((v >> 16) & 0x000000FF000000FFULL) * 0x0000271000000001ULL) >>  // *1, *10^4
        32;
    return v;
  };
  return eight(digits) * 100'000'000 + eight(digits + 8);
}

}  // namespace harness::workloads::mastercard
