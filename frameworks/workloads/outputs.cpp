#include "frameworks/workloads/outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <ostream>
#include <stdexcept>

#include "harness/core/key_prefix.h"
#include "harness/core/parallel.h"
#include "harness/core/parallel_sort.h"

namespace harness::workloads {

// ---------------------------------------------------------------- counts
void CountsOutput::set(const std::string& name, std::int64_t value) {
  for (auto& [n, v] : counts_) {
    if (n == name) {
      v = value;
      return;
    }
  }
  counts_.emplace_back(name, value);
}

std::int64_t CountsOutput::get(const std::string& name) const {
  for (const auto& [n, v] : counts_) {
    if (n == name) return v;
  }
  throw std::out_of_range("no count named " + name);
}

std::string CountsOutput::compare_with(const Output& expected, const ValidationPolicy&) const {
  const auto& e = expect_same_type<CountsOutput>(expected, "counts");
  std::string why;
  for (const auto& [name, value] : e.counts_) {
    std::int64_t got = 0;
    bool found = false;
    for (const auto& [n, v] : counts_) {
      if (n == name) {
        got = v;
        found = true;
      }
    }
    if (!found) {
      why += fmt::format("{}{}: missing (expected {})", why.empty() ? "" : "; ", name, value);
    } else if (got != value) {
      why += fmt::format("{}{}: {} (expected {})", why.empty() ? "" : "; ", name, got, value);
    }
  }
  if (why.empty() && counts_.size() != e.counts_.size())
    why = fmt::format("{} counts (expected {})", counts_.size(), e.counts_.size());
  return why;
}

void CountsOutput::dump(std::ostream& out) const {
  for (const auto& [name, value] : counts_) out << name << '\t' << value << '\n';
}

// ---------------------------------------------------------------- table
TableOutput::TableOutput(unsigned int_columns, unsigned real_columns, bool has_list)
    : int_columns_(int_columns), real_columns_(real_columns), has_list_(has_list) {}

void TableOutput::reserve(std::size_t rows, std::size_t key_bytes) {
  keys_.reserve(key_bytes);
  key_end_.reserve(rows);
  ints_.reserve(rows * int_columns_);
  reals_.reserve(rows * real_columns_);
  if (has_list_) list_end_.reserve(rows);
}

void TableOutput::add(std::string_view key, std::span<const std::int64_t> ints,
                      std::span<const double> reals, std::span<const std::int64_t> list) {
  if (ints.size() != int_columns_ || reals.size() != real_columns_ || (!has_list_ && !list.empty()))
    throw std::logic_error(
        fmt::format("table row with {} integers, {} reals, a list of {} (the table has {}, {}, {})",
                    ints.size(), reals.size(), list.size(), int_columns_, real_columns_,
                    has_list_ ? "lists" : "no list"));
  keys_.append(key);
  key_end_.push_back(keys_.size());
  ints_.insert(ints_.end(), ints.begin(), ints.end());
  reals_.insert(reals_.end(), reals.begin(), reals.end());
  if (has_list_) {
    lists_.insert(lists_.end(), list.begin(), list.end());
    list_end_.push_back(lists_.size());
  }
  finished_ = false;
}

void TableOutput::append(TableOutput&& other) {
  if (other.int_columns_ != int_columns_ || other.real_columns_ != real_columns_ ||
      other.has_list_ != has_list_)
    throw std::logic_error("table append: the tables have different columns");
  if (rows() == 0) {
    *this = std::move(other);
    finished_ = false;
    return;
  }
  const std::uint64_t key_base = keys_.size(), list_base = lists_.size();
  keys_.append(other.keys_);
  for (std::uint64_t end : other.key_end_) key_end_.push_back(key_base + end);
  ints_.insert(ints_.end(), other.ints_.begin(), other.ints_.end());
  reals_.insert(reals_.end(), other.reals_.begin(), other.reals_.end());
  lists_.insert(lists_.end(), other.lists_.begin(), other.lists_.end());
  for (std::uint64_t end : other.list_end_) list_end_.push_back(list_base + end);
  other = TableOutput(int_columns_, real_columns_, has_list_);
  finished_ = false;
}

TableOutput TableOutput::concatenate(std::vector<TableOutput>&& parts) {
  if (parts.empty()) throw std::logic_error("table concatenate: no tables");
  TableOutput whole(parts[0].int_columns_, parts[0].real_columns_, parts[0].has_list_);
  if (parts.size() == 1) return std::move(parts[0]);
  // Each part's place in the arrays of the whole.
  struct Base {
    std::uint64_t keys = 0, rows = 0, ints = 0, reals = 0, lists = 0;
  };
  std::vector<Base> base(parts.size() + 1);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const TableOutput& t = parts[i];
    if (t.int_columns_ != whole.int_columns_ || t.real_columns_ != whole.real_columns_ ||
        t.has_list_ != whole.has_list_)
      throw std::logic_error("table concatenate: the tables have different columns");
    base[i + 1] = {base[i].keys + t.keys_.size(), base[i].rows + t.key_end_.size(),
                   base[i].ints + t.ints_.size(), base[i].reals + t.reals_.size(),
                   base[i].lists + t.lists_.size()};
  }
  const Base& end = base.back();
  whole.keys_.resize(end.keys);
  whole.key_end_.resize(end.rows);
  whole.ints_.resize(end.ints);
  whole.reals_.resize(end.reals);
  whole.lists_.resize(end.lists);
  if (whole.has_list_) whole.list_end_.resize(end.rows);
  parallel_for(static_cast<unsigned>(parts.size()), [&](unsigned i) {
    TableOutput& t = parts[i];
    const Base& b = base[i];
    std::copy(t.keys_.begin(), t.keys_.end(), whole.keys_.begin() + b.keys);
    std::transform(t.key_end_.begin(), t.key_end_.end(), whole.key_end_.begin() + b.rows,
                   [&b](std::uint64_t e) { return b.keys + e; });
    std::copy(t.ints_.begin(), t.ints_.end(), whole.ints_.begin() + b.ints);
    std::copy(t.reals_.begin(), t.reals_.end(), whole.reals_.begin() + b.reals);
    std::copy(t.lists_.begin(), t.lists_.end(), whole.lists_.begin() + b.lists);
    std::transform(t.list_end_.begin(), t.list_end_.end(), whole.list_end_.begin() + b.rows,
                   [&b](std::uint64_t e) { return b.lists + e; });
    t = TableOutput(whole.int_columns_, whole.real_columns_, whole.has_list_);
  });
  return whole;
}

std::string_view TableOutput::key(std::size_t row) const {
  const std::uint64_t begin = row == 0 ? 0 : key_end_[row - 1];
  return std::string_view(keys_).substr(begin, key_end_[row] - begin);
}

std::span<const std::int64_t> TableOutput::ints(std::size_t row) const {
  return {ints_.data() + row * int_columns_, int_columns_};
}

std::span<const double> TableOutput::reals(std::size_t row) const {
  return {reals_.data() + row * real_columns_, real_columns_};
}

std::span<const std::int64_t> TableOutput::list(std::size_t row) const {
  if (!has_list_) return {};
  const std::uint64_t begin = row == 0 ? 0 : list_end_[row - 1];
  return {lists_.data() + begin, list_end_[row] - begin};
}

std::size_t TableOutput::find(std::string_view k) const {
  std::size_t lo = 0, hi = rows();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (key(mid) < k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < rows() && key(lo) == k ? lo : rows();
}

bool TableOutput::in_canonical_order() const {
  for (std::size_t r = 1; r < rows(); ++r) {
    if (!(key(r - 1) < key(r))) return false;
  }
  for (std::size_t r = 0; has_list_ && r < rows(); ++r) {
    const auto l = list(r);
    if (!std::is_sorted(l.begin(), l.end())) return false;
  }
  return true;
}

void TableOutput::finish() {
  if (finished_) return;
  // Rows added in order (an output that sorts its own compact form first, as
  // dna-assembly's packed parts) need no sort: one pass says so.
  if (in_canonical_order()) {
    finished_ = true;
    return;
  }
  // Sorted by each key's 8-byte prefix (key_prefix.h) and, on a tie, the
  // whole key: the same unsigned byte order as comparing the keys, with most
  // comparisons made on integers in the array being sorted instead of on
  // bytes fetched from the key arena.
  struct Ranked {
    std::uint64_t prefix;
    std::size_t row;
  };
  std::vector<Ranked> ranked(rows());
  for (std::size_t r = 0; r < ranked.size(); ++r) ranked[r] = {key_prefix8(key(r)), r};
  parallel_sort(ranked, [&](const Ranked& a, const Ranked& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return key(a.row) < key(b.row);
  });
  std::vector<std::size_t> order(ranked.size());
  for (std::size_t i = 0; i < ranked.size(); ++i) order[i] = ranked[i].row;
  TableOutput sorted(int_columns_, real_columns_, has_list_);
  sorted.reserve(rows(), keys_.size());
  sorted.lists_.reserve(lists_.size());
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t r = order[i];
    if (i > 0 && key(r) == key(order[i - 1]))
      throw std::logic_error("table output holds the key '" + escape_bytes(std::string(key(r))) +
                             "' twice");
    const auto l = list(r);
    ids.assign(l.begin(), l.end());
    std::sort(ids.begin(), ids.end());
    sorted.add(key(r), ints(r), reals(r), ids);
  }
  *this = std::move(sorted);
  finished_ = true;
}

namespace {

std::string row_name(const TableOutput& t, std::size_t row) {
  return "'" + escape_bytes(std::string(t.key(row))) + "'";
}

template <typename T>
std::string join(std::span<const T> values, char sep) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += sep;
    s += fmt::format("{}", values[i]);
  }
  return s;
}

}  // namespace

std::string TableOutput::compare_with(const Output& expected,
                                      const ValidationPolicy& policy) const {
  const auto& e = expect_same_type<TableOutput>(expected, "table");
  if (!finished_ || !e.finished_) throw std::logic_error("table compared before finish()");
  const bool tolerant = policy.kind == "tolerance";
  std::size_t i = 0, j = 0;
  std::string why;
  int reported = 0;
  auto note = [&](const std::string& s) {
    if (reported < 3) why += (why.empty() ? "" : "; ") + s;
    ++reported;
  };
  while (i < rows() || j < e.rows()) {
    if (j == e.rows() || (i < rows() && key(i) < e.key(j))) {
      note("unexpected key " + row_name(*this, i++));
      continue;
    }
    if (i == rows() || e.key(j) < key(i)) {
      note("missing key " + row_name(e, j++));
      continue;
    }
    const auto a = ints(i), b = e.ints(j);
    if (!std::equal(a.begin(), a.end(), b.begin()))
      note(fmt::format("key {}: {} (expected {})", row_name(*this, i), join(a, ' '), join(b, ' ')));
    const auto x = reals(i), y = e.reals(j);
    for (std::size_t c = 0; c < x.size(); ++c) {
      const bool ok = tolerant ? within_tolerance(y[c], x[c], policy) : x[c] == y[c];
      if (!ok) {
        note(fmt::format("key {}: value {} is {:.17g} (expected {:.17g})", row_name(*this, i), c,
                         x[c], y[c]));
        break;
      }
    }
    const auto l = list(i), m = e.list(j);
    if (l.size() != m.size() || !std::equal(l.begin(), l.end(), m.begin()))
      note(fmt::format("key {}: a list of {} ids (expected {}{})", row_name(*this, i), l.size(),
                       m.size(), l.size() == m.size() ? ", other ids" : ""));
    ++i;
    ++j;
  }
  if (reported > 3) why += fmt::format(" (and {} more differences)", reported - 3);
  if (!why.empty()) why = fmt::format("{} rows (expected {}): {}", rows(), e.rows(), why);
  return why;
}

void TableOutput::dump(std::ostream& out) const {
  std::string line;
  for (std::size_t r = 0; r < rows(); ++r) {
    line.assign(key(r));
    for (std::int64_t v : ints(r)) fmt::format_to(std::back_inserter(line), "\t{}", v);
    for (double v : reals(r)) fmt::format_to(std::back_inserter(line), "\t{:.17g}", v);
    if (has_list_) line += '\t' + join(list(r), ',');
    line += '\n';
    out << line;
  }
}

// ---------------------------------------------------------------- bytes
std::string BytesOutput::compare_with(const Output& expected, const ValidationPolicy&) const {
  const auto& e = expect_same_type<BytesOutput>(expected, "bytes");
  const std::size_t n = std::min(size_, e.size_);
  const auto diff = std::mismatch(data(), data() + n, e.data());
  if (diff.first != data() + n) {
    const auto at = static_cast<std::size_t>(diff.first - data());
    return fmt::format("byte {} is 0x{:02x} (expected 0x{:02x})", at, *diff.first, *diff.second);
  }
  if (size_ != e.size_) return fmt::format("{} bytes (expected {})", size_, e.size_);
  return "";
}

void BytesOutput::dump(std::ostream& out) const {
  out.write(reinterpret_cast<const char*>(data()), static_cast<std::streamsize>(size_));
}

// ---------------------------------------------------------------- offsets
void OffsetsOutput::finish() { std::sort(offsets_.begin(), offsets_.end()); }

std::string OffsetsOutput::compare_with(const Output& expected, const ValidationPolicy&) const {
  const auto& e = expect_same_type<OffsetsOutput>(expected, "offsets");
  std::vector<std::uint64_t> missing, unexpected;
  std::set_difference(e.offsets_.begin(), e.offsets_.end(), offsets_.begin(), offsets_.end(),
                      std::back_inserter(missing));
  std::set_difference(offsets_.begin(), offsets_.end(), e.offsets_.begin(), e.offsets_.end(),
                      std::back_inserter(unexpected));
  if (missing.empty() && unexpected.empty()) {
    if (offsets_.size() == e.offsets_.size()) return "";
    return fmt::format("{} offsets (expected {}): an offset repeats", offsets_.size(),
                       e.offsets_.size());
  }
  auto first = [](const std::vector<std::uint64_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < 3; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + (v.size() > 3 ? ", ..." : "");
  };
  return fmt::format("{} offsets (expected {}); {} missing ({}), {} unexpected ({})",
                     offsets_.size(), e.offsets_.size(), missing.size(), first(missing),
                     unexpected.size(), first(unexpected));
}

void OffsetsOutput::dump(std::ostream& out) const {
  for (std::uint64_t o : offsets_) out << o << '\n';
}

}  // namespace harness::workloads
