// What the MAP_GROUP apps' tests (Patent Citation, Geo Location) share:
// files of the source tree, dumps, the Python checks, the CPU-MT
// implementation against the reference on every thread count.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"

namespace harness::workloads::testing {

inline const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// $HARNESS_SOURCE_DIR (set by CTest) or the folder this was configured in.
inline std::string source_path(const std::string& relative) {
  const char* env = std::getenv("HARNESS_SOURCE_DIR");
  return std::string(env && *env ? env : HARNESS_SOURCE_DIR) + "/" + relative;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string dump(const Output& o) {
  std::ostringstream s;
  o.dump(s);
  return s.str();
}

inline std::unique_ptr<Output> reference(const std::string& app, const std::string& input) {
  auto out = find_workload(app).reference({}, bytes(input), input.size());
  out->finish();
  return out;
}

inline std::unique_ptr<Output> run_cpu(const std::string& app, const std::string& input,
                                       unsigned threads) {
  auto out = find_workload(app).run_cpu({}, bytes(input), input.size(), threads);
  out->finish();
  return out;
}

// "" when two dumps are equal, else where they first differ (gtest's own
// diff of megabyte strings would take minutes).
inline std::string dump_difference(const std::string& got, const std::string& expected) {
  if (got == expected) return "";
  const auto at = static_cast<std::size_t>(
      std::mismatch(got.begin(), got.begin() + std::min(got.size(), expected.size()),
                    expected.begin())
          .first -
      got.begin());
  const std::size_t from = at < 40 ? 0 : at - 40;
  return "dumps differ at byte " + std::to_string(at) + " (of " + std::to_string(got.size()) +
         ", expected " + std::to_string(expected.size()) + "): '" + got.substr(from, 80) +
         "' (expected '" + expected.substr(from, 80) + "')";
}

// run_cpu on 1, 2, 3, 7 and 16 threads gives the reference's answer, dump
// included.
inline void expect_cpu_agrees(const std::string& app, const std::string& input) {
  const auto expected = reference(app, input);
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    const auto got = run_cpu(app, input, threads);
    EXPECT_EQ(got->compare_with(*expected, {}), "") << app << " on " << threads << " threads";
    EXPECT_EQ(dump_difference(dump(*got), dump(*expected)), "")
        << app << " on " << threads << " threads";
  }
}

inline std::string generate(const std::string& generator, std::uint64_t size,
                            std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

// The exit status of `python3 scripts/<script> INPUT DUMP` (dump written to
// a temporary file), or -1 when python3 is missing.
inline int python_check(const std::string& script, const std::string& input_path,
                        const std::string& dump_text) {
  if (std::system("python3 -c pass > /dev/null 2>&1") != 0) return -1;
  const auto dump_path = std::filesystem::temp_directory_path() /
                         ("map_group_check_" + std::to_string(::getpid()) + ".dump");
  std::ofstream(dump_path, std::ios::binary) << dump_text;
  const std::string command = "python3 '" + source_path("scripts/" + script) + "' '" + input_path +
                              "' '" + dump_path.string() + "' > /dev/null";
  const int status = std::system(command.c_str());
  std::filesystem::remove(dump_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

// The input check's message for a malformed input ("no error" when it
// passes); the reference must refuse the same input.
inline std::string run_error(const std::string& app, const std::string& input) {
  try {
    find_workload(app).check_input(bytes(input), input.size());
  } catch (const RunError& e) {
    EXPECT_THROW(reference(app, input), RunError) << "the reference checks too";
    return e.what();
  }
  return "no error";
}

}  // namespace harness::workloads::testing
