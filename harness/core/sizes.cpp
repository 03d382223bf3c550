#include "harness/core/sizes.h"

#include <fmt/format.h>

#include <string_view>

#include "harness/core/errors.h"

namespace harness {

namespace {

struct Unit {
  const char* name;
  std::uint64_t bytes;
};

// Largest first: format_size picks the first that divides exactly.
constexpr Unit kUnits[] = {
    {"TiB", std::uint64_t{1} << 40},
    {"TB", 1000000000000ULL},
    {"GiB", std::uint64_t{1} << 30},
    {"GB", 1000000000ULL},
    {"MiB", 1ULL << 20},
    {"MB", 1000000ULL},
    {"KiB", 1ULL << 10},
    {"KB", 1000ULL},
    {"B", 1ULL},
};

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::uint64_t parse_size(const std::string& text) {
  auto fail = [&](const std::string& why) {
    return UsageError(fmt::format("invalid size '{}': {}", text, why));
  };
  constexpr std::uint64_t kMax = ~std::uint64_t{0};
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (n == 0) throw fail("empty");
  if (text[0] == '-') throw fail("negative");
  if (!is_digit(text[0])) throw fail("expected a number, e.g. 4MiB, 1.5GB or 4096");
  std::uint64_t whole = 0;
  for (; i < n && is_digit(text[i]); ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (whole > (kMax - digit) / 10) throw fail("too large");
    whole = whole * 10 + digit;
  }
  std::uint64_t frac = 0, frac_scale = 1;
  bool has_fraction = false;
  if (i < n && text[i] == '.') {
    has_fraction = true;
    ++i;
    if (i == n || !is_digit(text[i])) throw fail("expected digits after '.'");
    for (; i < n && is_digit(text[i]); ++i) {
      if (frac_scale == 1000000) throw fail("at most 6 decimal places");
      frac = frac * 10 + static_cast<std::uint64_t>(text[i] - '0');
      frac_scale *= 10;
    }
  }
  while (i < n && text[i] == ' ') ++i;
  const std::string_view unit_name = std::string_view(text).substr(i);
  std::uint64_t unit = 0;
  if (unit_name.empty()) {
    if (has_fraction) throw fail("a fraction needs a unit (B, KB, KiB, MB, MiB, ...)");
    unit = 1;
  }
  for (const Unit& u : kUnits) {
    if (unit == 0 && equals_ignore_case(unit_name, u.name)) unit = u.bytes;
  }
  if (unit == 0) {
    throw fail(
        fmt::format("unknown unit '{}' (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)", unit_name));
  }
  if (whole > kMax / unit) throw fail("too large");
  const std::uint64_t bytes = whole * unit;
  // frac < 10^6 and unit <= 2^40, so frac * unit < 2^60: no overflow.
  const std::uint64_t frac_bytes = (frac * unit + frac_scale / 2) / frac_scale;
  if (bytes > kMax - frac_bytes) throw fail("too large");
  return bytes + frac_bytes;
}

std::string format_size(std::uint64_t bytes) {
  if (bytes == 0) return "0B";
  for (const Unit& u : kUnits) {
    if (bytes % u.bytes == 0) return fmt::format("{}{}", bytes / u.bytes, u.name);
  }
  return fmt::format("{}B", bytes);  // unreachable: B divides everything
}

}  // namespace harness
