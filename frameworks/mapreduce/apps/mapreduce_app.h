// A MapReduce workload, written once: its user functions live in the portable
// dialect (<name>_types.clh + <name>.clh, compiled for every runtime and
// backend), its host side (parameters, record splitting, side data, CPU
// reference, value format, validation) lives in a class implementing
// MapReduceApp.
//
// Contract of the dialect files (see wordcount/ and stringmatch/):
//   <name>_types.clh  defines APP_VAL_T (intermediate value), APP_OUT_T (final
//                     value; apps without reduce set it to APP_VAL_T),
//                     APP_HAS_REDUCE (0/1), APP_HAS_COMBINE (0/1),
//                     APP_KEY_BYTE(c) (the key normalization applied as key
//                     bytes are copied) and app_combine(a, b) when
//                     APP_HAS_COMBINE.
//   <name>.clh        defines app_map(EmitCtx*, GLOBAL const uchar* input,
//                     u32 begin, u32 end), which calls emit_intermediate_g/_p,
//                     and, when APP_HAS_REDUCE, app_reduce(EmitCtx*, GLOBAL
//                     const uchar* key, u32 key_len, ValueList* values), which
//                     calls emit_g and reads values with value_count/value_at.
// A runtime supplies EmitCtx, ValueList and the emit functions between the two
// files (frameworks/<runtime>/kernels/<runtime>_emit.clh). Every runtime's
// EmitCtx has the app's side data, read-only, for map and reduce:
//   ctx->side (GLOBAL const uchar*), ctx->side_size (bytes),
//   side_u32(ctx, i), side_f32(ctx, i) (the i-th 4-byte word).
// What the dialect files state about the functions (value sizes, reduce, the
// optional APP_* capability macros) is read from them by the C++ compiler
// (dialect_facts.h) and is the one source of the class's matching accessors:
// a program's class returns its facts from dialect() and states none of them
// again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/mapreduce/apps/dialect_facts.h"
#include "harness/core/params.h"
#include "harness/core/validation.h"

namespace harness::apps {

// Final output: (key, value) pairs sorted by key bytes, then by value
// (MapReduceApp::value_less); the value is the raw bytes of APP_OUT_T (or, for
// apps without reduce, of APP_VAL_T). Apps with reduce have one pair per key;
// map-only apps have one pair per emit, and equal keys repeat.
using KeyValueList = std::vector<std::pair<std::string, std::string>>;

using harness::Params;

// Record offsets are 32-bit: inputs must be smaller than this many bytes.
inline constexpr std::uint64_t kMaxInputBytes = 0xffffffffULL;

class MapReduceApp {
 public:
  virtual ~MapReduceApp() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::string default_dataset() const = 0;
  // Dialect sources, as embedded paths.
  std::string types_file() const {
    return "frameworks/mapreduce/apps/" + name() + "/" + name() + "_types.clh";
  }
  std::string functions_file() const {
    return "frameworks/mapreduce/apps/" + name() + "/" + name() + ".clh";
  }

  // What the dialect files state (dialect_facts.h): <name>_dialect_facts()
  // for a one-job app or a job; null for a chained app (jobs()), whose jobs
  // have theirs, and for test doubles.
  virtual const DialectFacts* dialect() const { return nullptr; }
  // From dialect() (sizeof(APP_VAL_T), sizeof(APP_OUT_T), APP_HAS_REDUCE); a
  // class without one overrides them (a chained app: its final output's), else
  // they throw std::logic_error.
  virtual std::uint32_t value_size() const;
  virtual std::uint32_t output_value_size() const;
  virtual bool has_reduce() const;

  // The app's own parameters, declared (registered as AppInfo::params; given
  // with --param, a spec's params or axes).
  virtual ParamDecls params() const { return {}; }
  // What a correct answer means (registered as AppInfo::validation): "exact"
  // (the canonical output lists are equal) or "set" (the same multiset of
  // pairs, compare_as_sets; for map-only apps, whose order of values under one
  // key is not defined).
  virtual ValidationPolicy validation() const { return {}; }
  // The app's parameters taken from `given` (which may hold other, unrelated
  // names: a variant's knobs), defaults for those missing; throws UsageError
  // for a value its declaration does not take, or that check_params refuses.
  Params resolve_params(const Params& given) const;
  // Value of one of the app's parameters: from `params`, else its default.
  std::string param(const Params& params, const std::string& name) const;

  // Host preprocessing: splits the input into map records. Returns the
  // records' start offsets followed by the end offset (records + 1 entries).
  // Throws RunError for inputs of kMaxInputBytes or more (check_input_size).
  virtual std::vector<std::uint32_t> split_records(const std::uint8_t* data,
                                                   std::size_t size) const = 0;
  // split_records into `offsets`, which runtimes keep from run to run. An app
  // whose offsets are computed (fixed-size records) fills it in place, so a
  // repeated run reuses its pages instead of faulting in fresh ones (k-means'
  // 64 MB at 256 MiB: most of its 38-44 ms of preprocessing on an H100's
  // host). Default: offsets = split_records(data, size).
  virtual void split_records_into(const std::uint8_t* data, std::size_t size,
                                  std::vector<std::uint32_t>& offsets) const {
    offsets = split_records(data, size);
  }
  // Records of one size, one after another: record i (< count) starts at
  // byte first + i * stride, and split_records' end offset is first + count
  // * stride. Runtimes may then write the offsets on the device instead of
  // splitting and copying them (hashagg's records path). Default: none.
  struct RecordStride {
    std::uint32_t first = 0, stride = 0, count = 0;
  };
  virtual std::optional<RecordStride> record_stride(const std::uint8_t* data,
                                                    std::size_t size) const {
    (void)data;
    (void)size;
    return std::nullopt;
  }
  // Read-only data for map and reduce besides the records (a pattern, an index
  // of page starts, centroids, matrices), laid out as the app's dialect code
  // reads it. Runtimes compute it in their timed `preprocess` phase and upload
  // it once per run with the input (`copy_in`). Default: none.
  virtual std::vector<std::uint8_t> side_data(const Params& /*params*/,
                                              const std::uint8_t* /*data*/,
                                              std::size_t /*size*/) const {
    return {};
  }
  // The correct answer, computed independently of any runtime and of the
  // app's dialect functions; sorted as KeyValueList says (sort_output).
  virtual KeyValueList reference(const Params& params, const std::uint8_t* data,
                                 std::size_t size) const = 0;
  // Human-readable value for --dump-output and messages. Must be injective:
  // set validation compares formatted values.
  virtual std::string format_value(std::string_view raw) const = 0;
  // Order of values under one key in the canonical output. Default: raw bytes.
  virtual bool value_less(std::string_view a, std::string_view b) const { return a < b; }
  // value_less as a number, where the app's order is one (value_less(a, b)
  // exactly when value_rank(a) < value_rank(b)): sorts of the output compare
  // these integers instead of calling value_less (string match's and
  // inverted index's offsets, similarity's document pair). Default: none.
  virtual std::optional<std::uint64_t> value_rank(std::string_view /*raw*/) const {
    return std::nullopt;
  }
  // Human-readable key for --dump-output and messages (binary keys: cluster
  // ids, matrix cells). Default: the bytes as they are.
  virtual std::string format_key(std::string_view raw) const { return std::string(raw); }

  // Tolerance validation (floating-point results): splits a pair into an
  // identity compared exactly (a matrix cell, a cluster and its count, a
  // document pair), returned, and numbers compared within the policy's
  // tolerance, appended to `numbers` (no allocation per pair: validation
  // views millions of pairs after every run). Default: the whole pair
  // (formatted) is the identity and there are no numbers, so "tolerance"
  // means "set" for apps without floats.
  virtual std::string tolerant_view(std::string_view key, std::string_view value,
                                    std::vector<double>& /*numbers*/) const {
    return format_key(key) + '\t' + format_value(value);
  }

  // Co-processing (mars.fig9) runs disjoint slices of one input's records on
  // two runtimes; merge_outputs joins their outputs, each in canonical order
  // (sort_output), into the output of the whole input, in canonical order, in
  // one linear merge. Map-only apps keep every pair. Apps with a reduce have
  // one pair per key in each part, and the values of a key found in several
  // parts are folded with merge_values (the default throws UsageError: the
  // app cannot be split).
  KeyValueList merge_outputs(std::vector<KeyValueList> parts) const;
  virtual std::string merge_values(std::string_view a, std::string_view b) const;

  // Inputs of kMaxInputBytes or more run in pieces cut at line ends, each
  // below the limit, whose outputs merge_outputs joins (JobChain): true for
  // apps whose records are lines and whose output holds no input positions
  // (those would need more than 32 bits). Default: false (such inputs fail).
  virtual bool splits_at_lines() const { return false; }
  // Whether split_records is exactly apps::split_lines(data, size): every
  // line is a record, none is cut (records.h). Runtimes may then find the
  // records themselves (thrust/default on the device). Default: false.
  virtual bool records_are_lines() const { return false; }
  // Inputs that need no record split (runtimes that stream byte ranges,
  // frameworks/mapreduce/hashagg): the first position at or after `at` (<= size) where
  // the input may be cut so that no key spans the cut and app_map over each
  // side's bytes emits what it emits over the whole. The app's dialect side
  // then defines APP_SPLITS_ANYWHERE and app_is_separator(c) with the same
  // rule (a cut before a separator byte; apps/tests/test_dialect_facts.cpp
  // checks the two agree). Default: kNoCut (records needed).
  static constexpr std::size_t kNoCut = static_cast<std::size_t>(-1);
  virtual std::size_t cut_at_or_after(const std::uint8_t* /*data*/, std::size_t /*size*/,
                                      std::size_t /*at*/) const {
    return kNoCut;
  }

  // Capabilities runtimes may use, from dialect() (false or 0 without one):
  // Whether the app's combiner is u32 addition (its types define
  // APP_COMBINE_ADD_U32 1): runtimes may then combine with atomic adds.
  bool combine_is_u32_add() const { return dialect() && dialect()->combine_add_u32; }
  // Whether app_reduce reads only value_count of its values, never their
  // contents (page view count's job 2 counts the visits of a URL; its types
  // define APP_REDUCE_COUNTS_VALUES 1): runtimes may then aggregate a count
  // per key with atomic adds instead of keeping the values.
  bool reduce_counts_values() const { return dialect() && dialect()->reduce_counts_values; }
  // Whether map emits (run, one value) for every maximal run of non-separator
  // bytes and nothing else (the dialect side defines APP_KEYS_ARE_RUNS,
  // APP_RUN_VALUE, APP_RUN_CODE_BITS with app_run_code and app_run_byte, and
  // the same classes 8 bytes at once, app_run_bytes_swar and
  // app_run_codes_swar; byte 0 a separator): runtimes may then find the runs
  // without app_map.
  bool keys_are_separator_runs() const { return dialect() && dialect()->keys_are_runs; }
  // The key size when map emits exactly one pair per record, its key of that
  // fixed size (the dialect defines APP_MAP_EMITS_ONE 1 and APP_KEY_SIZE):
  // runtimes may then reserve output space for a warp's records at once
  // (atomicmr/warp); 0 for other apps.
  std::uint32_t map_emits_one_key_size() const { return dialect() ? dialect()->map_key_size : 0; }
  // Whether the app has a texture path (app_map_image; its .clh defines
  // APP_MAP_IMAGES under IMAGE2D_F32): see image_inputs.
  bool has_image_path() const { return dialect() && dialect()->map_images > 0; }

  // Map-only apps: whether map emits the same key for many pairs (an inverted
  // index's URLs), so that a runtime that groups pairs by key has groups to
  // form; false where keys are distinct by construction (a matrix cell, a
  // document pair, a ranked line) or all equal (string match's pattern).
  virtual bool map_keys_repeat() const { return false; }

  // The input's float matrices as images, for runtimes that read them through
  // the texture path (streammr.image): one entry per IMAGE2D_F32 argument of
  // the app's app_map_image (APP_MAP_IMAGES in its .clh; tests check the
  // count), texel (x, y) = texels[y * width + x], pointing into `data`. Empty:
  // the app has no image path (has_image_path).
  struct ImageInput {
    std::size_t width = 0, height = 0;
    const float* texels = nullptr;
  };
  virtual std::vector<ImageInput> image_inputs(const std::uint8_t* /*data*/,
                                               std::size_t /*size*/) const {
    return {};
  }

  // Apps of several chained MapReduce jobs (page view count: remove duplicate
  // entries, then count): the jobs in order, each a MapReduceApp of its own
  // with its dialect files (compiled as a program per runtime); empty for an
  // app that is one job. The input of job i > 0 is what next_job_input(params,
  // i - 1, its output, into) writes into `into` (replacing its contents; the
  // output comes in the runtime's own order, not canonical order, as a chained
  // job's output would), and the app's output is final_output(params, the
  // last job's output, in canonical order); both run
  // on the host, timed (phase "chain"). `into` is the chain's buffer, kept from
  // run to run: a repeated run reuses its memory instead of faulting in fresh
  // pages (21 MB at page view count's 32 MiB: 17 of the step's 45 ms on the
  // CI VM).
  virtual std::vector<const MapReduceApp*> jobs() const { return {}; }
  virtual void next_job_input(const Params& /*params*/, std::size_t /*job*/,
                              const KeyValueList& /*output*/, std::string& into) const {
    into.clear();
  }
  virtual KeyValueList final_output(const Params& /*params*/, KeyValueList last) const {
    return last;
  }

 protected:
  // Throws UsageError for a bad parameter value; `params` holds every one of
  // the app's parameters.
  virtual void check_params(const Params& /*params*/) const {}
};

// Throws RunError naming the limit when size >= kMaxInputBytes.
void check_input_size(const MapReduceApp& app, std::size_t size);

// Compares a runtime's output with the reference; returns an empty string when
// they agree, else a one-line description of the first differences. Both
// lists must be in canonical order (sort_output).
std::string compare_outputs(const MapReduceApp& app, const KeyValueList& expected,
                            const KeyValueList& actual);

// Set validation: the same multiset of (key, formatted value) pairs; names the
// first missing and unexpected pairs (harness::compare_as_sets).
std::string compare_output_sets(const MapReduceApp& app, const KeyValueList& expected,
                                const KeyValueList& actual);

// Tolerance validation: the same multiset of identities (tolerant_view), and
// for each the numbers within |actual - expected| <= abs + rel * |expected|.
std::string compare_output_within(const MapReduceApp& app, const KeyValueList& expected,
                                  const KeyValueList& actual, const ValidationPolicy& policy);

// The comparison the policy names: "exact" (compare_outputs), "set"
// (compare_output_sets) or "tolerance" (compare_output_within); UsageError
// for other kinds.
std::string compare_by_policy(const MapReduceApp& app, const KeyValueList& expected,
                              const KeyValueList& actual, const ValidationPolicy& policy);

// Sorts by key bytes (unsigned) only; the order of equal keys is unspecified.
void sort_by_key(KeyValueList& list);
// Canonical order: by key bytes, then app.value_less.
void sort_output(const MapReduceApp& app, KeyValueList& list);

}  // namespace harness::apps
