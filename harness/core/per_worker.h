// One T per worker thread, each on cache lines of its own. Workers that
// update their own T in a hot loop (a vector's end pointer, a counter) would
// otherwise share lines with their neighbours' T, and every write would pull
// the line away from the neighbour's core (false sharing): on a 16-core H100
// host the SePo table's walk, appending to per-worker vectors that lay side by
// side, ran no faster on 4 threads than on 1, and 16 threads spent half its
// time there.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace harness {

// The size of a destructive-interference unit, spelled out: GCC warns that
// std::hardware_destructive_interference_size may differ between builds.
inline constexpr std::size_t kCacheLineBytes = 64;

template <class T>
class PerWorker {
 public:
  // `workers` values, each constructed from `args`.
  template <class... Args>
  explicit PerWorker(unsigned workers, const Args&... args) {
    slots_.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) slots_.emplace_back(args...);
  }
  T& operator[](unsigned w) { return slots_[w].value; }
  const T& operator[](unsigned w) const { return slots_[w].value; }
  unsigned size() const { return static_cast<unsigned>(slots_.size()); }
  // The values, moved out in worker order.
  std::vector<T> take() {
    std::vector<T> out;
    out.reserve(slots_.size());
    for (Slot& s : slots_) out.push_back(std::move(s.value));
    return out;
  }

 private:
  struct alignas(kCacheLineBytes) Slot {
    template <class... Args>
    explicit Slot(const Args&... args) : value(args...) {}
    T value;
  };
  std::vector<Slot> slots_;
};

}  // namespace harness
