// The paper's applications (figures 10-13) with the system atomic per
// work-item (atomics/system), per wavefront (atomics/wave: MM and KMeans) and
// the software atomic (atomics/software): scalar product, the map phases of
// MapReduce matrix multiplication and KMeans (each map task emits one record
// through an atomically reserved output slot) and string match (each match
// takes an output slot). Every answer is checked exactly: the product, the
// set of emitted records, the set of match positions.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

#include "harness/core/errors.h"
#include "harness/core/parallel.h"
#include "micro/atomics/internal.h"

namespace harness::atomics {
namespace {

enum class Emit { thread, wave, software };

Emit emit_of(const std::string& variant) {
  if (variant == "wave") return Emit::wave;
  if (variant == "software") return Emit::software;
  return Emit::thread;
}

// What the three emit strategies share: the software atomic's state and
// co-residency check, the launch with or without it.
class AppPoint : public KernelPoint {
 public:
  AppPoint(const PointContext& ctx, Emit emit) : KernelPoint(ctx), emit_(emit) {}

 protected:
  // Builds the program and the kernel `base`_thread / _wave / _software (or
  // `system` / `software` names given in full).
  void build(const std::string& system_name, const std::string& wave_name,
             const std::string& software_name) {
    program_ = device_.build(portable_program());
    const std::string& name = emit_ == Emit::software ? software_name
                              : emit_ == Emit::wave   ? wave_name
                                                      : system_name;
    if (name.empty()) throw SkipPoint("this app has no per-wavefront version");
    kernel_ = program_->kernel(name);
    if (emit_ == Emit::software) {
      swa_ = std::make_unique<SoftwareAtomic>(device_, shape_);
      if (std::string why = residency_problem(device_, kernel_, shape_.groups + 1,
                                              shape_.group_size, swa_->scratch_bytes());
          !why.empty())
        throw SkipPoint(why);
    }
  }
  backend::LaunchShape system_shape() const { return {shape_.groups, shape_.group_size}; }
  void reset_swa(backend::Queue& q) {
    if (swa_) swa_->reset(q);
  }
  void read_swa(backend::Queue& q) {
    if (swa_) swa_->read_status(q);
  }
  std::string swa_problem() const { return swa_ ? swa_->problem() : ""; }

  Emit emit_;
  backend::Kernel kernel_;
  std::unique_ptr<SoftwareAtomic> swa_;
};

// ---------------------------------------------------------------- scalar product

class DotPoint final : public AppPoint {
 public:
  DotPoint(const PointContext& ctx, Emit emit)
      : AppPoint(ctx, emit), per_thread_(param_u32(ctx.params, "per_thread")) {
    if (emit == Emit::wave) throw SkipPoint("scalar product has no per-wavefront version");
    if (per_thread_ == 0) throw UsageError("atomics: per_thread must be at least 1");
    n_ = shape_.threads() * per_thread_;
    if (n_ >= (std::uint64_t{1} << 30)) throw SkipPoint("more than 2^30 elements");
  }

  void prepare() override {
    build("atomics_dot_system", "", "atomics_dot_software");
    std::vector<std::uint32_t> x(n_), y(n_);
    std::mt19937 rng(2024);
    expected_ = 0;
    for (std::uint64_t i = 0; i < n_; ++i) {
      x[i] = rng() & 0xffffu;
      y[i] = rng() & 0xffffu;
      expected_ += x[i] * y[i];
    }
    d_x_ = device_.allocate(n_ * 4);
    d_y_ = device_.allocate(n_ * 4);
    d_result_ = device_.allocate(4);
    auto& q = device_.queue();
    q.write(d_x_, 0, x.data(), n_ * 4);
    q.write(d_y_, 0, y.data(), n_ * 4);
    q.finish();
    q.take_spans();
  }
  void before_repetition() override {
    auto& q = device_.queue();
    q.fill_zero(d_result_, 0, 4);
    reset_swa(q);
    q.finish();
    q.take_spans();
  }
  Work work() const override {
    Work w;
    w.input_bytes = n_ * 8;
    w.reads(level::dram, n_ * 8, "kernel").items("atomics", n_, "kernel");
    return w;
  }
  void corrupt_expected() override { expected_ ^= 1u; }

 protected:
  void launch(backend::Queue& q) override {
    if (swa_)
      launch_software(q, kernel_, *swa_, d_x_, d_y_, per_thread_, d_result_);
    else
      q.launch(kernel_, system_shape(), d_x_, d_y_, per_thread_, d_result_);
  }
  void read_back(backend::Queue& q) override {
    q.read(&result_, d_result_, 0, 4);
    read_swa(q);
  }
  std::string check() override {
    if (std::string bad = swa_problem(); !bad.empty()) return bad;
    if (result_ != expected_)
      return fmt::format("scalar product {} (mod 2^32), expected {}", result_, expected_);
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["elements"] = static_cast<double>(n_);
  }
  std::vector<std::uint32_t> output() const override { return {result_}; }

 private:
  std::uint32_t per_thread_;
  std::uint64_t n_ = 0;
  std::uint32_t expected_ = 0, result_ = 0;
  backend::Buffer d_x_, d_y_, d_result_;
};

// ---------------------------------------------------------------- MapReduce map phases

// Records (key, value) emitted through reserved slots; checked as a set.
class EmitPoint : public AppPoint {
 public:
  EmitPoint(const PointContext& ctx, Emit emit) : AppPoint(ctx, emit) {}

  void before_repetition() override {
    auto& q = device_.queue();
    q.fill_zero(d_count_, 0, 4);
    std::fill(keys_.begin(), keys_.end(), 0xffffffffu);
    q.write(d_keys_, 0, keys_.data(), keys_.size() * 4);
    reset_swa(q);
    q.finish();
    q.take_spans();
  }
  void corrupt_expected() override { expected_.at(0) ^= 1u; }

 protected:
  void allocate_output() {
    rounds_ = static_cast<std::uint32_t>((tasks_ + shape_.threads() - 1) / shape_.threads());
    d_count_ = device_.allocate(4);
    d_keys_ = device_.allocate(std::size_t{tasks_} * 4);
    d_vals_ = device_.allocate(std::size_t{tasks_} * 4);
    keys_.assign(tasks_, 0);
    vals_.assign(tasks_, 0);
  }
  void read_back(backend::Queue& q) override {
    q.read(&count_, d_count_, 0, 4);
    q.read(keys_.data(), d_keys_, 0, keys_.size() * 4);
    q.read(vals_.data(), d_vals_, 0, vals_.size() * 4);
    read_swa(q);
  }
  std::string check() override {
    if (std::string bad = swa_problem(); !bad.empty()) return bad;
    if (count_ != tasks_) return fmt::format("{} records emitted, expected {}", count_, tasks_);
    std::vector<char> seen(tasks_, 0);
    for (std::uint32_t s = 0; s < tasks_; ++s) {
      const std::uint32_t k = keys_[s];
      if (k >= tasks_) return fmt::format("output slot {} holds key {}: no such task", s, k);
      if (seen[k]++) return fmt::format("task {} emitted twice", k);
      if (vals_[s] != expected_[k])
        return fmt::format("task {} emitted {}, expected {}", k, vals_[s], expected_[k]);
    }
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["tasks"] = tasks_;
    m.counters["rounds"] = rounds_;
  }
  std::vector<std::uint32_t> output() const override {
    std::vector<std::uint32_t> by_task(tasks_, 0);
    for (std::uint32_t s = 0; s < tasks_ && s < count_; ++s) {
      if (keys_[s] < tasks_) by_task[keys_[s]] = vals_[s];
    }
    return by_task;
  }
  template <class... Args>
  void launch_emit(backend::Queue& q, const Args&... task_args) {
    if (swa_)
      launch_software(q, kernel_, *swa_, task_args..., tasks_, rounds_, d_count_, d_keys_, d_vals_);
    else if (emit_ == Emit::wave)
      q.launch(kernel_, system_shape(), task_args..., tasks_, rounds_, d_count_, d_keys_, d_vals_,
               shape_.wave);
    else
      q.launch(kernel_, system_shape(), task_args..., tasks_, rounds_, d_count_, d_keys_, d_vals_);
  }

  std::uint32_t tasks_ = 0, rounds_ = 0, count_ = 0;
  std::vector<std::uint32_t> expected_, keys_, vals_;
  backend::Buffer d_count_, d_keys_, d_vals_;
};

// The n x n case's inputs and product, made once per n in the process and
// shared by the points that ask for it (fig10 asks for each n on three
// variants and two backends; the product of n = 2048 took 10 s on one
// core), the product's rows spread over the host's cores. Entries past 512
// MiB in all are dropped, the oldest first.
struct MatrixCase {
  std::vector<std::uint32_t> x, y, product;
};

std::shared_ptr<const MatrixCase> matrix_case(std::uint32_t n) {
  static std::mutex mutex;
  static std::vector<std::pair<std::uint32_t, std::shared_ptr<const MatrixCase>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& [size, c] : cache) {
    if (size == n) return c;
  }
  auto c = std::make_shared<MatrixCase>();
  c->x.resize(std::size_t{n} * n);
  c->y.resize(c->x.size());
  std::mt19937 rng(77);
  for (auto& v : c->x) v = rng() & 0xffu;
  for (auto& v : c->y) v = rng() & 0xffu;
  c->product.assign(c->x.size(), 0);
  parallel_ranges(n, 0, 1, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i < last; ++i) {
      std::uint32_t* row = &c->product[i * n];
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t a = c->x[i * n + k];
        const std::uint32_t* yk = &c->y[std::size_t{k} * n];
        for (std::uint32_t j = 0; j < n; ++j) row[j] += a * yk[j];
      }
    }
  });
  const auto bytes = [](const auto& e) { return e.second->x.size() * 12; };
  std::size_t total = c->x.size() * 12;
  for (const auto& e : cache) total += bytes(e);
  while (!cache.empty() && total > (std::size_t{512} << 20)) {
    total -= bytes(cache.front());
    cache.erase(cache.begin());
  }
  cache.emplace_back(n, c);
  return c;
}

class MatrixPoint final : public EmitPoint {
 public:
  MatrixPoint(const PointContext& ctx, Emit emit)
      : EmitPoint(ctx, emit), n_(param_u32(ctx.params, "n")) {
    if (n_ == 0 || n_ > 8192) throw UsageError("atomics: n must be 1..8192");
    tasks_ = n_ * n_;
  }
  void prepare() override {
    build("atomics_mm_thread", "atomics_mm_wave", "atomics_mm_software");
    const std::shared_ptr<const MatrixCase> c = matrix_case(n_);
    const std::vector<std::uint32_t>& x = c->x;
    const std::vector<std::uint32_t>& y = c->y;
    expected_ = c->product;  // a copy: tests corrupt their own
    d_x_ = device_.allocate(x.size() * 4);
    d_y_ = device_.allocate(y.size() * 4);
    auto& q = device_.queue();
    q.write(d_x_, 0, x.data(), x.size() * 4);
    q.write(d_y_, 0, y.data(), y.size() * 4);
    q.finish();
    q.take_spans();
    allocate_output();
  }
  Work work() const override {
    Work w;
    w.input_bytes = std::uint64_t{n_} * n_ * 8;
    w.items("records", tasks_, "kernel");
    return w;
  }

 protected:
  void launch(backend::Queue& q) override { launch_emit(q, d_x_, d_y_, n_); }

 private:
  std::uint32_t n_;
  backend::Buffer d_x_, d_y_;
};

class KmeansPoint final : public EmitPoint {
 public:
  KmeansPoint(const PointContext& ctx, Emit emit)
      : EmitPoint(ctx, emit),
        points_(param_u32(ctx.params, "points")),
        k_(param_u32(ctx.params, "clusters")) {
    if (points_ == 0 || k_ == 0) throw UsageError("atomics: points and clusters must be >= 1");
    tasks_ = points_;
  }
  void prepare() override {
    build("atomics_km_thread", "atomics_km_wave", "atomics_km_software");
    std::vector<std::uint32_t> pts(std::size_t{points_} * kDims), cen(std::size_t{k_} * kDims);
    std::mt19937 rng(99);
    for (auto& v : pts) v = rng() & 1023u;
    for (auto& v : cen) v = rng() & 1023u;
    expected_.assign(points_, 0);
    for (std::uint32_t t = 0; t < points_; ++t) {
      std::uint32_t best = 0, best_d = 0xffffffffu;
      for (std::uint32_t c = 0; c < k_; ++c) {
        std::uint32_t d = 0;
        for (std::uint32_t j = 0; j < kDims; ++j) {
          const std::uint32_t a = pts[std::size_t{t} * kDims + j],
                              b = cen[std::size_t{c} * kDims + j];
          const std::uint32_t diff = a > b ? a - b : b - a;
          d += diff * diff;
        }
        if (d < best_d) {
          best_d = d;
          best = c;
        }
      }
      expected_[t] = best;
    }
    d_points_ = device_.allocate(pts.size() * 4);
    d_centroids_ = device_.allocate(cen.size() * 4);
    auto& q = device_.queue();
    q.write(d_points_, 0, pts.data(), pts.size() * 4);
    q.write(d_centroids_, 0, cen.data(), cen.size() * 4);
    q.finish();
    q.take_spans();
    allocate_output();
  }
  Work work() const override {
    Work w;
    w.input_bytes = std::uint64_t{points_} * kDims * 4;
    w.items("records", tasks_, "kernel");
    return w;
  }

 protected:
  void launch(backend::Queue& q) override { launch_emit(q, d_points_, d_centroids_, kDims, k_); }

 private:
  static constexpr std::uint32_t kDims = 4;
  std::uint32_t points_, k_;
  backend::Buffer d_points_, d_centroids_;
};

// ---------------------------------------------------------------- string match

// The paper's four queries on its 4 MB text had 7, 87, 1413 and 20234 matches;
// q1..q4 take the word of the input whose count is nearest to those, scaled to
// the input's size.
double query_target(const std::string& query) {
  if (query == "q1") return 7;
  if (query == "q2") return 87;
  if (query == "q3") return 1413;
  if (query == "q4") return 20234;
  throw UsageError("atomics: query must be q1, q2, q3 or q4, not '" + query + "'");
}

class MatchPoint final : public AppPoint {
 public:
  MatchPoint(const PointContext& ctx, Emit emit) : AppPoint(ctx, emit) {
    if (emit == Emit::wave) throw SkipPoint("string match has no per-wavefront version");
    const auto it = ctx.params.find("query");
    query_ = it == ctx.params.end() ? "q1" : it->second;
    target_ = query_target(query_);
    if (!ctx.input) throw UsageError("atomics: string-match needs an input text");
    if (ctx.input_size >= (std::uint64_t{1} << 31)) throw SkipPoint("input of 2 GiB or more");
    text_.assign(reinterpret_cast<const char*>(ctx.input), ctx.input_size);
    checksum_ = ctx.input_checksum;
  }
  void prepare() override {
    build("atomics_match_system", "", "atomics_match_software");
    key_ = word_near_count(text_, target_ * static_cast<double>(text_.size()) / (4.0 * 1048576));
    if (key_.empty()) throw SkipPoint("the input has no word of 4 letters or more");
    expected_ = find_all(text_, key_);
    const auto n = static_cast<std::uint32_t>(text_.size());
    chunk_ = static_cast<std::uint32_t>((n + shape_.threads() - 1) / shape_.threads());
    d_text_ = device_.allocate(std::max<std::size_t>(n, 1));
    d_key_ = device_.allocate(key_.size());
    d_count_ = device_.allocate(4);
    d_positions_ = device_.allocate(std::max<std::size_t>(expected_.size(), 1) * 4);
    auto& q = device_.queue();
    q.write(d_text_, 0, text_.data(), n);
    q.write(d_key_, 0, key_.data(), key_.size());
    q.finish();
    q.take_spans();
    got_.assign(expected_.size(), 0);
  }
  void before_repetition() override {
    auto& q = device_.queue();
    q.fill_zero(d_count_, 0, 4);
    reset_swa(q);
    q.finish();
    q.take_spans();
  }
  Work work() const override {
    Work w;
    w.input_bytes = text_.size();
    w.reads(level::dram, text_.size(), "kernel").items("matches", expected_.size(), "kernel");
    return w;
  }
  void corrupt_expected() override {
    if (expected_.empty())
      expected_.push_back(0);
    else
      expected_[0] ^= 1u;
  }

 protected:
  void launch(backend::Queue& q) override {
    const auto n = static_cast<std::uint32_t>(text_.size());
    const auto klen = static_cast<std::uint32_t>(key_.size());
    if (swa_)
      launch_software(q, kernel_, *swa_, d_text_, n, d_key_, klen, chunk_, d_count_, d_positions_);
    else
      q.launch(kernel_, system_shape(), d_text_, n, d_key_, klen, chunk_, d_count_, d_positions_);
  }
  void read_back(backend::Queue& q) override {
    q.read(&count_, d_count_, 0, 4);
    if (!got_.empty()) q.read(got_.data(), d_positions_, 0, got_.size() * 4);
    read_swa(q);
  }
  std::string check() override {
    if (std::string bad = swa_problem(); !bad.empty()) return bad;
    if (count_ != expected_.size())
      return fmt::format("{} matches of '{}', expected {}", count_, key_, expected_.size());
    std::vector<std::uint32_t> sorted = got_;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (sorted[i] != expected_[i])
        return fmt::format("match positions differ: the {}th is {}, expected {}", i + 1, sorted[i],
                           expected_[i]);
    }
    return "";
  }
  void add_counters(Measurement& m) const override {
    m.counters["matches"] = static_cast<double>(expected_.size());
    m.counters["query_length"] = static_cast<double>(key_.size());
    m.counters["chunk"] = chunk_;
  }
  std::vector<std::uint32_t> output() const override {
    std::vector<std::uint32_t> sorted = got_;
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }

 private:
  std::string query_, key_, text_, checksum_;
  double target_ = 0;
  std::vector<std::uint32_t> expected_, got_;
  std::uint32_t chunk_ = 0, count_ = 0;
  backend::Buffer d_text_, d_key_, d_count_, d_positions_;
};

}  // namespace

std::unique_ptr<PointRunner> make_app(const PointContext& ctx, const std::string& variant) {
  micro::point_device(ctx, "atomics", variant);
  const Emit emit = emit_of(variant);
  if (ctx.app == "scalar-product") return std::make_unique<DotPoint>(ctx, emit);
  if (ctx.app == "mm-map") return std::make_unique<MatrixPoint>(ctx, emit);
  if (ctx.app == "kmeans-map") return std::make_unique<KmeansPoint>(ctx, emit);
  if (ctx.app == "keyword-match") return std::make_unique<MatchPoint>(ctx, emit);
  throw UsageError("atomics: no app " + ctx.app);
}

}  // namespace harness::atomics
