// A small option parser: `--name value`, `--name=value` and flags, with a
// UsageError for anything unknown or missing.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/params.h"
#include "harness/core/sizes.h"

namespace harness::cli {

class Args {
 public:
  // `valued` options take a value; `flags` do not; `multi` may repeat.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
       const std::set<std::string>& flags, const std::set<std::string>& multi = {}) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
        continue;
      }
      std::string name = a.substr(2), value;
      bool has_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      if (flags.count(name)) {
        if (has_value) throw UsageError("option --" + name + " takes no value");
        flags_.insert(name);
      } else if (valued.count(name) || multi.count(name)) {
        if (!has_value) {
          if (i + 1 >= argv.size()) throw UsageError("option --" + name + " needs a value");
          value = argv[++i];
        }
        if (multi.count(name)) {
          multi_[name].push_back(value);
        } else {
          if (values_.count(name)) throw UsageError("option --" + name + " given twice");
          values_[name] = value;
        }
      } else {
        throw UsageError("unknown option --" + name);
      }
    }
  }
  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::string get_or(const std::string& name, const std::string& fallback) const {
    return get(name).value_or(fallback);
  }
  std::string require(const std::string& name) const {
    auto v = get(name);
    if (!v) throw UsageError("missing option --" + name);
    return *v;
  }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::vector<std::string> all(const std::string& name) const {
    auto it = multi_.find(name);
    return it == multi_.end() ? std::vector<std::string>{} : it->second;
  }
  const std::vector<std::string>& positional() const { return positional_; }
  // The whole string as an int (the typed parameters' parser: no blanks, no '+').
  static int to_int(const std::string& name, const std::string& v) {
    try {
      check_param(int_param(name, 0, INT32_MIN, INT32_MAX, ""), v);
    } catch (const UsageError&) {
      throw UsageError("option --" + name + " needs an integer, not '" + v + "'");
    }
    return static_cast<int>(param_int({{name, v}}, name));
  }
  // A size ("2GiB", "512MiB", "4096").
  static std::uint64_t to_size(const std::string& name, const std::string& v) {
    try {
      return parse_size(v);
    } catch (const UsageError& bad) {
      throw UsageError("option --" + name + ": " + bad.what());
    }
  }

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> multi_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace harness::cli
