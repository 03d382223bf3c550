#include "harness/cli/report.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/cli/args.h"
#include "harness/core/errors.h"

namespace harness::cli {
namespace fs = std::filesystem;
namespace {

std::string scripts_dir() {
  if (const char* d = std::getenv("HARNESS_SCRIPTS_DIR")) return d;
  return std::string(HARNESS_SOURCE_DIR) + "/scripts";
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a Python script; returns its exit status (127 when python3 is missing).
int python(const std::string& script, const std::string& args) {
  std::string cmd = "python3 " + quote(scripts_dir() + "/" + script) + " " + args;
  int rc = std::system(cmd.c_str());
  return rc == -1 ? 127 : WEXITSTATUS(rc);
}

bool is_results_document(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() && doc.contains("experiment") && doc.contains("points") &&
         doc.contains("environment");
}

}  // namespace

void make_dirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec || !fs::is_directory(path)) {
    throw RunError("cannot create folder '" + path +
                   "': " + (ec ? ec.message() : std::string("not a folder")));
  }
}

std::vector<std::string> results_files_in(const std::string& dir, const std::string& who) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    if (p.extension() != ".json" || !entry.is_regular_file()) continue;
    if (is_results_document(p.string())) {
      files.push_back(p.string());
    } else {
      std::cerr << who << ": " << p.string() << " left out (not a results document)\n";
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

int write_report(const std::string& out_dir, const std::vector<std::string>& files,
                 const std::string& who) {
  std::string args = "--out-dir " + quote(out_dir);
  for (const auto& f : files) args += " " + quote(f);
  int status = 0;
  int plot = python("plot.py", args);
  if (plot == 3) {
    std::cerr << who << ": figures not drawn (matplotlib is missing: pip install matplotlib)\n";
  } else if (plot != 0) {
    std::cerr << who << ": plotting failed (exit " << plot << ")\n";
    status = 1;
  }
  int report = python("report.py", args);
  if (report != 0) {
    std::cerr << who << ": the report was not written (python3 "
              << (report == 127 ? "not found" : "failed") << ")\n";
    status = 1;
  } else {
    std::cerr << who << ": report in " << out_dir << "/report.md\n";
  }
  return status;
}

void print_verdicts(const std::string& path) {
  std::cout << std::flush;
  const int rc = python("verdicts.py", "--text " + quote(path));
  if (rc == 127) {
    std::cout << "verdict: not evaluated (python3 not found); `harness report --out-dir DIR "
              << path << "` writes it\n";
  } else if (rc != 0) {
    std::cout << "verdict: not evaluated (scripts/verdicts.py exit " << rc << ")\n";
  }
}

int cmd_report(const std::vector<std::string>& argv) {
  Args a(argv, {"out-dir"}, {});
  const std::string out_dir = a.require("out-dir");
  if (a.positional().empty()) {
    throw UsageError("report needs results to read: reproduce out-dirs, results folders or files");
  }
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const auto& path : a.positional()) {
    std::error_code ec;
    std::vector<std::string> found;
    if (fs::is_directory(path, ec)) {
      // A reproduce out-dir holds its documents in results/ (and verdicts.json beside it).
      const std::string dir = fs::is_directory(path + "/results", ec) ? path + "/results" : path;
      found = results_files_in(dir, "report");
      if (found.empty()) throw UsageError("'" + path + "' holds no results documents (*.json)");
    } else if (fs::is_regular_file(path, ec)) {
      if (!is_results_document(path)) throw UsageError("'" + path + "' is not a results document");
      found.push_back(path);
    } else {
      throw UsageError("'" + path + "' does not exist");
    }
    for (auto& f : found) {
      const fs::path canonical = fs::weakly_canonical(f, ec);
      if (seen.insert(ec ? f : canonical.string()).second) files.push_back(f);
    }
  }
  make_dirs(out_dir);
  std::cerr << "report: " << files.size() << " results documents into " << out_dir << "\n";
  return write_report(out_dir, files, "report");
}

}  // namespace harness::cli
