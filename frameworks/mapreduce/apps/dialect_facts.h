// What one program's dialect files (<name>_types.clh and <name>.clh) state
// about its user functions, as the C++ compiler reads them: the one source of
// MapReduceApp's value_size, output_value_size, has_reduce,
// combine_is_u32_add, reduce_counts_values, keys_are_separator_runs,
// map_emits_one_key_size and has_image_path for one-job apps and jobs.
//
// Each program has <name>/<name>_facts.cpp, two lines:
//   #define FACTS_APP <name>
//   #include "frameworks/mapreduce/apps/dialect_facts.inc"
// which defines harness::apps::<name>_dialect_facts(); its MapReduceApp
// returns it from dialect(). Each fact is read under the condition the
// runtimes' kernels test, so the host sees what the kernels compile.
#pragma once

#include <cstdint>

namespace harness::apps {

struct DialectFacts {
  std::uint32_t value_size = 0;         // sizeof(APP_VAL_T)
  std::uint32_t output_value_size = 0;  // sizeof(APP_OUT_T)
  bool has_reduce = false;              // APP_HAS_REDUCE
  bool combine_add_u32 = false;         // APP_COMBINE_ADD_U32 1 (hashagg)
  bool reduce_counts_values = false;    // APP_REDUCE_COUNTS_VALUES 1 (hashagg)
  bool keys_are_runs = false;           // APP_KEYS_ARE_RUNS defined (hashagg)
  // APP_KEY_SIZE where APP_MAP_EMITS_ONE and APP_KEY_SIZE are defined (Mars'
  // atomic_warp reservation), else 0.
  std::uint32_t map_key_size = 0;
  std::uint32_t map_images = 0;  // APP_MAP_IMAGES where defined (streammr.image), else 0
  // APP_SPLITS_ANYWHERE defined: the input may be cut before any byte for
  // which the dialect's app_is_separator, here as compiled for the host, is
  // nonzero (MapReduceApp::cut_at_or_after states the same rule on the host).
  bool splits_anywhere = false;
  int (*is_separator)(unsigned char) = nullptr;  // app_is_separator, when splits_anywhere
  // Where keys_are_runs: the word-at-a-time run classes hashagg's map scans
  // with (app_run_bytes_swar, app_run_codes_swar) and the byte-at-a-time code
  // they must agree with (app_run_code), as compiled for the host; else null.
  std::uint64_t (*run_bytes_swar)(std::uint64_t) = nullptr;
  std::uint64_t (*run_codes_swar)(std::uint64_t, std::uint64_t) = nullptr;
  std::uint32_t (*run_code)(unsigned char) = nullptr;
};

}  // namespace harness::apps
