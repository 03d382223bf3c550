// Typed parameters (harness/core/params.h): every bad value of every type is a
// UsageError naming the parameter and what it takes; good values parse whole.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/params.h"

namespace harness {
namespace {

// The message of the UsageError check_param throws for `text`, or "" if none.
std::string refusal(const ParamDecl& d, const std::string& text) {
  try {
    check_param(d, text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

void expect_refused(const ParamDecl& d, const std::vector<std::string>& bad) {
  for (const std::string& text : bad) {
    SCOPED_TRACE(d.name + "=" + text);
    const std::string why = refusal(d, text);
    ASSERT_FALSE(why.empty()) << "accepted";
    EXPECT_NE(why.find("parameter " + d.name + "="), std::string::npos) << why;
    EXPECT_NE(why.find(d.name + " takes " + d.takes()), std::string::npos) << why;
  }
}

void expect_accepted(const ParamDecl& d, const std::vector<std::string>& good) {
  for (const std::string& text : good) EXPECT_EQ(refusal(d, text), "") << d.name << "=" << text;
}

TEST(Params, IntegerTakesWholeSignedNumbersInRange) {
  const ParamDecl d = int_param("gpus", 1, 1, 64, "GPUs");
  expect_accepted(d, {"1", "2", "64"});
  expect_refused(d, {"2x", "1.5", "abc", "", " 2", "2 ", "+2", "0", "65", "-1", "1e3",
                     "99999999999999999999"});
  const ParamDecl any = int_param("offset", 0, INT64_MIN, INT64_MAX, "offset");
  expect_accepted(any, {"-9223372036854775808", "9223372036854775807", "-5", "0"});
  expect_refused(any, {"-9223372036854775809", "9223372036854775808", "-", "--1"});
  EXPECT_EQ(d.takes(), "an integer from 1 to 64");
}

TEST(Params, UnsignedRefusesSignsFractionsAndJunk) {
  const ParamDecl d = unsigned_param("lanes", 3, 1, 16, "queues");
  expect_accepted(d, {"1", "16", "007"});
  expect_refused(d, {"-1", "1.5", "2x", "abc", "", "0", "17", "+3", "18446744073709551616"});
}

TEST(Params, PowerOfTwoWithAMeaningfulZero) {
  const ParamDecl d = pow2_param("warp", 0, 1, 1024, "lanes", "the device's warp width");
  expect_accepted(d, {"0", "1", "32", "1024"});
  expect_refused(d, {"48", "2048", "-32", "32.0", ""});
  EXPECT_EQ(d.takes(), "a power of two from 1 to 1024, or 0 (the device's warp width)");
  const ParamDecl no_zero = pow2_param("group_size", 256, 32, 1024, "work-items");
  expect_refused(no_zero, {"0", "16", "48"});
}

TEST(Params, RealTakesFiniteNumbersInRange) {
  ParamDecl d = real_param("cpu_share", 0, 0, 1, "share");
  d.words = {"auto"};
  expect_accepted(d, {"0", "0.25", "1", "1e-3", "auto"});
  expect_refused(d, {"1.5", "-0.1", "abc", "", "0.5x", "nan", "inf", "Auto", " 0.5"});
  EXPECT_EQ(d.takes(), "a number from 0 to 1, or auto");
}

TEST(Params, BooleanWords) {
  const ParamDecl d = bool_param("sort", true, "sort");
  expect_accepted(d, {"1", "0", "true", "false", "on", "off", "yes", "no"});
  expect_refused(d, {"2", "maybe", "", "TRUE", "1.0"});
}

TEST(Params, SizeWithUnitsAndBounds) {
  const ParamDecl d = size_param("working_set", "0", 0, std::uint64_t{1} << 40, "bytes");
  expect_accepted(d, {"0", "4096", "64KiB", "1.5GB", "1TiB"});
  expect_refused(d, {"-1", "abc", "", "12XB", "2TiB", "1.5"});
  EXPECT_EQ(param_size({{"working_set", "64KiB"}}, "working_set"), 65536u);
}

TEST(Params, ChoiceAndNonEmptyString) {
  const ParamDecl d = choice_param("channels", "host", {"host", "p2p"}, "channels");
  expect_accepted(d, {"host", "p2p"});
  expect_refused(d, {"peer", "", "HOST"});
  EXPECT_EQ(d.takes(), "one of host, p2p");
  ParamDecl s = string_param("pattern", "glo", "text");
  s.non_empty = true;
  expect_accepted(s, {"a", "two words"});
  expect_refused(s, {""});
}

TEST(Params, GettersParseTheWholeString) {
  const Params p = {{"n", "2x"}, {"b", "yes"}, {"u", "-1"}, {"r", "0.5"}, {"big", "4294967296"}};
  EXPECT_THROW(param_int(p, "n"), UsageError);
  EXPECT_TRUE(param_bool(p, "b"));
  EXPECT_THROW(param_unsigned(p, "u"), UsageError);
  EXPECT_DOUBLE_EQ(param_real(p, "r"), 0.5);
  EXPECT_THROW(param_u32(p, "big"), UsageError);
  EXPECT_EQ(param_unsigned(p, "big"), 4294967296u);
  try {
    param_int(p, "missing");
    FAIL() << "no error for a missing parameter";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos);
  }
}

TEST(Params, DefaultsOverridesAndResolution) {
  const ParamDecls decls = {bool_param("sort", true, "sort"),
                            unsigned_param("groups", 0, 0, 100, "groups")};
  EXPECT_EQ(defaults_of(decls), (Params{{"sort", "1"}, {"groups", "0"}}));
  const ParamDecls no_sort = with_default(decls, "sort", "0");
  EXPECT_EQ(defaults_of(no_sort).at("sort"), "0");
  EXPECT_THROW(with_default(decls, "sort", "maybe"), UsageError);
  EXPECT_THROW(with_default(decls, "nope", "1"), UsageError);
  // Undeclared names pass through; declared ones are checked.
  const Params r = resolve_params(decls, {{"groups", "7"}, {"k", "16"}});
  EXPECT_EQ(r, (Params{{"sort", "1"}, {"groups", "7"}, {"k", "16"}}));
  EXPECT_THROW(resolve_params(decls, {{"groups", "101"}}), UsageError);
}

TEST(Params, RangeTextForListings) {
  EXPECT_EQ(pow2_param("warp", 0, 1, 1024, "", "auto").range_text(), "2^k in [1, 1024] or 0");
  EXPECT_EQ(choice_param("c", "a", {"a", "b"}, "").range_text(), "a|b");
  EXPECT_EQ(bool_param("b", true, "").range_text(), "");
  EXPECT_EQ(size_param("s", "0", 0, 1024, "").range_text(), "[0B, 1KiB]");
}

}  // namespace
}  // namespace harness
