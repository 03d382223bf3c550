// The environment block of result documents and `harness env`.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/backend/backend.h"

namespace harness {

nlohmann::json device_json(const backend::DeviceInfo& d);
// Host, build and every device of every compiled backend (with the reason a
// backend has none).
nlohmann::json environment_json();
std::string git_sha();

}  // namespace harness
