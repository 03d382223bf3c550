#include "frameworks/streamgraph/benchmarks/source_sink.h"

#include <cmath>
#include <sstream>

namespace harness::streamgraph {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Keeps the popped items; check() compares every complete block not yet
// checked with its reference (SinkReport::set_check: when the report is read).
template <class T, class Expected>
class BlockChecker {
 public:
  BlockChecker(std::size_t block_items,
               std::function<std::vector<Expected>(std::uint64_t)> reference, Tolerance tolerance,
               std::shared_ptr<SinkReport> report)
      : block_items_(block_items),
        reference_(std::move(reference)),
        tolerance_(tolerance),
        report_(std::move(report)) {}

  void take(T item) { got_.push_back(item); }

  void check() {
    const std::size_t blocks = got_.size() / block_items_;
    for (std::size_t b = 0; b < blocks; ++b, ++block_) {
      const std::vector<Expected> expected = reference_(block_);
      for (std::size_t i = 0; i < block_items_; ++i) {
        const T got = got_[b * block_items_ + i];
        const bool ok = i < expected.size() && matches(got, expected[i]);
        report_->record(ok, [&] {
          std::ostringstream msg;
          msg.precision(9);
          msg << "item " << i << " of block " << block_ << " is " << +got << ", expected ";
          if (i < expected.size()) {
            msg << +expected[i];
          } else {
            msg << "nothing (reference block has " << expected.size() << " items)";
          }
          return msg.str();
        });
      }
    }
    got_.erase(got_.begin(), got_.begin() + static_cast<std::ptrdiff_t>(blocks * block_items_));
  }

 private:
  bool matches(T got, Expected want) const {
    if constexpr (std::is_same_v<T, float>) {
      if (!std::isfinite(got)) return false;
      return std::fabs(static_cast<double>(got) - want) <=
             tolerance_.abs + tolerance_.rel * std::fabs(want);
    } else {
      return got == want;
    }
  }

  std::size_t block_items_;
  std::function<std::vector<Expected>(std::uint64_t)> reference_;
  Tolerance tolerance_;
  std::shared_ptr<SinkReport> report_;
  std::vector<T> got_;
  std::uint64_t block_ = 0;
};

// The sink filter of a checker, and the report's check hook (a weak
// reference: the report must not keep the graph's filter alive).
template <class T, class Expected>
FilterSpec checking_sink(std::size_t block_items,
                         std::function<std::vector<Expected>(std::uint64_t)> reference,
                         Tolerance tolerance, const std::shared_ptr<SinkReport>& report) {
  auto checker = std::make_shared<BlockChecker<T, Expected>>(block_items, std::move(reference),
                                                             tolerance, report);
  report->set_check([weak = std::weak_ptr<BlockChecker<T, Expected>>(checker)] {
    if (auto c = weak.lock()) c->check();
  });
  return stateful_filter<T>("sink", 1, 1, 0, [checker](const T* in, T*) { checker->take(in[0]); });
}

}  // namespace

float input_f32(std::uint64_t seed, std::uint64_t k) {
  // 24 random bits: exact in float.
  const auto bits = static_cast<std::uint32_t>(splitmix64(seed * 0x100000001b3ull ^ k) >> 40);
  return static_cast<float>(bits) / 8388608.0f - 1.0f;
}

std::uint32_t input_u32(std::uint64_t seed, std::uint64_t k) {
  return static_cast<std::uint32_t>(splitmix64(seed * 0x100000001b3ull ^ k) >> 32);
}

FilterSpec source_f32(std::uint64_t seed) {
  return stateful_filter<float>("source", 0, 0, 1,
                                [seed, k = std::uint64_t{0}](const float*, float* out) mutable {
                                  out[0] = input_f32(seed, k++);
                                });
}

FilterSpec source_u32(std::uint64_t seed) {
  return stateful_filter<std::uint32_t>(
      "source", 0, 0, 1,
      [seed, k = std::uint64_t{0}](const std::uint32_t*, std::uint32_t* out) mutable {
        out[0] = input_u32(seed, k++);
      });
}

FilterSpec checking_sink_f32(std::size_t block_items,
                             std::function<std::vector<double>(std::uint64_t block)> reference,
                             Tolerance tolerance, std::shared_ptr<SinkReport> report) {
  return checking_sink<float, double>(block_items, std::move(reference), tolerance, report);
}

FilterSpec checking_sink_u32(
    std::size_t block_items,
    std::function<std::vector<std::uint32_t>(std::uint64_t block)> reference,
    std::shared_ptr<SinkReport> report) {
  return checking_sink<std::uint32_t, std::uint32_t>(block_items, std::move(reference), Tolerance{},
                                                     report);
}

}  // namespace harness::streamgraph
