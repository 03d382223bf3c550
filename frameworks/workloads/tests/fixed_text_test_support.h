// What the tests of the fixed-length text workloads (opinion-finder,
// dna-assembly) share: the workload's answers as text, thread counts, the
// checked-in examples and the Python checks run on files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "datasets/dataset.h"
#include "frameworks/workloads/outputs.h"
#include "frameworks/workloads/registry.h"

namespace harness::workloads::test_support {

inline const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

inline std::string dump(const Output& o) {
  std::ostringstream s;
  o.dump(s);
  return s.str();
}

inline std::string generate(const std::string& generator, std::uint64_t size,
                            std::uint64_t seed = 42) {
  std::ostringstream out;
  datasets::find_generator(generator).generate(size, seed, out);
  return std::move(out).str();
}

// The workload's declared defaults overridden by `given`.
inline Params params_of(const std::string& app, const Params& given = {}) {
  return resolve_params(find_workload(app).params(), given);
}

inline std::unique_ptr<Output> reference(const std::string& app, const std::string& input,
                                         const Params& given = {}) {
  auto out = find_workload(app).reference(params_of(app, given), bytes(input), input.size());
  out->finish();
  return out;
}

// run_cpu on every thread count gives the reference's answer.
inline void expect_cpu_agrees(const std::string& app, const std::string& input,
                              const Params& given = {}) {
  const auto expected = reference(app, input, given);
  for (unsigned threads : {1u, 2u, 3u, 7u, 16u}) {
    auto got =
        find_workload(app).run_cpu(params_of(app, given), bytes(input), input.size(), threads);
    got->finish();
    EXPECT_EQ(got->compare_with(*expected, {}), "") << app << ", threads " << threads;
    EXPECT_EQ(dump(*got), dump(*expected)) << app << ", threads " << threads;
  }
}

// The source tree: $HARNESS_SOURCE_DIR (CTest sets it), else the first
// folder up from the working directory that holds frameworks/workloads.
inline std::filesystem::path source_dir() {
  if (const char* env = std::getenv("HARNESS_SOURCE_DIR"); env && *env) return env;
  for (auto dir = std::filesystem::current_path();; dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / "frameworks/workloads/registry.cpp")) return dir;
    if (dir == dir.parent_path()) return {};
  }
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

// A temporary file removed at the end of the scope.
class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    static int counter = 0;
    path_ =
        std::filesystem::temp_directory_path() /
        ("harness-fixed-text-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    write_file(path_, contents);
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline bool have_python() { return std::system("python3 -c pass > /dev/null 2>&1") == 0; }

// The exit status of `python3 scripts/<script> INPUT DUMP args` (output hidden).
inline int run_check(const std::string& script, const std::filesystem::path& input,
                     const std::filesystem::path& dump_file, const std::string& args = "") {
  const std::string command = "python3 '" + (source_dir() / "scripts" / script).string() + "' '" +
                              input.string() + "' '" + dump_file.string() + "' " + args +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace harness::workloads::test_support
