#include "frameworks/mapreduce/mars/strlib/strlib.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <ostream>
#include <tuple>

#include "datasets/strops.h"
#include "frameworks/blocks/cuda_programs.h"
#include "frameworks/mapreduce/common/mapreduce_runtime.h"
#include "frameworks/mapreduce/cpu/cpu_runtime.h"
#include "harness/core/errors.h"
#include "harness/core/registry.h"
#include "harness/core/stopwatch.h"
#include "harness/core/validation.h"

namespace harness::mars::strlib {
namespace {

constexpr std::uint64_t kMaxPool = 0xffffffffULL;  // 32-bit offsets

std::size_t padded_size(std::size_t used) { return (used + 8 + 3) / 4 * 4; }

std::uint32_t u32_of(std::size_t v, const char* what) {
  if (v >= kMaxPool)
    throw RunError(
        fmt::format("marsstr: the {} pool reaches {} bytes; offsets are 32-bit", what, v));
  return static_cast<std::uint32_t>(v);
}

// Appends operations to a set, keeping the pool's layout in one place.
class Builder {
 public:
  explicit Builder(std::size_t expected) {
    set_.a_off.reserve(expected);
    set_.a_len.reserve(expected);
    set_.b_off.reserve(expected);
    set_.b_len.reserve(expected);
    set_.n_off.reserve(expected);
    set_.n_len.reserve(expected);
    set_.ch.reserve(expected);
    set_.pool.reserve(expected * 40);
  }
  void add(std::string_view a, std::string_view b, std::string_view needle, std::uint8_t c) {
    put(a, set_.a_off, set_.a_len);
    put(b, set_.b_off, set_.b_len);
    put(needle, set_.n_off, set_.n_len);
    set_.ch.push_back(c);
  }
  OpSet finish() {
    u32_of(padded_size(set_.pool.size()), "string");
    set_.pool.resize(padded_size(set_.pool.size()), 0);
    return std::move(set_);
  }

 private:
  void put(std::string_view s, std::vector<std::uint32_t>& off, std::vector<std::uint32_t>& len) {
    off.push_back(u32_of(set_.pool.size(), "string"));
    len.push_back(static_cast<std::uint32_t>(s.size()));
    set_.pool.insert(set_.pool.end(), s.begin(), s.end());
    set_.pool.push_back(0);
  }
  OpSet set_;
};

std::string_view field(const std::uint8_t* f, std::size_t width) {
  const char* s = reinterpret_cast<const char*>(f);
  return {s, ::strnlen(s, width - 1)};
}

std::string quoted(std::string_view s) { return "\"" + escape_bytes(std::string(s), 40) + "\""; }
std::string quoted_char(std::uint8_t c) {
  return "'" + escape_bytes(std::string(1, static_cast<char>(c)), 8) + "'";
}

std::string describe(Op op, const OpSet& set, std::size_t i) {
  switch (op) {
    case Op::strcpy_op:
      return fmt::format("strcpy(dst, {})", quoted(set.a(i)));
    case Op::strcat_op:
      return fmt::format("strcat({}, {})", quoted(set.a(i)), quoted(set.b(i)));
    case Op::memset_op:
      return fmt::format("memset(dst, {}, {})", quoted_char(set.ch[i]), set.a_len[i]);
    case Op::strcmp_op:
      return fmt::format("strcmp({}, {})", quoted(set.a(i)), quoted(set.b(i)));
    case Op::strchr_op:
      return fmt::format("strchr({}, {})", quoted(set.a(i)), quoted_char(set.ch[i]));
    case Op::strstr_op:
      return fmt::format("strstr({}, {})", quoted(set.a(i)), quoted(set.needle(i)));
  }
  return "?";
}

std::int32_t sign(int v) { return (v > 0) - (v < 0); }

}  // namespace

// ------------------------------------------------------------------ ops
const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = {Op::strcpy_op, Op::strcat_op, Op::memset_op,
                                      Op::strcmp_op, Op::strchr_op, Op::strstr_op};
  return ops;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::strcpy_op:
      return "strcpy";
    case Op::strcat_op:
      return "strcat";
    case Op::memset_op:
      return "memset";
    case Op::strcmp_op:
      return "strcmp";
    case Op::strchr_op:
      return "strchr";
    case Op::strstr_op:
      return "strstr";
  }
  return "?";
}

Op parse_op(const std::string& name) {
  for (Op op : all_ops()) {
    if (name == op_name(op)) return op;
  }
  throw UsageError(fmt::format(
      "marsstr: unknown operation '{}' (known: strcpy, strcat, memset, strcmp, strchr, strstr)",
      name));
}

bool writes_bytes(Op op) {
  return op == Op::strcpy_op || op == Op::strcat_op || op == Op::memset_op;
}

// ------------------------------------------------------------------ sets
std::string_view OpSet::a(std::size_t i) const {
  return {reinterpret_cast<const char*>(pool.data()) + a_off[i], a_len[i]};
}
std::string_view OpSet::b(std::size_t i) const {
  return {reinterpret_cast<const char*>(pool.data()) + b_off[i], b_len[i]};
}
std::string_view OpSet::needle(std::size_t i) const {
  return {reinterpret_cast<const char*>(pool.data()) + n_off[i], n_len[i]};
}

OpSet make_opset(std::span<const StrOp> ops) {
  Builder b(ops.size());
  for (const StrOp& op : ops) {
    for (const std::string* s : {&op.a, &op.b, &op.needle}) {
      if (s->find('\0') != std::string::npos)
        throw UsageError("marsstr: a string of an operation holds a NUL byte");
    }
    b.add(op.a, op.b, op.needle, op.c);
  }
  return b.finish();
}

OpSet parse_strops(const std::uint8_t* data, std::size_t bytes) {
  using namespace harness::datasets;
  const std::size_t n = bytes / kStropsRecordBytes;  // a partial last record is ignored
  Builder b(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* r = data + i * kStropsRecordBytes;
    b.add(field(r, kStropsStringField), field(r + kStropsStringField, kStropsStringField),
          field(r + kStropsNeedleOffset, kStropsNeedleField), r[kStropsCharOffset]);
  }
  return b.finish();
}

DstLayout dst_layout(Op op, const OpSet& set) {
  DstLayout l;
  if (!writes_bytes(op)) return l;
  l.off.reserve(set.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    l.off.push_back(u32_of(at, "destination"));
    at += set.a_len[i];
    if (op == Op::strcat_op) at += set.b_len[i];
    if (op != Op::memset_op) at += 1;
  }
  l.used = at;
  l.padded = padded_size(at);
  u32_of(l.padded, "destination");
  return l;
}

std::vector<std::uint8_t> initial_dst(Op op, const OpSet& set, const DstLayout& layout) {
  std::vector<std::uint8_t> dst(layout.padded, kPoisonByte);
  if (op == Op::strcat_op) {
    for (std::size_t i = 0; i < set.size(); ++i) {
      const std::string_view a = set.a(i);
      std::memcpy(dst.data() + layout.off[i], a.data(), a.size());
      dst[layout.off[i] + a.size()] = 0;
    }
  }
  return dst;
}

// ------------------------------------------------------------------ answers
Output reference(Op op, const OpSet& set, const DstLayout& layout) {
  Output out;
  const std::size_t n = set.size();
  if (writes_bytes(op)) {
    out.bytes.resize(layout.used);
    for (std::size_t i = 0; i < n; ++i) {
      std::string s;
      if (op == Op::memset_op) {
        s.assign(set.a_len[i], static_cast<char>(set.ch[i]));
      } else {
        s = std::string(set.a(i)) + (op == Op::strcat_op ? std::string(set.b(i)) : std::string());
        s.push_back('\0');
      }
      std::memcpy(out.bytes.data() + layout.off[i], s.data(), s.size());
    }
    return out;
  }
  out.values.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view a = set.a(i);
    std::size_t at = std::string_view::npos;
    switch (op) {
      case Op::strcmp_op:
        // char_traits<char> compares as unsigned char, as strcmp does.
        out.values[i] = sign(a.compare(set.b(i)));
        continue;
      case Op::strchr_op:
        at = set.ch[i] == 0 ? a.size() : a.find(static_cast<char>(set.ch[i]));
        break;
      default:
        at = a.find(set.needle(i));
        break;
    }
    out.values[i] = at == std::string_view::npos ? -1 : static_cast<std::int32_t>(at);
  }
  return out;
}

void run_libc(Op op, const OpSet& set, const DstLayout& layout, std::uint8_t* dst,
              std::int32_t* values, unsigned threads) {
  const std::size_t n = set.size();
  const char* pool = reinterpret_cast<const char*>(set.pool.data());
  char* d = reinterpret_cast<char*>(dst);
  const std::uint32_t* a_off = set.a_off.data();
  const std::uint32_t* b_off = set.b_off.data();
  const std::uint32_t* n_off = set.n_off.data();
  const std::uint8_t* ch = set.ch.data();
  const std::uint32_t* d_off = layout.off.data();
  const std::uint32_t* a_len = set.a_len.data();
  cpu::parallel_for(threads, [&](unsigned w) {
    const std::size_t begin = n * w / threads, end = n * (w + 1) / threads;
    switch (op) {
      case Op::strcpy_op:
        for (std::size_t i = begin; i < end; ++i) std::strcpy(d + d_off[i], pool + a_off[i]);
        break;
      case Op::strcat_op:
        for (std::size_t i = begin; i < end; ++i) std::strcat(d + d_off[i], pool + b_off[i]);
        break;
      case Op::memset_op:
        for (std::size_t i = begin; i < end; ++i) std::memset(d + d_off[i], ch[i], a_len[i]);
        break;
      case Op::strcmp_op:
        for (std::size_t i = begin; i < end; ++i)
          values[i] = sign(std::strcmp(pool + a_off[i], pool + b_off[i]));
        break;
      case Op::strchr_op:
        for (std::size_t i = begin; i < end; ++i) {
          const char* s = pool + a_off[i];
          const char* p = std::strchr(s, ch[i]);
          values[i] = p ? static_cast<std::int32_t>(p - s) : -1;
        }
        break;
      case Op::strstr_op:
        for (std::size_t i = begin; i < end; ++i) {
          const char* s = pool + a_off[i];
          const char* p = std::strstr(s, pool + n_off[i]);
          values[i] = p ? static_cast<std::int32_t>(p - s) : -1;
        }
        break;
    }
  });
}

std::string compare_outputs(Op op, const OpSet& set, const DstLayout& layout,
                            const Output& expected, const Output& got) {
  const std::size_t n = set.size();
  std::size_t wrong = 0;
  std::string first;
  auto note = [&](std::size_t i, const std::string& want, const std::string& have) {
    if (++wrong > 3) return;
    first += fmt::format("{}op {} {}: expected {} got {}", first.empty() ? "" : "; ", i,
                         describe(op, set, i), want, have);
  };
  if (writes_bytes(op)) {
    if (got.bytes.size() < expected.bytes.size())
      return fmt::format("{} destination bytes, expected {}", got.bytes.size(),
                         expected.bytes.size());
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t begin = layout.off[i];
      const std::size_t end = i + 1 < n ? layout.off[i + 1] : layout.used;
      if (std::memcmp(expected.bytes.data() + begin, got.bytes.data() + begin, end - begin) == 0)
        continue;
      auto text = [&](const std::vector<std::uint8_t>& v) {
        return quoted(
            std::string_view(reinterpret_cast<const char*>(v.data()) + begin, end - begin));
      };
      note(i, text(expected.bytes), text(got.bytes));
    }
  } else {
    if (got.values.size() != expected.values.size())
      return fmt::format("{} results, expected {}", got.values.size(), expected.values.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (expected.values[i] != got.values[i])
        note(i, std::to_string(expected.values[i]), std::to_string(got.values[i]));
    }
  }
  if (wrong == 0) return "";
  return fmt::format("{} of {} {} operations wrong: {}{}", wrong, n, op_name(op), first,
                     wrong > 3 ? "; ..." : "");
}

Traffic op_traffic(Op op, const OpSet& set, const Output& expected) {
  Traffic t;
  const std::size_t n = set.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t la = set.a_len[i], lb = set.b_len[i], ln = set.n_len[i];
    switch (op) {
      case Op::strcpy_op:
        t.read += 8 + la + 1;
        t.written += la + 1;
        break;
      case Op::strcat_op:
        t.read += 8 + la + 1 + lb + 1;
        t.written += lb + 1;
        break;
      case Op::memset_op:
        t.read += 9;
        t.written += la;
        break;
      case Op::strcmp_op: {
        const std::string_view a = set.a(i), b = set.b(i);
        const auto m = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
        t.read += 8 + 2 * (static_cast<std::uint64_t>(m.first - a.begin()) + 1);
        t.written += 4;
        break;
      }
      case Op::strchr_op: {
        const std::int32_t at = expected.values[i];
        t.read += 5 + (at < 0 ? la + 1 : static_cast<std::uint64_t>(at) + 1);
        t.written += 4;
        break;
      }
      case Op::strstr_op: {
        const std::int32_t at = expected.values[i];
        t.read += 8 + ln + 1 + (at < 0 ? la + 1 : static_cast<std::uint64_t>(at) + ln);
        t.written += 4;
        break;
      }
    }
  }
  return t;
}

// ------------------------------------------------------------------ GPU
GpuStrlib::GpuStrlib(backend::Device& device, Op op, bool char4, const OpSet& set,
                     const DstLayout& layout, std::uint32_t group_size)
    : device_(device), op_(op), set_(set), layout_(layout), group_size_(group_size) {
  backend::ProgramSource src;
  src.name = "mars/strlib";
  src.opencl_files = {"frameworks/mapreduce/mars/strlib/kernels/strlib.clh",
                      "frameworks/mapreduce/mars/strlib/kernels/strlib_kernels.cl"};
  src.cuda = cuda_program(src.name);
  program_ = device_.build(src);
  kernel_ = program_->kernel(fmt::format("str_{}_{}", op_name(op), char4 ? "char4" : "char"));

  const std::size_t n = set.size();
  auto u32s = [](const std::vector<std::uint32_t>& v) { return v.size() * 4; };
  switch (op) {
    case Op::strcpy_op:
    case Op::strcat_op:
      pool_ = alloc(set.pool.size());
      off1_ = alloc(u32s(op == Op::strcpy_op ? set.a_off : set.b_off));
      off2_ = alloc(u32s(layout.off));
      dst_ = alloc(layout.padded);
      uploads_ = {{&pool_, set.pool.data(), set.pool.size()},
                  {&off1_, (op == Op::strcpy_op ? set.a_off : set.b_off).data(), n * 4},
                  {&off2_, layout.off.data(), n * 4}};
      if (op == Op::strcat_op) {
        initial_ = initial_dst(op, set, layout);
        uploads_.push_back({&dst_, initial_.data(), initial_.size()});
      }
      break;
    case Op::memset_op:
      off1_ = alloc(u32s(layout.off));
      off2_ = alloc(u32s(set.a_len));
      aux_ = alloc(n);
      dst_ = alloc(layout.padded);
      uploads_ = {{&off1_, layout.off.data(), n * 4},
                  {&off2_, set.a_len.data(), n * 4},
                  {&aux_, set.ch.data(), n}};
      break;
    case Op::strcmp_op:
    case Op::strstr_op:
      pool_ = alloc(set.pool.size());
      off1_ = alloc(n * 4);
      off2_ = alloc(n * 4);
      out_ = alloc(n * 4);
      uploads_ = {{&pool_, set.pool.data(), set.pool.size()},
                  {&off1_, set.a_off.data(), n * 4},
                  {&off2_, (op == Op::strcmp_op ? set.b_off : set.n_off).data(), n * 4}};
      break;
    case Op::strchr_op:
      pool_ = alloc(set.pool.size());
      off1_ = alloc(n * 4);
      aux_ = alloc(n);
      out_ = alloc(n * 4);
      uploads_ = {{&pool_, set.pool.data(), set.pool.size()},
                  {&off1_, set.a_off.data(), n * 4},
                  {&aux_, set.ch.data(), n}};
      break;
  }
  for (const Upload& u : uploads_) copied_in_ += u.bytes;
  copied_out_ = writes_bytes(op) ? layout.used : n * 4;
}

backend::Buffer GpuStrlib::alloc(std::size_t bytes) {
  return device_.allocate(std::max<std::size_t>(bytes, 4));
}

void GpuStrlib::reset() {
  auto& q = device_.queue();
  if (writes_bytes(op_)) {
    const std::vector<std::uint8_t> poison(layout_.padded, kPoisonByte);
    q.write(dst_, 0, poison.data(), poison.size());
  } else {
    const std::vector<std::int32_t> poison(set_.size(), kPoisonValue);
    q.write(out_, 0, poison.data(), poison.size() * 4);
  }
  q.finish();
  q.take_spans();
}

void GpuStrlib::run(Output& out) {
  auto& q = device_.queue();
  const auto n = static_cast<std::uint32_t>(set_.size());
  q.begin_span("copy_in");
  for (const Upload& u : uploads_) {
    if (u.bytes > 0) q.write(*u.buffer, 0, u.data, u.bytes);
  }
  q.end_span();
  q.begin_span("ops");
  if (n > 0) {
    const auto shape = backend::LaunchShape::cover(n, group_size_);
    switch (op_) {
      case Op::strcpy_op:
      case Op::strcat_op:
        q.launch(kernel_, shape, n, pool_, off1_, dst_, off2_);
        break;
      case Op::memset_op:
        q.launch(kernel_, shape, n, dst_, off1_, off2_, aux_);
        break;
      case Op::strcmp_op:
      case Op::strstr_op:
        q.launch(kernel_, shape, n, pool_, off1_, off2_, out_);
        break;
      case Op::strchr_op:
        q.launch(kernel_, shape, n, pool_, off1_, aux_, out_);
        break;
    }
  }
  q.end_span();
  q.begin_span("copy_out");
  if (writes_bytes(op_)) {
    out.bytes.resize(layout_.used);
    if (layout_.used > 0) q.read(out.bytes.data(), dst_, 0, layout_.used);
  } else {
    out.values.resize(n);
    if (n > 0) q.read(out.values.data(), out_, 0, std::size_t{n} * 4);
  }
  q.end_span();
  q.finish();
}

// ------------------------------------------------------------------ family
namespace {

// Parsed sets and references are computed once per input (keyed on its
// checksum: a freed buffer's address can come back holding another dataset)
// and shared by every variant measured on it.
struct Prepared {
  std::shared_ptr<const OpSet> set;
  std::shared_ptr<const DstLayout> layout;
  std::shared_ptr<const Output> expected;
  Traffic traffic;
  std::uint64_t found = 0;  // strcmp: equal pairs; strchr/strstr: matches
};

std::string input_id(const PointContext& ctx) {
  return ctx.input_checksum.empty()
             ? "address:" + std::to_string(reinterpret_cast<std::uintptr_t>(ctx.input))
             : ctx.input_checksum;
}

Prepared prepare_point(const PointContext& ctx, Op op) {
  static std::mutex mutex;
  static std::pair<std::tuple<std::string, std::size_t>, std::shared_ptr<const OpSet>> set_cache;
  static std::map<std::tuple<std::string, std::size_t, Op>, Prepared> cache;
  std::lock_guard lock(mutex);
  const auto set_key = std::make_tuple(input_id(ctx), ctx.input_size);
  if (!set_cache.second || set_cache.first != set_key) {
    set_cache = {set_key, std::make_shared<const OpSet>(parse_strops(ctx.input, ctx.input_size))};
    cache.clear();
  }
  const auto key = std::make_tuple(input_id(ctx), ctx.input_size, op);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Prepared p;
    p.set = set_cache.second;
    p.layout = std::make_shared<const DstLayout>(dst_layout(op, *p.set));
    p.expected = std::make_shared<const Output>(reference(op, *p.set, *p.layout));
    p.traffic = op_traffic(op, *p.set, *p.expected);
    for (std::int32_t v : p.expected->values) p.found += op == Op::strcmp_op ? v == 0 : v >= 0;
    it = cache.emplace(key, std::move(p)).first;
  }
  return it->second;
}

// What every variant shares: the prepared set, validation, counters, dump.
class StrPoint : public PointRunner {
 public:
  StrPoint(const PointContext& ctx) : ctx_(ctx), op_(parse_op(ctx.app)) {}

  void prepare() override { p_ = prepare_point(ctx_, op_); }
  std::string validate_last() override {
    return compare_outputs(op_, *p_.set, *p_.layout, *p_.expected, out_);
  }
  void dump_output(std::ostream& out) const override {
    const OpSet& set = *p_.set;
    for (std::size_t i = 0; i < set.size(); ++i) {
      out << i << '\t';
      if (writes_bytes(op_)) {
        const std::size_t begin = p_.layout->off[i];
        const std::size_t end = i + 1 < set.size() ? p_.layout->off[i + 1] : p_.layout->used;
        std::string s(reinterpret_cast<const char*>(out_.bytes.data()) + begin, end - begin);
        if (!s.empty() && s.back() == '\0' && op_ != Op::memset_op) s.pop_back();
        out << escape_bytes(s, s.size() * 4 + 1);
      } else {
        out << out_.values[i];
      }
      out << '\n';
    }
  }

 protected:
  void add_counters(Measurement& m) const {
    m.counters["ops"] = static_cast<double>(p_.set->size());
    if (op_ == Op::strcmp_op) m.counters["equal"] = static_cast<double>(p_.found);
    if (op_ == Op::strchr_op || op_ == Op::strstr_op)
      m.counters["found"] = static_cast<double>(p_.found);
  }
  Work base_work(const std::string& level_name) const {
    Work w;
    w.input_bytes = p_.traffic.read;
    w.items("ops", p_.set->size(), "ops")
        .reads(level_name, p_.traffic.read, "ops")
        .writes(level_name, p_.traffic.written, "ops");
    return w;
  }

  PointContext ctx_;
  Op op_;
  Prepared p_;
  Output out_;
};

// marsstr/gpu-char, marsstr/gpu-char4.
class GpuPoint final : public StrPoint {
 public:
  GpuPoint(const PointContext& ctx, bool char4)
      : StrPoint(ctx),
        device_(*ctx.device),
        char4_(char4),
        group_size_(param_u32(ctx.params, "group_size")) {
    if (group_size_ == 0 ||
        group_size_ > static_cast<std::uint32_t>(device_.info().max_work_group_size))
      throw UsageError(fmt::format("marsstr: group_size must be 1..{} on {}",
                                   device_.info().max_work_group_size, device_.info().name));
  }
  void prepare() override {
    StrPoint::prepare();
    gpu_ = std::make_unique<GpuStrlib>(device_, op_, char4_, *p_.set, *p_.layout, group_size_);
  }
  void before_repetition() override {
    std::fill(out_.bytes.begin(), out_.bytes.end(), kPoisonByte);
    std::fill(out_.values.begin(), out_.values.end(), kPoisonValue);
    gpu_->reset();
  }
  Measurement run_once() override {
    Measurement m;
    Stopwatch total;
    gpu_->run(out_);
    m.total_ms = total.elapsed_ms();
    for (auto& s : device_.queue().take_spans()) m.phases.push_back({s.name, s.milliseconds});
    add_counters(m);
    return m;
  }
  Work work() const override {
    Work w = base_work(level::dram);
    w.reads(level::h2d, gpu_->copied_in(), "copy_in", "h2d_pageable")  // from std::vectors
        .writes(level::d2h, gpu_->copied_out(), "copy_out", "d2h_pageable");
    return w;
  }

 private:
  backend::Device& device_;
  bool char4_;
  std::uint32_t group_size_;
  std::unique_ptr<GpuStrlib> gpu_;
};

// marsstr/cpu-libc.
class CpuPoint final : public StrPoint {
 public:
  CpuPoint(const PointContext& ctx)
      : StrPoint(ctx), threads_(cpu::resolve_threads(param_u32(ctx.params, "threads"))) {}
  void prepare() override {
    StrPoint::prepare();
    initial_ = initial_dst(op_, *p_.set, *p_.layout);
  }
  // Untimed: the destination back to its initial state (strcat's A strings),
  // the values poisoned.
  void before_repetition() override {
    if (writes_bytes(op_)) {
      out_.bytes = initial_;
    } else {
      out_.values.assign(p_.set->size(), kPoisonValue);
    }
  }
  Measurement run_once() override {
    Measurement m;
    Stopwatch total;
    run_libc(op_, *p_.set, *p_.layout, out_.bytes.data(), out_.values.data(), threads_);
    m.total_ms = total.elapsed_ms();
    m.phases.push_back({"ops", m.total_ms});
    add_counters(m);
    m.counters["threads"] = threads_;
    return m;
  }
  Work work() const override { return base_work(level::host); }

 private:
  unsigned threads_;
  std::vector<std::uint8_t> initial_;
};

}  // namespace

void register_family() {
  const std::map<Op, std::string> what = {
      {Op::strcpy_op, "strcpy(dst, A) per operation: copy a string with its NUL"},
      {Op::strcat_op, "strcat(A, B) per operation: find A's end, append B"},
      {Op::memset_op, "memset(dst, c, |A|) per operation"},
      {Op::strcmp_op, "sign of strcmp(A, B) per operation"},
      {Op::strchr_op, "strchr(A, c) per operation: index of the first c, or -1"},
      {Op::strstr_op, "strstr(A, needle) per operation: index of the first match, or -1"},
  };
  std::vector<std::string> apps;
  for (Op op : all_ops()) {
    AppInfo app;
    app.name = op_name(op);
    app.kind = "string";
    app.description = what.at(op) + " (Mars string library, exact)";
    app.default_dataset = "strops";
    app.validation = {"exact", 0, 0};
    Registry::instance().add_app(std::move(app));
    apps.push_back(op_name(op));
  }
  for (bool char4 : {false, true}) {
    VariantInfo v;
    v.framework = "marsstr";
    v.name = char4 ? "gpu-char4" : "gpu-char";
    v.description = char4 ? "GPU string library, 4-byte (char4) accesses: the paper's opt"
                          : "GPU string library, byte (char) accesses: the paper's non-opt";
    v.backends = {backend::Kind::opencl, backend::Kind::cuda};
    v.params = {unsigned_param("group_size", 256, 1, 1024, "work-items per work-group")};
    v.apps = apps;
    v.make = [char4](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
      if (!ctx.device) throw UsageError("marsstr/gpu-* needs a GPU backend (opencl or cuda)");
      return std::make_unique<GpuPoint>(ctx, char4);
    };
    Registry::instance().add_variant(std::move(v));
  }
  VariantInfo host;
  host.framework = "marsstr";
  host.name = "cpu-libc";
  host.description = "the C library's functions on every host core (contiguous shares)";
  host.backends = {backend::Kind::cpu};
  host.params = {unsigned_param("threads", 0, 0, 4096, "host threads; 0: one per core")};
  host.apps = apps;
  host.make = [](const PointContext& ctx) -> std::unique_ptr<PointRunner> {
    return std::make_unique<CpuPoint>(ctx);
  };
  Registry::instance().add_variant(std::move(host));
}

}  // namespace harness::mars::strlib
