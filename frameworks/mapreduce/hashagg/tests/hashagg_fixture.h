// What hashagg's two test files share: the option sets they run and a
// fixture that makes one runtime per job of an app.
#pragma once

#include <string>

#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/common/tests/mapreduce_inputs.h"
#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"
#include "harness/backend/tests/device_fixture.h"

namespace harness::testing {

// The input copied whole first (hashagg/resident).
inline hashagg::Options resident() {
  hashagg::Options o;
  o.pipelined = false;
  return o;
}

// Many chunks (4 KiB) over two lanes, 3 work-groups of 32, odd segments of
// 7 bytes (app_map's byte path; the other paths ignore them).
inline hashagg::Options small_pieces() {
  hashagg::Options o;
  o.chunk_kib = 4;
  o.lanes = 2;
  o.groups = 3;
  o.group_size = 32;
  o.segment = 7;
  return o;
}

class HashAggFixture : public DeviceAppTest {
 protected:
  const apps::MapReduceApp& app() const { return apps::find_mapreduce_app(app_name()); }
  JobRuntimes runtimes(const hashagg::Options& o) {
    return [this, o](const std::string&) { return hashagg::make_runtime(*device_, o); };
  }
};

}  // namespace harness::testing
