// The harness subcommands; each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace harness::cli {
int cmd_env(const std::vector<std::string>& args);
int cmd_list(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_reproduce(const std::vector<std::string>& args);
int cmd_new_spec(const std::vector<std::string>& args);
}  // namespace harness::cli
