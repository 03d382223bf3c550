#include "harness/core/params.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "harness/core/errors.h"
#include "harness/core/sizes.h"

namespace harness {
namespace {

bool is_digits(const std::string& s, std::size_t from) {
  if (from >= s.size()) return false;
  for (std::size_t i = from; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

std::optional<std::uint64_t> parse_unsigned(const std::string& s) {
  if (!is_digits(s, 0)) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  const bool negative = !s.empty() && s[0] == '-';
  const auto magnitude = parse_unsigned(negative ? s.substr(1) : s);
  if (!magnitude) return std::nullopt;
  if (negative) {
    if (*magnitude > std::uint64_t{INT64_MAX} + 1) return std::nullopt;
    return static_cast<std::int64_t>(0 - *magnitude);
  }
  if (*magnitude > std::uint64_t{INT64_MAX}) return std::nullopt;
  return static_cast<std::int64_t>(*magnitude);
}

std::optional<double> parse_real(const std::string& s) {
  if (s.empty() || s.front() == ' ' || s.front() == '\t') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(const std::string& s) {
  if (s == "1" || s == "true" || s == "on" || s == "yes") return true;
  if (s == "0" || s == "false" || s == "off" || s == "no") return false;
  return std::nullopt;
}

std::optional<std::uint64_t> parse_bytes(const std::string& s) {
  try {
    return parse_size(s);
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

const std::string& value_of(const Params& params, const std::string& name) {
  auto it = params.find(name);
  if (it == params.end()) throw UsageError("missing parameter '" + name + "'");
  return it->second;
}

[[noreturn]] void malformed(const std::string& name, const std::string& text,
                            const std::string& takes) {
  throw UsageError(
      fmt::format("parameter {}={}: {} takes {}", name, text.empty() ? "''" : text, name, takes));
}

std::string number_text(double v) { return fmt::format("{}", v); }

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The four fields every declaration has; the builders set the rest.
ParamDecl declare(std::string name, ParamType type, std::string def, std::string description) {
  ParamDecl d;
  d.name = std::move(name);
  d.type = type;
  d.default_value = std::move(def);
  d.description = std::move(description);
  return d;
}

}  // namespace

const char* param_type_name(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::unsigned_:
      return "unsigned";
    case ParamType::real:
      return "float";
    case ParamType::boolean:
      return "bool";
    case ParamType::size:
      return "size";
    case ParamType::string:
      return "string";
    case ParamType::choice:
      return "choice";
  }
  return "?";
}

std::string ParamDecl::takes() const {
  std::string also;
  for (const std::string& w : words) also += ", or " + w;
  return type_takes() + also;
}

std::string ParamDecl::type_takes() const {
  switch (type) {
    case ParamType::integer:
      if (int_min == INT64_MIN && int_max == INT64_MAX) return "an integer";
      if (int_max == INT64_MAX) return fmt::format("an integer >= {}", int_min);
      return fmt::format("an integer from {} to {}", int_min, int_max);
    case ParamType::unsigned_: {
      std::string s = power_of_two ? "a power of two" : "a non-negative integer";
      if (uint_max == UINT64_MAX) {
        if (uint_min > 0) s += fmt::format(" >= {}", uint_min);
      } else {
        s += fmt::format(" from {} to {}", uint_min, uint_max);
      }
      if (!zero_means.empty()) s += fmt::format(", or 0 ({})", zero_means);
      return s;
    }
    case ParamType::real:
      if (real_max >= 1e308) return fmt::format("a number >= {}", number_text(real_min));
      return fmt::format("a number from {} to {}", number_text(real_min), number_text(real_max));
    case ParamType::boolean:
      return "a boolean (1/0, true/false, on/off, yes/no)";
    case ParamType::size:
      if (uint_max == UINT64_MAX)
        return fmt::format("a size in bytes (4096, 64KiB, 1.5GB) of at least {}",
                           format_size(uint_min));
      return fmt::format("a size in bytes (4096, 64KiB, 1.5GB) from {} to {}",
                         format_size(uint_min), format_size(uint_max));
    case ParamType::string:
      return non_empty ? "a non-empty text" : "any text";
    case ParamType::choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < choices.size(); ++i) {
        s += (i ? ", " : "") + choices[i];
      }
      return s;
    }
  }
  return "?";
}

std::string ParamDecl::range_text() const {
  std::string text = type_range();
  for (const std::string& w : words) text += (text.empty() ? "" : " or ") + w;
  return text;
}

std::string ParamDecl::type_range() const {
  switch (type) {
    case ParamType::integer:
      return fmt::format("[{}, {}]", int_min == INT64_MIN ? "-inf" : std::to_string(int_min),
                         int_max == INT64_MAX ? "inf" : std::to_string(int_max));
    case ParamType::unsigned_:
      return fmt::format("{}[{}, {}]{}", power_of_two ? "2^k in " : "", uint_min,
                         uint_max == UINT64_MAX ? "inf" : std::to_string(uint_max),
                         zero_means.empty() ? "" : " or 0");
    case ParamType::real:
      return fmt::format("[{}, {}]", number_text(real_min),
                         real_max >= 1e308 ? "inf" : number_text(real_max));
    case ParamType::size:
      return fmt::format("[{}, {}]", format_size(uint_min),
                         uint_max == UINT64_MAX ? "inf" : format_size(uint_max));
    case ParamType::choice: {
      std::string s;
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? "|" : "") + choices[i];
      return s;
    }
    case ParamType::boolean:
    case ParamType::string:
      return "";
  }
  return "";
}

ParamDecl int_param(std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi,
                    std::string description) {
  ParamDecl d =
      declare(std::move(name), ParamType::integer, std::to_string(def), std::move(description));
  d.int_min = lo;
  d.int_max = hi;
  return d;
}

ParamDecl unsigned_param(std::string name, std::uint64_t def, std::uint64_t lo, std::uint64_t hi,
                         std::string description) {
  ParamDecl d =
      declare(std::move(name), ParamType::unsigned_, std::to_string(def), std::move(description));
  d.uint_min = lo;
  d.uint_max = hi;
  return d;
}

ParamDecl pow2_param(std::string name, std::uint64_t def, std::uint64_t lo, std::uint64_t hi,
                     std::string description, std::string zero_means) {
  ParamDecl d = unsigned_param(std::move(name), def, lo, hi, std::move(description));
  d.power_of_two = true;
  d.zero_means = std::move(zero_means);
  return d;
}

ParamDecl real_param(std::string name, double def, double lo, double hi, std::string description) {
  ParamDecl d = declare(std::move(name), ParamType::real, number_text(def), std::move(description));
  d.real_min = lo;
  d.real_max = hi;
  return d;
}

ParamDecl bool_param(std::string name, bool def, std::string description) {
  return declare(std::move(name), ParamType::boolean, def ? "1" : "0", std::move(description));
}

ParamDecl size_param(std::string name, std::string def, std::uint64_t lo, std::uint64_t hi,
                     std::string description) {
  ParamDecl d = declare(std::move(name), ParamType::size, std::move(def), std::move(description));
  d.uint_min = lo;
  d.uint_max = hi;
  return d;
}

ParamDecl string_param(std::string name, std::string def, std::string description) {
  return declare(std::move(name), ParamType::string, std::move(def), std::move(description));
}

ParamDecl choice_param(std::string name, std::string def, std::vector<std::string> choices,
                       std::string description) {
  ParamDecl d = declare(std::move(name), ParamType::choice, std::move(def), std::move(description));
  d.choices = std::move(choices);
  return d;
}

const ParamDecl* find_param(const ParamDecls& decls, const std::string& name) {
  for (const ParamDecl& d : decls) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

ParamDecls with_default(ParamDecls decls, const std::string& name, const std::string& value) {
  for (ParamDecl& d : decls) {
    if (d.name == name) {
      check_param(d, value);
      d.default_value = value;
      return decls;
    }
  }
  throw UsageError("with_default: no parameter '" + name + "' is declared");
}

Params defaults_of(const ParamDecls& decls) {
  Params p;
  for (const ParamDecl& d : decls) p[d.name] = d.default_value;
  return p;
}

void check_param(const ParamDecl& d, const std::string& text) {
  for (const std::string& w : d.words) {
    if (text == w) return;
  }
  const std::string takes = d.takes();
  switch (d.type) {
    case ParamType::integer: {
      const auto v = parse_int(text);
      if (!v || *v < d.int_min || *v > d.int_max) malformed(d.name, text, takes);
      return;
    }
    case ParamType::unsigned_: {
      const auto v = parse_unsigned(text);
      if (!v) malformed(d.name, text, takes);
      if (*v == 0 && !d.zero_means.empty()) return;
      if (*v < d.uint_min || *v > d.uint_max || (d.power_of_two && !is_pow2(*v)))
        malformed(d.name, text, takes);
      return;
    }
    case ParamType::real: {
      const auto v = parse_real(text);
      if (!v || *v < d.real_min || *v > d.real_max) malformed(d.name, text, takes);
      return;
    }
    case ParamType::boolean:
      if (!parse_bool(text)) malformed(d.name, text, takes);
      return;
    case ParamType::size: {
      const auto v = parse_bytes(text);
      if (!v || *v < d.uint_min || *v > d.uint_max) malformed(d.name, text, takes);
      return;
    }
    case ParamType::string:
      if (d.non_empty && text.empty()) malformed(d.name, text, takes);
      return;
    case ParamType::choice:
      for (const std::string& c : d.choices) {
        if (c == text) return;
      }
      malformed(d.name, text, takes);
  }
}

Params resolve_params(const ParamDecls& decls, const Params& given) {
  Params out = defaults_of(decls);
  for (const auto& [k, v] : given) out[k] = v;
  check_params(decls, out);
  return out;
}

void check_params(const ParamDecls& decls, const Params& params) {
  for (const ParamDecl& d : decls) {
    auto it = params.find(d.name);
    if (it != params.end()) check_param(d, it->second);
  }
}

std::int64_t param_int(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_int(text);
  if (!v) malformed(name, text, "an integer");
  return *v;
}

std::uint64_t param_unsigned(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_unsigned(text);
  if (!v) malformed(name, text, "a non-negative integer");
  return *v;
}

std::uint32_t param_u32(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_unsigned(text);
  if (!v || *v > UINT32_MAX) malformed(name, text, "a non-negative integer below 2^32");
  return static_cast<std::uint32_t>(*v);
}

double param_real(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_real(text);
  if (!v) malformed(name, text, "a number");
  return *v;
}

bool param_bool(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_bool(text);
  if (!v) malformed(name, text, "a boolean (1/0, true/false, on/off, yes/no)");
  return *v;
}

std::uint64_t param_size(const Params& params, const std::string& name) {
  const std::string& text = value_of(params, name);
  const auto v = parse_bytes(text);
  if (!v) malformed(name, text, "a size in bytes (4096, 64KiB, 1.5GB)");
  return *v;
}

const std::string& param_string(const Params& params, const std::string& name) {
  return value_of(params, name);
}

}  // namespace harness
