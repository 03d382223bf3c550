// The shapes of workload answers (workload.h's Output), shared by the apps:
// named counts (wc, Opinion Finder), a table keyed by bytes (DNA, Netflix,
// MasterCard, Patent Citation, Geo Location, Grep), raw bytes (Upper).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frameworks/workloads/workload.h"

namespace harness::workloads {

// Named integers in a fixed order. Dump: `name<TAB>value` lines. Exact.
class CountsOutput final : public Output {
 public:
  CountsOutput() = default;
  explicit CountsOutput(std::vector<std::pair<std::string, std::int64_t>> counts)
      : counts_(std::move(counts)) {}
  void set(const std::string& name, std::int64_t value);
  std::int64_t get(const std::string& name) const;  // std::out_of_range when absent
  const std::vector<std::pair<std::string, std::int64_t>>& counts() const { return counts_; }

  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return counts_.size(); }

 private:
  std::vector<std::pair<std::string, std::int64_t>> counts_;
};

// Rows keyed by bytes, each with `int_columns` integers, `real_columns`
// doubles and, when `has_list`, a list of integers (the ids grouped under a
// key: MAP_GROUP's values). Rows may be added in any order (cheap appends
// into arenas); finish() sorts them by key bytes (unsigned) and each list
// ascending, and refuses a repeated key. Dump: one line per row,
// `key<TAB>int...<TAB>real...<TAB>id,id,...` (reals printed with 17
// significant digits); keys must hold no tab or newline. Compare: the same
// keys, integers and lists exactly; reals within the policy's tolerance
// ("tolerance"), else exactly.
class TableOutput final : public Output {
 public:
  TableOutput(unsigned int_columns, unsigned real_columns, bool has_list);

  void reserve(std::size_t rows, std::size_t key_bytes);
  void add(std::string_view key, std::span<const std::int64_t> ints,
           std::span<const double> reals = {}, std::span<const std::int64_t> list = {});

  // Moves `other`'s rows (a table of the same columns, built on another
  // thread, say) to the end of this one: its arenas appended, no row copied
  // one by one. std::logic_error when the columns differ.
  void append(TableOutput&& other);
  // The rows of `parts` (tables of the same columns) in one table, in
  // order, copied on every core at once (append copies on one thread);
  // std::logic_error when the columns differ. The parts are left empty.
  static TableOutput concatenate(std::vector<TableOutput>&& parts);

  std::size_t rows() const { return key_end_.size(); }
  std::string_view key(std::size_t row) const;
  std::span<const std::int64_t> ints(std::size_t row) const;
  std::span<const double> reals(std::size_t row) const;
  std::span<const std::int64_t> list(std::size_t row) const;
  // The row of `key`, or rows() when absent (after finish()).
  std::size_t find(std::string_view key) const;

  void finish() override;
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return rows(); }

 private:
  unsigned int_columns_, real_columns_;
  // Keys strictly ascending and every list ascending: finish() has nothing to do.
  bool in_canonical_order() const;

  bool has_list_;
  bool finished_ = false;
  std::string keys_;
  std::vector<std::uint64_t> key_end_;
  std::vector<std::int64_t> ints_;
  std::vector<double> reals_;
  std::vector<std::int64_t> lists_;
  std::vector<std::uint64_t> list_end_;
};

// Bytes (Upper's transformed text), allocated without being cleared so the
// threads that fill it touch it first. Dump: the bytes as they are. Compare:
// equal bytes; names the first differing offset.
class BytesOutput final : public Output {
 public:
  explicit BytesOutput(std::size_t size)
      : bytes_(new std::uint8_t[size]), view_(bytes_.get()), size_(size) {}  // uninitialized
  // A view of bytes someone else owns (a run's in-place result).
  BytesOutput(const std::uint8_t* view, std::size_t size) : view_(view), size_(size) {}
  // Only for an owning output.
  std::uint8_t* data() { return bytes_.get(); }
  const std::uint8_t* data() const { return view_; }
  std::size_t size() const { return size_; }

  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return size_; }

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  const std::uint8_t* view_;
  std::size_t size_;
};

// Ascending offsets (Grep's matching lines). Dump: one offset per line.
// Compare: the same offsets; names the first missing and unexpected ones.
class OffsetsOutput final : public Output {
 public:
  std::vector<std::uint64_t>& offsets() { return offsets_; }
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }

  void finish() override;  // sorts
  std::string compare_with(const Output& expected, const ValidationPolicy& policy) const override;
  void dump(std::ostream& out) const override;
  std::uint64_t items() const override { return offsets_.size(); }

 private:
  std::vector<std::uint64_t> offsets_;
};

// Casts `expected` to T or throws std::logic_error naming both types (a
// family compared outputs of two workloads).
template <typename T>
const T& expect_same_type(const Output& expected, const char* what) {
  const T* e = dynamic_cast<const T*>(&expected);
  if (!e) throw std::logic_error(std::string(what) + ": compared with an output of another type");
  return *e;
}

}  // namespace harness::workloads
