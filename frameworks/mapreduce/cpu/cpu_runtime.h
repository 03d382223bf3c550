// Multi-threaded CPU MapReduce (the Phoenix-style baseline of mars.fig4 and the
// thesis' CPU-MT): the app's dialect user functions compiled as C++, map on all
// host cores (chunks of records taken dynamically) into per-thread
// open-addressing hash tables partitioned by key hash (values combined on
// insert when the app has a combiner), then one merge + reduce task per
// partition. Word count and string match have fast paths of their own
// (word_count_map.h, string_match_map.h).
#pragma once

#include <cstring>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "frameworks/mapreduce/common/mapreduce_runtime.h"
#include "frameworks/mapreduce/cpu/chunk_queue.h"
#include "frameworks/mapreduce/cpu/flat_table.h"
#include "frameworks/mapreduce/cpu/pair_store.h"
#include "frameworks/mapreduce/cpu/prefetch_batch.h"
#include "harness/core/parallel.h"
#include "harness/core/per_worker.h"
#include "harness/core/stopwatch.h"
#include "harness/dialect/dialect.h"

namespace harness::cpu {

struct Options {
  unsigned threads = 0;   // 0 = every host core
  bool fast_path = true;  // an app's own map where the runtime has one (README)
};

// Stands in for the fast map of an app that has none (never called).
struct NoFastMap {
  static std::size_t cut(const std::uint8_t* /*data*/, std::size_t /*size*/, std::size_t pos) {
    return pos;
  }
  template <class... Args>
  static std::uint64_t map(Args&&... /*args*/) {
    return 0;
  }
};

// Runs fn(worker) on `workers` threads and joins them (harness/core/parallel.h).
using ::harness::parallel_for;
unsigned resolve_threads(unsigned requested);

// One factory per app or job, defined in cpu/apps/cpu_<app>.cpp (cpu_app.inc).
std::unique_ptr<mapreduce::Runtime> make_wordcount(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_stringmatch(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_invertedindex(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_similarity(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_matrixmult(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_kmeans(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_pvc_dedup(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_pvc_count(const Options& options);
std::unique_ptr<mapreduce::Runtime> make_pvr_rank(const Options& options);
// The factory of an app by name; null when the cpu runtime has no build of it.
std::unique_ptr<mapreduce::Runtime> make_runtime(const std::string& app, const Options& options);
// Every app whose jobs (or itself, when it is one job) have a build here.
std::vector<std::string> built_apps();

void register_variants();

}  // namespace harness::cpu
