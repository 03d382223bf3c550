// harness reproduce: run experiments, then plot and write the report.
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "harness/cli/args.h"
#include "harness/cli/commands.h"
#include "harness/runner/runner.h"

namespace harness::cli {
namespace {

void make_dirs(const std::string& path) {
  std::string partial;
  std::stringstream ss(path);
  std::string part;
  if (!path.empty() && path[0] == '/') partial = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    partial += part + "/";
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      throw RunError("cannot create folder '" + partial + "': " + std::strerror(errno));
    }
  }
}

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

}  // namespace

int cmd_reproduce(const std::vector<std::string>& argv) {
  Args a(argv, {"experiments", "preset", "backend", "out-dir", "reps", "data-dir"},
         {"no-ceilings"});
  if (!a.positional().empty()) throw UsageError("unexpected argument '" + a.positional()[0] + "'");
  std::vector<Experiment> experiments;
  if (auto ids = a.get("experiments")) {
    std::stringstream ss(*ids);
    std::string id;
    while (std::getline(ss, id, ',')) {
      if (!id.empty()) experiments.push_back(find_experiment(id));
    }
    if (experiments.empty()) throw UsageError("--experiments lists no experiment");
  } else {
    experiments = embedded_experiments();
  }
  RunOptions base;
  base.preset = a.get_or("preset", default_preset());
  if (auto b = a.get("backend")) base.backend = backend::parse_kind(*b);
  if (auto r = a.get("reps")) base.reps = Args::to_int("reps", *r);
  base.data_dir = a.get_or("data-dir", "");
  base.ceilings = !a.flag("no-ceilings");
  const std::string out_dir = a.get_or("out-dir", "out/reproduce-" + base.preset);
  make_dirs(out_dir + "/results");

  std::cerr << fmt::format("reproduce: {} experiments, preset {}, into {}\n", experiments.size(),
                           base.preset, out_dir);
  int status = 0;
  std::string files;
  for (const auto& e : experiments) {
    RunOptions o = base;
    o.out_path = out_dir + "/results/" + e.id + ".json";
    status = std::max(status, run_experiment(e, o).exit_code());
    files += " " + quote(o.out_path);
  }
  int plot = python("plot.py", "--out-dir " + quote(out_dir) + files);
  if (plot == 3) {
    std::cerr << "reproduce: figures not drawn (matplotlib is missing: pip install matplotlib)\n";
  } else if (plot != 0) {
    std::cerr << "reproduce: plotting failed (exit " << plot << ")\n";
    status = 1;
  }
  int report = python("report.py", "--out-dir " + quote(out_dir) + files);
  if (report != 0) {
    std::cerr << "reproduce: the report was not written (python3 "
              << (report == 127 ? "not found" : "failed") << ")\n";
    status = 1;
  } else {
    std::cerr << "reproduce: report in " << out_dir << "/report.md\n";
  }
  return status;
}

}  // namespace harness::cli
