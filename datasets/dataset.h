// Datasets: deterministic, seeded generators and loaders for users' own files,
// cached on disk with an xxh64 checksum. A dataset is named by (generator,
// size, seed) and, for a generator with parameters, their values; the same
// name gives the same bytes on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/core/params.h"
#include "harness/core/sizes.h"

namespace harness::datasets {

struct DatasetSpec {
  std::string generator;  // registered generator name, e.g. "text-zipf"
  std::uint64_t size_bytes = 0;
  std::uint64_t seed = 42;
  // The generator's parameters (Generator::params) given; the others take
  // their defaults.
  Params params = {};
};

struct DatasetFile {
  std::string path;              // absolute path of the materialized file
  std::string generator;         // empty for a user's file
  std::uint64_t size_bytes = 0;  // of the file (Generator::output_bytes of the requested size)
  std::uint64_t seed = 0;
  // Every parameter of the generator, defaults included (empty for a user's
  // file and for generators without parameters).
  Params params = {};
  std::string checksum;     // "xxh64:<16 hex digits>" of the file's bytes
  bool from_cache = false;  // true when an existing, verified file was reused
  double generate_seconds = 0;
};

class Generator {
 public:
  virtual ~Generator() = default;
  virtual std::string name() const = 0;         // "text-zipf"
  virtual std::string description() const = 0;  // one line for `harness list`
  virtual int version() const = 0;  // bump when output bytes change (part of the cache key)
  // File name extension of the materialized file, without the dot.
  virtual std::string extension() const { return "bin"; }
  // Bytes of the file for a requested size: the size itself, except for
  // generators of shaped arrays (.npy), whose size is the arrays' payload
  // budget and whose file adds the headers.
  virtual std::uint64_t output_bytes(std::uint64_t size_bytes) const { return size_bytes; }
  // Writes exactly output_bytes(size_bytes) bytes to out, deterministic in (size_bytes, seed)
  // on every platform and thread count. Stops early if out goes bad; the
  // caller checks the stream.
  virtual void generate(std::uint64_t size_bytes, std::uint64_t seed, std::ostream& out) const = 0;
  // The parameters of the data (record sizes, duplicates ...), given per
  // dataset (a spec's dataset_params or axes, `harness run --dataset-param`)
  // and part of the file's name. Most generators have none.
  virtual ParamDecls params() const { return {}; }
  // The generator of the data `params` describe (every parameter of
  // params(), checked: dataset_params' answer); this instance makes the data
  // of the defaults. Called only for generators with parameters (the default
  // throws std::logic_error).
  virtual std::unique_ptr<Generator> with_params(const Params& params) const;
};

const std::vector<const Generator*>& generators();  // all registered, sorted by name
// Throws UsageError("unknown dataset 'x' (known: a, b)").
const Generator& find_generator(const std::string& name);
// `given` checked against the generator's params() and completed with the
// defaults: UsageError naming a parameter it does not have (and those it
// has) or a value its declaration does not take.
Params dataset_params(const Generator& generator, const Params& given);
// The generator of `spec`: its name's, with its parameters when it has any.
std::shared_ptr<const Generator> generator_for(const DatasetSpec& spec);

// $HARNESS_DATA_DIR if set, else $XDG_CACHE_HOME/gpu-bigdata-harness/datasets,
// else ~/.cache/gpu-bigdata-harness/datasets (empty variables count as unset).
std::string default_cache_dir();

// "<generator>-v<version>-seed<seed>-<format_size(size)>.<extension>", with
// "-<name>=<value>" for each parameter (dataset_params, by name) before
// "-seed" for a generator with parameters.
std::string dataset_file_name(const DatasetSpec& spec);

// Generates the file into cache_dir (creating it), or reuses it when present
// and its checksum matches the sidecar "<file name>.xxh64"; a corrupted or
// truncated cached file is regenerated. Writes through a temporary file and a
// rename, data file first and sidecar last, so an interrupted run never leaves
// a file that passes as valid. Throws UsageError for an unknown generator and
// RunError (with the path and strerror) when the folder or file cannot be
// written.
DatasetFile materialize(const DatasetSpec& spec, const std::string& cache_dir);

// A user's own file: checks that it is a readable regular file; returns its
// absolute path, size and checksum. Throws harness::RunError("cannot read
// input file '<path>': <strerror>") otherwise.
DatasetFile describe_user_file(const std::string& path);

// Reads the whole file into dst; dst_size must equal the file size (the caller
// allocates, e.g. pinned memory). Throws RunError on any failure (missing,
// unreadable, size mismatch, short read).
void load_file(const std::string& path, void* dst, std::uint64_t dst_size);

// Size of a regular file; throws RunError like describe_user_file.
std::uint64_t file_size(const std::string& path);

// 64-bit xxHash (XXH64) of a buffer.
std::uint64_t xxh64(const void* data, std::size_t size, std::uint64_t seed = 0);

// "xxh64:<16 lower-case hex digits>" of a file's bytes, streaming (constant
// memory, any size). Throws RunError like describe_user_file.
std::string checksum_file(const std::string& path);

// "xxh64:<16 lower-case hex digits>" of a hash value.
std::string format_checksum(std::uint64_t hash);

}  // namespace harness::datasets
