#include "frameworks/workloads/mastercard/mastercard_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/errors.h"
#include "harness/core/host_cores.h"
#include "harness/core/validation.h"

namespace harness::workloads::mastercard {
namespace {

[[noreturn]] void malformed(const std::uint8_t* data, std::size_t begin, const std::string& app,
                            const std::string& what) {
  // Counted only here, on the way out: the line number of a record costs a
  // pass over everything before it.
  const auto line = 1 + std::count(data, data + begin, std::uint8_t{'\n'});
  throw RunError(fmt::format("{}: line {} (byte {}): {}", app, line, begin, what));
}

std::string quoted(const std::uint8_t* data, std::size_t begin, std::size_t end) {
  return "'" + escape_bytes(std::string(data + begin, data + end), 24) + "'";
}

}  // namespace

std::string merchant_id_problem(std::string_view id) {
  if (id.empty()) return "empty merchant id";
  if (id.size() > kMaxMerchantBytes)
    return fmt::format("merchant id of {} bytes (at most {})", id.size(), kMaxMerchantBytes);
  for (char c : id) {
    const auto b = static_cast<std::uint8_t>(c);
    if (b < 0x21 || b > 0x7E || b == kSeparator)
      return fmt::format("merchant id holds byte 0x{:02x} (visible ASCII other than '|' only)", b);
  }
  return "";
}

RecordFields parse_record(const std::uint8_t* data, std::size_t begin, std::size_t end,
                          const std::string& app) {
  const std::uint8_t* line = data + begin;
  const std::size_t length = end - begin;
  const auto* first = static_cast<const std::uint8_t*>(std::memchr(line, kSeparator, length));
  const auto* second =
      first ? static_cast<const std::uint8_t*>(std::memchr(
                  first + 1, kSeparator, static_cast<std::size_t>(line + length - first - 1)))
            : nullptr;
  if (!second)
    malformed(data, begin, app, fmt::format("fewer than {} '|'-separated fields", kMinFields));
  const auto card_length = static_cast<std::size_t>(first - line);
  if (card_length == 0) malformed(data, begin, app, "empty card number");
  if (card_length != kCardDigits ||
      !std::all_of(line, first, [](std::uint8_t c) { return c >= '0' && c <= '9'; }))
    malformed(data, begin, app,
              fmt::format("card number {} is not {} decimal digits",
                          quoted(data, begin, begin + card_length), kCardDigits));
  const std::string_view merchant(reinterpret_cast<const char*>(first + 1),
                                  static_cast<std::size_t>(second - first - 1));
  if (const std::string problem = merchant_id_problem(merchant); !problem.empty())
    malformed(data, begin, app, problem);
  RecordFields fields;
  fields.card = begin;
  fields.merchant = begin + kCardDigits + 1;
  fields.merchant_length = static_cast<std::uint32_t>(merchant.size());
  return fields;
}

void check_records(const std::uint8_t* data, std::size_t size, const std::string& app) {
  for_each_record_in_parts(data, size, app, harness::usable_cores(),
                           [](unsigned, const RecordFields&) {});
}

std::string merchant_param(const Params& params, const std::string& app) {
  const std::string& id = param_string(params, "merchant");
  if (const std::string problem = merchant_id_problem(id); !problem.empty())
    throw UsageError(
        fmt::format("{}: parameter merchant='{}': {}", app, escape_bytes(id), problem));
  return id;
}

}  // namespace harness::workloads::mastercard
