// What the fixed-length record workloads' tests share (kmeans-particles,
// netflix): files of the source tree, generated inputs, outputs finished and
// dumped, the CPU-MT implementation against the reference on every thread
// count.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/workloads/registry.h"
#include "harness/core/errors.h"

namespace harness::workloads::testing {

inline const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// A file of the source tree ($HARNESS_SOURCE_DIR, set by CTest, or the
// folder this binary was configured in).
inline std::string source_file(const std::string& relative) {
  const char* env = std::getenv("HARNESS_SOURCE_DIR");
  std::ifstream in(std::string(env && *env ? env : HARNESS_SOURCE_DIR) + "/" + relative,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << relative;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string generate(const std::string& generator, std::uint64_t size,
                            std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

inline std::string dump(const Output& o) {
  std::ostringstream s;
  o.dump(s);
  return s.str();
}

inline std::unique_ptr<Output> reference(const std::string& app, const std::string& input,
                                         const Params& params = {}) {
  find_workload(app).check_input(bytes(input), input.size());
  auto out = find_workload(app).reference(params, bytes(input), input.size());
  out->finish();
  return out;
}

inline std::unique_ptr<Output> run_cpu(const std::string& app, const std::string& input,
                                       unsigned threads, const Params& params = {}) {
  auto out = find_workload(app).run_cpu(params, bytes(input), input.size(), threads);
  out->finish();
  return out;
}

// run_cpu on 1, 2, 3, 7 and 16 threads gives the reference's answer.
inline void expect_cpu_agrees(const std::string& app, const std::string& input,
                              const Params& params = {}) {
  const auto expected = reference(app, input, params);
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    const auto got = run_cpu(app, input, threads, params);
    EXPECT_EQ(got->compare_with(*expected, {}), "")
        << app << " on " << threads << " threads, " << input.size() << " bytes";
    EXPECT_EQ(dump(*got), dump(*expected)) << app << " on " << threads << " threads";
  }
}

// The message of the RunError that check_input throws ("" when none).
inline std::string input_error(const std::string& app, const std::string& input) {
  try {
    find_workload(app).check_input(bytes(input), input.size());
  } catch (const RunError& e) {
    return e.what();
  }
  return "";
}

}  // namespace harness::workloads::testing
