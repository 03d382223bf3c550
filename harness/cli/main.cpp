// harness: the command-line entry point. Usage errors exit 2, run failures 1.
#include <iostream>
#include <string>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/cli/report.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/suite/register_all.h"

namespace {

constexpr const char* kUsage = R"(usage: harness <command> [options]

commands:
  env [--ceilings] [--json]            backends, devices, measured ceilings
  list                                 frameworks, variants, apps, datasets, experiments
  run --experiment ID|SPEC.json [--backend B] [--device N] [--preset ci|gpu|full|paper]
      [--reps N] [--out FILE] [--data-dir DIR] [--gpu-memory-budget SIZE]
                                       ends with the verdict of the experiment's claim
  run --framework F [--variant V] --app A [--input FILE | --dataset D --size S]
      --backend B [--device N] [--reps N] [--param K=V]... [--dump-output OUT.tsv] [--out FILE]
      [--gpu-memory-budget SIZE] [--dataset-param K=V]... (the generator's, `harness list`)
  new-spec [--id ID] [--framework F] [--variants V1,V2] [--app A] [--out SPEC.json]
                                       a minimal experiment spec with every required field
  compare A.json B.json [--metric total_ms|PHASE]
                                       points matched by key: ratio, 95% bootstrap interval, p
  compare A.json [B.json] --by FIELD [--a VALUE] [--b VALUE] [--metric M]
                                       two labelled sets of points, matched on everything but
                                       FIELD (variant, framework, app, backend, device, dataset,
                                       size, or an axis/parameter name), in one file or two
  reproduce [--experiments ID,...] [--preset P] [--backend B] [--out-dir DIR] [--reps N]
      [--shard I/N] [--force] [--data-dir DIR] [--no-ceilings] [--no-reuse]
      [--gpu-memory-budget SIZE]
                                       skips experiments already complete in DIR/results
                                       for this build, preset and devices (--force reruns);
                                       --shard I/N runs every N-th experiment from the I-th;
                                       a point measured by an earlier experiment of the run
                                       (same inputs, parameters, devices, policies) is reused
                                       unless --no-reuse
  reproduce --dry-run [same options]   what would run or be kept, each experiment's last
                                       wall time (DIR/results, else results/reference/) and
                                       their sum; runs and writes nothing
  reproduce --report-only [--out-dir DIR]
                                       figures and report from DIR/results/*.json, no runs
  report --out-dir OUT PATH...         one report from results files, results folders or
                                       reproduce out-dirs (e.g. the shards of several machines)

exit status: 0 ok, 1 a run failed (wrong result, no device, out of memory, build failure,
unwritable output) or compare matched no point, 2 usage error (unknown name, bad option,
malformed spec, missing input file).
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    harness::register_all();
    if (command == "env") return harness::cli::cmd_env(args);
    if (command == "list") return harness::cli::cmd_list(args);
    if (command == "run") return harness::cli::cmd_run(args);
    if (command == "compare") return harness::cli::cmd_compare(args);
    if (command == "reproduce") return harness::cli::cmd_reproduce(args);
    if (command == "report") return harness::cli::cmd_report(args);
    if (command == "new-spec") return harness::cli::cmd_new_spec(args);
    throw harness::UsageError("unknown command '" + command + "' (try: harness --help)");
  } catch (const harness::UsageError& e) {
    std::cerr << "harness: " << e.what() << "\n";
    return 2;
  } catch (const harness::KernelBuildError& e) {
    std::cerr << "harness: " << e.what() << "\n" << e.log() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "harness: " << e.what() << "\n";
    return 1;
  }
}
