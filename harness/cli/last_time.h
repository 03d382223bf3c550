// What an experiment's run last cost in wall time, for `harness reproduce
// --dry-run`: the results document a run would replace (its `wall_s`), else
// the checked-in reference documents of the same preset and backend.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace harness::cli {

// A document's wall time: its "wall_s", or updated_at - started_at for
// documents written before wall_s was recorded; nullopt when neither reads.
std::optional<double> document_wall_seconds(const nlohmann::json& doc);

struct LastTime {
  std::optional<double> seconds;
  std::string source;  // the file it came from ("" when none)
};

// The time from `out_path` (any document there, complete or not) or else
// from `reference_dir`'s <id>.<backend>.*.json (<id>.*.json when `backend` is
// empty) whose experiment ran at `preset`: the slowest of them, as a bound;
// with no backend, the slowest whole run or the sum of each backend's
// slowest, whichever is more (`source` then names every file summed).
LastTime last_wall_time(const std::string& id, const std::string& preset,
                        const std::string& backend, const std::string& out_path,
                        const std::string& reference_dir);

}  // namespace harness::cli
