// Files compiled into the binary at build time (kernel sources, experiment
// specs), looked up by their path relative to the repository root.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

struct EmbeddedFile {
  std::string_view path;
  std::string_view contents;
};

const std::vector<EmbeddedFile>& embedded_files();  // generated table
std::optional<std::string_view> embedded_file(std::string_view path);

// Expands `#include "path"` lines recursively from the embedded table (each file
// once, like #pragma once / include guards), inserting #line markers so compiler
// messages name the original files. Throws RunError for a missing file.
std::string compose_source(const std::vector<std::string>& files);

}  // namespace harness
