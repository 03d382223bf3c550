// A MapReduce workload, written once: its user functions live in the portable
// dialect (<name>_types.clh + <name>.clh, compiled for every runtime and
// backend), its host side (record splitting, CPU reference, value format)
// lives in a class implementing MapReduceApp.
//
// Contract of the dialect files (see wordcount/ for an example):
//   <name>_types.clh  defines APP_VAL_T (intermediate value), APP_OUT_T (final
//                     value), APP_HAS_REDUCE (0/1), APP_KEY_BYTE(c) (the key
//                     normalization applied as key bytes are copied) and
//                     app_combine(a, b) when the values can be combined.
//   <name>.clh        defines app_map(EmitCtx*, GLOBAL const uchar* input,
//                     u32 begin, u32 end), which calls emit_intermediate_g/_p,
//                     and app_reduce(EmitCtx*, GLOBAL const uchar* key,
//                     u32 key_len, ValueList* values), which calls emit_g and
//                     reads values with value_count/value_at.
// A runtime supplies EmitCtx, ValueList and the emit functions between the two
// files (frameworks/<runtime>/kernels/<runtime>_emit.clh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace harness::apps {

// Final output: one (key, value) per key, sorted by key bytes; the value is the
// raw bytes of APP_OUT_T (or, for apps without reduce, of APP_VAL_T).
using KeyValueList = std::vector<std::pair<std::string, std::string>>;

class MapReduceApp {
 public:
  virtual ~MapReduceApp() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::string default_dataset() const = 0;
  // Dialect sources, as embedded paths.
  std::string types_file() const {
    return "frameworks/apps/" + name() + "/" + name() + "_types.clh";
  }
  std::string functions_file() const { return "frameworks/apps/" + name() + "/" + name() + ".clh"; }

  virtual std::uint32_t value_size() const = 0;         // sizeof(APP_VAL_T)
  virtual std::uint32_t output_value_size() const = 0;  // sizeof(APP_OUT_T)
  virtual bool has_reduce() const = 0;

  // Host preprocessing: splits the input into map records. Returns the
  // records' start offsets followed by the end offset (records + 1 entries).
  virtual std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                                   std::size_t size) const = 0;
  // The correct answer, computed independently of any runtime.
  virtual KeyValueList reference(const std::uint8_t* data, std::size_t size) const = 0;
  // Human-readable value for --dump-output.
  virtual std::string format_value(std::string_view raw) const = 0;
};

// Compares a runtime's output with the reference; returns an empty string when
// they agree, else a one-line description of the first differences.
std::string compare_outputs(const MapReduceApp& app, const KeyValueList& expected,
                            const KeyValueList& actual);

// Sorts by key bytes (unsigned), as the reference and --dump-output order keys.
void sort_by_key(KeyValueList& list);

}  // namespace harness::apps
