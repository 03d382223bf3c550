#include "harness/core/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "harness/backend/cpu_device.h"
#include "harness/core/host_cores.h"

namespace harness {

nlohmann::json device_json(const backend::DeviceInfo& d) {
  return {{"backend", backend::kind_name(d.kind)},
          {"index", d.index},
          {"name", d.name},
          {"vendor", d.vendor},
          {"type", d.type},
          {"driver_version", d.driver_version},
          {"api_version", d.api_version},
          {"platform", d.platform},
          {"global_memory_bytes", d.global_memory_bytes},
          {"compute_units", d.compute_units},
          {"max_work_group_size", d.max_work_group_size},
          {"local_memory_bytes", d.local_memory_bytes},
          {"local_memory_optin_bytes", d.local_memory_optin_bytes},
          {"l2_cache_bytes", d.l2_cache_bytes},
          {"l2_cache_source", d.l2_cache_source},
          {"pci_bus_id", d.pci_bus_id},
          {"compute_capability", d.compute_capability},
          {"clock_mhz", d.clock_mhz},
          {"warp_size", d.warp_size}};
}

// The checkout's commit: $HARNESS_GIT_SHA when set (a copy of the tree without
// .git, as on a lent GPU machine), else `git rev-parse` in the source folder.
std::string git_sha() {
  if (const char* env = std::getenv("HARNESS_GIT_SHA"); env && *env) return env;
  std::string cmd =
      std::string("git -C '") + HARNESS_SOURCE_DIR + "' rev-parse --short=12 HEAD 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "unknown";
  char buf[64] = {};
  std::string out = fgets(buf, sizeof buf, p) ? buf : "";
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

nlohmann::json environment_json() {
  utsname u{};
  uname(&u);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  nlohmann::json devices = nlohmann::json::array();
  nlohmann::json compiled = nlohmann::json::array();
  nlohmann::json missing = nlohmann::json::object();
  for (backend::Kind k : backend::compiled_kinds()) {
    compiled.push_back(backend::kind_name(k));
    std::string why;
    auto list = backend::list_devices(k, &why);
    for (const auto& d : list) devices.push_back(device_json(d));
    if (list.empty()) missing[backend::kind_name(k)] = why;
  }
  nlohmann::json env = {{"harness_version", HARNESS_VERSION},
                        {"git_sha", git_sha()},
                        {"build_type", HARNESS_BUILD_TYPE},
                        {"compiler", HARNESS_CXX_COMPILER},
                        {"cuda_compiler", nullptr},
                        {"host",
                         {{"hostname", host},
                          {"os", std::string(u.sysname) + " " + u.release},
                          {"cpu", backend::cpu::cpu_model_name()},
                          {"cores", harness::usable_cores()},
                          {"machine_cores", harness::machine_cores()},
                          {"memory_bytes", backend::cpu::host_memory_bytes()}}},
                        {"backends_compiled", compiled},
                        {"devices", devices},
                        {"backends_without_devices", missing}};
#ifdef HARNESS_CUDA_COMPILER
  env["cuda_compiler"] = HARNESS_CUDA_COMPILER;
#endif
  return env;
}

}  // namespace harness
