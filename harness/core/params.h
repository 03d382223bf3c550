// Typed parameters, declared once (nvbench's declared axes are the model).
//
// A variant's knobs and an app's own parameters are ParamDecls: name, type,
// default, range or choices, and a one-line description. Values travel as
// text (a spec's params and axes, --param, result keys) and are checked
// against their declaration before anything runs (check_param); a point's
// code reads them back through the typed getters below, which parse the
// whole string the same way and throw UsageError naming the parameter.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace harness {

using Params = std::map<std::string, std::string>;

enum class ParamType {
  integer,    // a signed 64-bit integer, digits with an optional leading '-'
  unsigned_,  // a non-negative integer, digits only
  real,       // a finite floating-point number
  boolean,    // 1/0, true/false, on/off, yes/no
  size,       // bytes: "4096", "64KiB", "1.5GB" (harness/core/sizes.h)
  string,     // any text
  choice,     // one of a list of words
};

const char* param_type_name(ParamType type);

struct ParamDecl {
  std::string name;
  ParamType type = ParamType::string;
  std::string default_value;
  std::string description;
  // integer, unsigned_, size: inclusive bounds (defaults: the type's range).
  std::int64_t int_min = INT64_MIN;
  std::int64_t int_max = INT64_MAX;
  std::uint64_t uint_min = 0;
  std::uint64_t uint_max = UINT64_MAX;
  // real: inclusive bounds.
  double real_min = -1.7976931348623157e308;
  double real_max = 1.7976931348623157e308;
  std::vector<std::string> choices;  // choice
  bool power_of_two = false;         // unsigned_: a power of two within the bounds
  // unsigned_: a 0 accepted outside the bounds and the power-of-two rule, with
  // what it means ("one work-group per compute unit"); empty: no such zero.
  std::string zero_means;
  // Words accepted besides the type's values ("auto" beside a fraction);
  // the code reading the value checks for them first.
  std::vector<std::string> words;
  // string: the empty string is not a value.
  bool non_empty = false;

  // What a valid value is, in words: "an integer from 1 to 64",
  // "a power of two from 1 to 1024, or 0 (the device's warp width)".
  std::string takes() const;
  std::string type_takes() const;  // takes() without the extra words
  // "[lo, hi]", "a|b|c", "" for display in `harness list`.
  std::string range_text() const;
  std::string type_range() const;  // range_text() without the extra words
};

using ParamDecls = std::vector<ParamDecl>;

// Builders for the common shapes.
ParamDecl int_param(std::string name, std::int64_t def, std::int64_t lo, std::int64_t hi,
                    std::string description);
ParamDecl unsigned_param(std::string name, std::uint64_t def, std::uint64_t lo, std::uint64_t hi,
                         std::string description);
// A power of two in [lo, hi]; `zero_means` non-empty also accepts 0.
ParamDecl pow2_param(std::string name, std::uint64_t def, std::uint64_t lo, std::uint64_t hi,
                     std::string description, std::string zero_means = {});
ParamDecl real_param(std::string name, double def, double lo, double hi, std::string description);
ParamDecl bool_param(std::string name, bool def, std::string description);
ParamDecl size_param(std::string name, std::string def, std::uint64_t lo, std::uint64_t hi,
                     std::string description);
ParamDecl string_param(std::string name, std::string def, std::string description);
ParamDecl choice_param(std::string name, std::string def, std::vector<std::string> choices,
                       std::string description);

// Null when `decls` has no parameter of that name.
const ParamDecl* find_param(const ParamDecls& decls, const std::string& name);
// The declarations with `name`'s default replaced (a variant that differs from
// its family's defaults); the value is checked, and an undeclared name is a
// logic error (UsageError naming it).
ParamDecls with_default(ParamDecls decls, const std::string& name, const std::string& value);
// name -> default of every declaration.
Params defaults_of(const ParamDecls& decls);
// The declared defaults overridden by `given` (names `decls` lacks are kept),
// every declared value checked: what a point's code reads when it may be
// handed partial parameters (tests build contexts by hand).
Params resolve_params(const ParamDecls& decls, const Params& given);

// Throws UsageError "parameter NAME=TEXT: NAME takes ..." when `text` is not a
// valid value of `decl` (the whole string is parsed; ranges and choices apply).
void check_param(const ParamDecl& decl, const std::string& text);
// check_param for every declared name present in `params` (other names, such
// as an app's parameters beside a variant's knobs, are left alone).
void check_params(const ParamDecls& decls, const Params& params);

// Typed getters: the value of `name` in `params`, parsed strictly as the type
// says; UsageError naming the parameter when it is missing or malformed.
// (Bounds and choices are the declaration's, checked by check_param before a
// point runs.)
std::int64_t param_int(const Params& params, const std::string& name);
std::uint64_t param_unsigned(const Params& params, const std::string& name);
std::uint32_t param_u32(const Params& params, const std::string& name);
double param_real(const Params& params, const std::string& name);
bool param_bool(const Params& params, const std::string& name);
std::uint64_t param_size(const Params& params, const std::string& name);
const std::string& param_string(const Params& params, const std::string& name);

}  // namespace harness
