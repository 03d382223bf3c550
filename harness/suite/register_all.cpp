// Every framework registers its variants here: adding a framework is one line.
#include "harness/suite/register_all.h"

#include "frameworks/bigkernel/bigkernel.h"
#include "frameworks/blocks/benchmarks/benchmarks.h"
#include "frameworks/hashtable/hashtable.h"
#include "frameworks/mapreduce/apps/registry.h"
#include "frameworks/mapreduce/atomicmr/atomicmr.h"
#include "frameworks/mapreduce/coproc/coproc_runtime.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "frameworks/mapreduce/hashagg/hashagg_runtime.h"
#include "frameworks/mapreduce/mars/mars_runtime.h"
#include "frameworks/mapreduce/mars/strlib/strlib.h"
#include "frameworks/mapreduce/streammr/streammr_runtime.h"
#include "frameworks/mapreduce/thrust/thrust_runtime.h"
#include "frameworks/reduction/reduction.h"
#include "frameworks/sl1/sl1.h"
#include "frameworks/streamgraph/family.h"
#include "frameworks/tables/tables.h"
#include "frameworks/workloads/cpu_mt/cpu_mt.h"
#include "frameworks/workloads/registry.h"
#include "frameworks/workloads/tables/workload_tables.h"
#include "harness/core/registry.h"
#include "micro/atomics/atomics.h"
#include "micro/memory/memory.h"

namespace harness {

void register_all() {
  static bool done = false;
  if (done) return;
  done = true;
  for (const apps::MapReduceApp* app : apps::mapreduce_apps()) {
    AppInfo info;
    info.name = app->name();
    info.kind = "mapreduce";
    info.description = app->description();
    info.default_dataset = app->default_dataset();
    info.validation = app->validation();
    info.params = app->params();
    Registry::instance().add_app(std::move(info));
  }
  for (const workloads::Workload* w : workloads::thesis_workloads()) {
    AppInfo info;
    info.name = w->name();
    info.kind = "workload";
    info.description = w->description();
    info.default_dataset = w->default_dataset();
    info.validation = w->validation();
    info.params = w->params();
    Registry::instance().add_app(std::move(info));
  }
  blocks::register_benchmarks();
  cpu::register_variants();
  mars::register_variants();
  mars::strlib::register_family();
  atomicmr::register_variants();
  streammr::register_variants();
  thrustmr::register_variants();
  hashagg::register_variants();
  coproc::register_variants();
  reduction::register_family();
  tables::register_family();
  streamgraph::register_family();
  workloads::register_cpu_mt();
  bigkernel::register_family();
  hashtable::register_family();
  sl1::register_family();
  workloads::register_workload_tables();
  memory::register_family();
  atomics::register_family();
}

}  // namespace harness
