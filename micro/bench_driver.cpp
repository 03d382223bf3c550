#include "micro/bench_driver.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace harness::micro {
namespace {

using backend::Kind;

// Removes --backend=... and --device=... from argv; returns false on a bad value.
bool take_own_flags(const char* program, int& argc, char** argv, std::optional<Kind>& kind,
                    int& index) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--backend=", 0) == 0) {
      try {
        kind = backend::parse_kind(arg.substr(10));
      } catch (const std::exception& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return false;
      }
    } else if (arg.rfind("--device=", 0) == 0) {
      index = std::atoi(arg.c_str() + 9);
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return true;
}

std::unique_ptr<backend::Device> choose_device(std::optional<Kind> kind, int index) {
  std::vector<Kind> kinds;
  for (Kind k : backend::compiled_kinds()) {
    if (k != Kind::cpu && (!kind || *kind == k)) kinds.push_back(k);
  }
  for (bool gpu_only : {true, false}) {
    for (Kind k : {Kind::cuda, Kind::opencl}) {
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) continue;
      for (const auto& d : backend::list_devices(k)) {
        if (index >= 0 && d.index != index) continue;
        if (gpu_only && d.type != "gpu") continue;
        return backend::open_device(k, d.index);
      }
    }
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<backend::Device> start_benchmarks(const char* program, int& argc, char** argv,
                                                  int& exit_code) {
  std::optional<Kind> kind;
  int index = -1;
  exit_code = 2;
  if (!take_own_flags(program, argc, argv, kind, index)) return nullptr;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return nullptr;
  exit_code = 1;
  std::unique_ptr<backend::Device> device;
  try {
    device = choose_device(kind, index);
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return nullptr;
  }
  if (!device) {
    std::cerr << program << ": no OpenCL or CUDA device"
              << (kind ? std::string(" for backend ") + backend::kind_name(*kind) : "") << "\n";
    return nullptr;
  }
  const backend::DeviceInfo& info = device->info();
  benchmark::AddCustomContext("device", info.name);
  benchmark::AddCustomContext("driver", info.driver_version);
  benchmark::AddCustomContext("backend", backend::kind_name(info.kind));
  benchmark::AddCustomContext("device_type", info.type);
  benchmark::AddCustomContext("compute_units", std::to_string(info.compute_units));
  benchmark::AddCustomContext("l2_cache_bytes", std::to_string(info.l2_cache_bytes));
  exit_code = 0;
  return device;
}

}  // namespace harness::micro
