#include "harness/core/embedded_files.h"

#include <set>
#include <sstream>

#include "harness/core/errors.h"

namespace harness {

std::optional<std::string_view> embedded_file(std::string_view path) {
  for (const auto& f : embedded_files()) {
    if (f.path == path) return f.contents;
  }
  return std::nullopt;
}

namespace {

// Returns the quoted path of an `#include "..."` line, or empty.
std::string included_path(const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return {};
  i = line.find_first_not_of(" \t", i + 1);
  if (line.compare(i, 7, "include") != 0) return {};
  std::size_t open = line.find('"', i + 7);
  if (open == std::string::npos) return {};
  std::size_t close = line.find('"', open + 1);
  if (close == std::string::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

void expand(const std::string& path, std::set<std::string>& seen, std::ostringstream& out) {
  if (!seen.insert(path).second) return;
  auto text = embedded_file(path);
  if (!text) throw RunError("kernel source '" + path + "' is not embedded in this binary");
  std::istringstream in{std::string(*text)};
  std::string line;
  int number = 0;
  out << "#line 1 \"" << path << "\"\n";
  while (std::getline(in, line)) {
    ++number;
    std::string inc = included_path(line);
    if (inc.empty()) {
      out << line << '\n';
      continue;
    }
    expand(inc, seen, out);
    out << "#line " << number + 1 << " \"" << path << "\"\n";
  }
}

}  // namespace

std::string compose_source(const std::vector<std::string>& files) {
  std::set<std::string> seen;
  std::ostringstream out;
  for (const auto& f : files) expand(f, seen, out);
  return out.str();
}

}  // namespace harness
