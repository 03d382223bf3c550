// harness reproduce: run experiments (resuming, optionally one shard of
// them), then plot and write the report.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include "harness/cli/args.h"
#include "harness/cli/commands.h"
#include "harness/cli/last_time.h"
#include "harness/cli/report.h"
#include "harness/cli/resume.h"
#include "harness/core/environment.h"
#include "harness/runner/runner.h"

namespace harness::cli {
namespace {

struct Shard {
  int index = 1, count = 1;  // 1-based
};

int shard_number(const std::string& s, const std::string& whole) {
  if (s.empty() || s.size() > 6 ||
      !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); })) {
    throw UsageError("--shard needs I/N with 1 <= I <= N, not '" + whole + "'");
  }
  return std::stoi(s);
}

Shard parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) {
    throw UsageError("--shard needs I/N with 1 <= I <= N, not '" + s + "'");
  }
  Shard sh{shard_number(s.substr(0, slash), s), shard_number(s.substr(slash + 1), s)};
  if (sh.count < 1 || sh.index < 1 || sh.index > sh.count) {
    throw UsageError("--shard needs I/N with 1 <= I <= N, not '" + s + "'");
  }
  return sh;
}

// Points of a kept document that did not validate or could not run (a point
// skipped on purpose, status "skipped", is not a failure).
int bad_points(const nlohmann::json& doc) {
  int n = 0;
  if (doc.is_object() && doc.contains("points") && doc.at("points").is_array()) {
    for (const auto& p : doc.at("points")) {
      const std::string st = p.is_object() ? p.value("status", "") : "";
      n += st != "ok" && st != "skipped";
    }
  }
  return n;
}

int report_only(const Args& a) {
  for (const char* opt :
       {"experiments", "backend", "reps", "data-dir", "shard", "gpu-memory-budget"}) {
    if (a.get(opt)) throw UsageError(fmt::format("--report-only runs nothing: drop --{}", opt));
  }
  for (const char* opt : {"no-ceilings", "force", "no-reuse"}) {
    if (a.flag(opt)) throw UsageError(fmt::format("--report-only runs nothing: drop --{}", opt));
  }
  // The same default folder as a run: out/reproduce-<preset>.
  const std::string out_dir = a.get("out-dir")
                                  ? *a.get("out-dir")
                                  : "out/reproduce-" + a.get_or("preset", default_preset());
  auto files = results_files_in(out_dir + "/results", "reproduce");
  if (files.empty()) {
    throw UsageError("--report-only: no results documents in " + out_dir +
                     "/results (run `harness reproduce --out-dir " + out_dir + "` first)");
  }
  std::cerr << fmt::format("reproduce: report only, from {} results documents in {}/results\n",
                           files.size(), out_dir);
  return write_report(out_dir, files, "reproduce");
}

// --dry-run: what a run would do, nothing run or written: each experiment,
// whether it runs or is kept (the resume check), and the wall time its run
// last took, from the document it would replace or from the checked-in
// reference documents of this preset and backend; then the sum of what would
// run.
int dry_run(const std::vector<Experiment>& experiments, const RunOptions& base,
            const std::string& out_dir, bool force, const nlohmann::json& environment) {
  const std::string backend_name = base.backend ? backend::kind_name(*base.backend) : "";
  const std::string reference_dir = std::string(HARNESS_SOURCE_DIR) + "/results/reference";
  std::cout << fmt::format("reproduce --dry-run: {} experiments, preset {}, into {}\n",
                           experiments.size(), base.preset, out_dir);
  std::cout << fmt::format("{:<28} {:<6} {:>10}  {}\n", "experiment", "would", "last s",
                           "from (why it runs)");
  double total = 0;
  int running = 0, unknown = 0;
  for (const auto& e : experiments) {
    const std::string path = out_dir + "/results/" + results_file_name(e.id, base.backend);
    ResumeCheck check;
    if (!force)
      check = check_resume_file(path, resume_target(e, base.preset, base.backend, environment));
    const LastTime t = last_wall_time(e.id, base.preset, backend_name, path, reference_dir);
    if (!check.skip) {
      ++running;
      if (t.seconds)
        total += *t.seconds;
      else
        ++unknown;
    }
    std::string from = t.source.empty() ? "no earlier run" : t.source;
    if (!check.skip && !check.reason.empty()) from += " (" + check.reason + ")";
    std::cout << fmt::format("{:<28} {:<6} {:>10}  {}\n", e.id, check.skip ? "keep" : "run",
                             t.seconds ? fmt::format("{:.1f}", *t.seconds) : "-", from);
  }
  std::cout << fmt::format("{} of {} would run: {:.1f} s ({:.1f} min) by their last times{}\n",
                           running, experiments.size(), total, total / 60,
                           unknown ? fmt::format(", {} without one", unknown) : "");
  return 0;
}

}  // namespace

int cmd_reproduce(const std::vector<std::string>& argv) {
  Args a(argv,
         {"experiments", "preset", "backend", "out-dir", "reps", "data-dir", "shard",
          "gpu-memory-budget"},
         {"no-ceilings", "force", "report-only", "dry-run", "no-reuse"});
  if (!a.positional().empty()) throw UsageError("unexpected argument '" + a.positional()[0] + "'");
  std::optional<Shard> shard;
  if (auto s = a.get("shard")) shard = parse_shard(*s);
  if (a.flag("report-only")) {
    return report_only(a);
  }

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
    std::stable_sort(experiments.begin(), experiments.end(),
                     [](const Experiment& x, const Experiment& y) { return x.id < y.id; });
  }
  RunOptions base;
  base.preset = a.get_or("preset", default_preset());
  if (auto b = a.get("backend")) base.backend = backend::parse_kind(*b);
  if (auto r = a.get("reps")) base.reps = Args::to_int("reps", *r);
  base.data_dir = a.get_or("data-dir", "");
  base.ceilings = !a.flag("no-ceilings");
  MeasuredPoints measured;  // shared by the experiments of this run
  if (!a.flag("no-reuse")) base.measured = &measured;
  if (auto m = a.get("gpu-memory-budget"))
    base.gpu_memory_budget = Args::to_size("gpu-memory-budget", *m);
  const bool force = a.flag("force");
  const std::string out_dir = a.get_or("out-dir", "out/reproduce-" + base.preset);

  for (const auto& e : experiments) {  // the same answer from every shard
    if (!e.sizes.count(base.preset))
      throw UsageError("unknown preset '" + base.preset + "' (known: ci, gpu, full, paper)");
  }

  if (shard) {
    // Round-robin: the k-th selected experiment (0-based) goes to shard (k mod N) + 1.
    const std::size_t selected = experiments.size();
    std::vector<Experiment> mine;
    for (std::size_t k = 0; k < selected; ++k) {
      if (static_cast<int>(k % shard->count) + 1 == shard->index) mine.push_back(experiments[k]);
    }
    experiments = std::move(mine);
    if (experiments.empty()) {
      std::cerr << fmt::format(
          "reproduce: shard {}/{} has no experiment ({} selected): nothing to do\n", shard->index,
          shard->count, selected);
      return 0;
    }
    std::string ids;
    for (const auto& e : experiments) ids += (ids.empty() ? "" : ", ") + e.id;
    std::cerr << fmt::format("reproduce: shard {}/{}: {} of {} experiments ({})\n", shard->index,
                             shard->count, experiments.size(), selected, ids);
  }
  const nlohmann::json environment = environment_json();
  if (a.flag("dry-run")) return dry_run(experiments, base, out_dir, force, environment);
  make_dirs(out_dir + "/results");

  std::cerr << fmt::format("reproduce: {} experiments, preset {}, into {}\n", experiments.size(),
                           base.preset, out_dir);
  int status = 0;
  std::vector<std::string> files;
  for (const auto& e : experiments) {
    RunOptions o = base;
    o.out_path = out_dir + "/results/" + results_file_name(e.id, base.backend);
    files.push_back(o.out_path);
    if (!force) {
      ResumeCheck check =
          check_resume_file(o.out_path, resume_target(e, base.preset, base.backend, environment));
      if (check.skip) {
        std::cerr << fmt::format(
            "reproduce: {} complete for this build, preset and devices: skipped (--force reruns "
            "it)\n",
            e.id);
        // Its points serve the experiments still to run, as in an unresumed run.
        if (base.measured) base.measured->remember_document(check.doc, e.id);
        if (int bad = bad_points(check.doc); bad > 0) {
          std::cerr << fmt::format("reproduce: {}: {} of its kept points failed or could not run\n",
                                   e.id, bad);
          status = 1;
        }
        continue;
      }
      if (!check.reason.empty()) {
        std::cerr << fmt::format("reproduce: {} runs again: {} ({})\n", e.id, check.reason,
                                 o.out_path);
      }
    }
    status = std::max(status, run_experiment(e, o).exit_code());
  }
  return std::max(status, write_report(out_dir, files, "reproduce"));
}

}  // namespace harness::cli
