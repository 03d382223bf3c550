// Static tables of the papers as experiments: points that count, not time.
// Today one table, mars.tab5 (lines of user-defined code per app, Mars vs
// Phoenix): variant tables/user-code counts the non-blank, non-comment lines
// of each app's user code in the portable dialect from the sources embedded in
// the binary. See README.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace harness::tables {

// One row of the Mars paper's table 5: our app, the MapReduce jobs whose user
// code it sums, and the paper's line counts.
struct UserCodeRow {
  std::string app;                // "mars-ii", ...
  std::string label;              // "II", ...
  std::string mapreduce_app;      // "invertedindex", ...
  std::vector<std::string> jobs;  // folders under frameworks/mapreduce/apps/
  std::uint32_t paper_mars = 0;
  std::uint32_t paper_phoenix = 0;
};
const std::vector<UserCodeRow>& user_code_rows();

// The files of a row's user code: `<job>_types.clh` and `<job>.clh` of each job.
std::vector<std::string> user_code_files(const UserCodeRow& row);

// Non-blank lines once comments are removed, as scripts/mars_tab5.py counts
// them: every /* ... */ first (its newlines kept), then // to the end of a line.
std::uint64_t code_lines(std::string_view text);
// The same count written differently (a one-pass character state machine),
// the point's validation.
std::uint64_t code_lines_state_machine(std::string_view text);

void register_family();  // apps mars-ii ... mars-pvr, variant tables/user-code

}  // namespace harness::tables
