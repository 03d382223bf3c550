#include "harness/core/results.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

#include "harness/core/errors.h"

namespace harness {

std::string utc_now_iso8601() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

ResultsDocument::ResultsDocument(std::string path, nlohmann::json experiment,
                                 nlohmann::json environment)
    : path_(std::move(path)) {
  doc_ = {{"schema_version", kResultsSchemaVersion},
          {"generator", std::string("gpu-bigdata-harness ") + HARNESS_VERSION},
          {"experiment", std::move(experiment)},
          {"environment", std::move(environment)},
          {"ceilings", nlohmann::json::array()},
          {"started_at", utc_now_iso8601()},
          {"updated_at", utc_now_iso8601()},
          {"wall_s", 0.0},
          {"complete", false},
          {"points", nlohmann::json::array()}};
  write();
}

void ResultsDocument::add_ceiling(nlohmann::json ceiling) {
  doc_["ceilings"].push_back(std::move(ceiling));
  write();
}

void ResultsDocument::add_point(nlohmann::json point) {
  doc_["points"].push_back(std::move(point));
  write();
}

void ResultsDocument::finish() {
  doc_["complete"] = true;
  write();
}

void ResultsDocument::write() {
  doc_["updated_at"] = utc_now_iso8601();
  doc_["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string tmp = path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw RunError("cannot write results to '" + path_ + "': " + std::strerror(errno));
    out << doc_.dump(1) << '\n';
    if (!out.flush())
      throw RunError("cannot write results to '" + path_ + "': " + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    throw RunError("cannot write results to '" + path_ + "': " + std::strerror(errno));
  }
}

}  // namespace harness
