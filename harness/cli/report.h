// Figures and report from results documents: `harness report` (merge the
// results of several folders or machines) and the last step of `reproduce`.
#pragma once

#include <string>
#include <vector>

namespace harness::cli {

// harness report --out-dir OUT PATH...: PATH is a results file, a folder of
// them, or a reproduce out-dir (its results/ folder is read).
int cmd_report(const std::vector<std::string>& args);

// The results documents (*.json) of a folder, sorted by name; files that are
// not results documents are left out with a note on stderr naming `who`.
std::vector<std::string> results_files_in(const std::string& dir, const std::string& who);

// Runs scripts/plot.py and scripts/report.py over `files` into `out_dir`;
// returns 0 when the report was written, else 1 (the cause on stderr).
int write_report(const std::string& out_dir, const std::vector<std::string>& files,
                 const std::string& who);

// Prints the verdict of each experiment in the results document `path` on
// stdout, one line per backend/device as the report writes it
// (scripts/verdicts.py --text); a note instead when python3 is missing.
void print_verdicts(const std::string& path);

// mkdir -p; throws RunError naming the folder.
void make_dirs(const std::string& path);

}  // namespace harness::cli
