#include "frameworks/workloads/mastercard/mastercard_index.h"

#include <algorithm>
#include <mutex>

#include "frameworks/workloads/mastercard/mastercard_format.h"
#include "harness/core/host_cores.h"
#include "harness/core/per_worker.h"

namespace harness::workloads {

MastercardIndex build_mastercard_index(const std::uint8_t* data, std::size_t size,
                                       unsigned threads) {
  if (threads == 0) threads = harness::usable_cores();
  // Each worker indexes its piece (on cache lines of its own, per_worker.h);
  // the pieces are then copied in order.
  PerWorker<MastercardIndex> pieces(threads);
  mastercard::for_each_record_in_parts(
      data, size, "mastercard-indexed", threads,
      [&](unsigned p, const mastercard::RecordFields& f) {
        pieces[p].push_back(
            {f.card, static_cast<std::uint32_t>(f.merchant - f.card), f.merchant_length});
      });
  std::vector<std::size_t> starts(threads + 1, 0);
  for (unsigned p = 0; p < threads; ++p) starts[p + 1] = starts[p] + pieces[p].size();
  MastercardIndex index(starts[threads]);
  parallel_for(threads, [&](unsigned p) {
    std::copy(pieces[p].begin(), pieces[p].end(),
              index.begin() + static_cast<std::ptrdiff_t>(starts[p]));
    MastercardIndex().swap(pieces[p]);
  });
  return index;
}

std::shared_ptr<const MastercardIndex> mastercard_index_of(const std::uint8_t* data,
                                                           std::size_t size, bool rebuild) {
  static std::mutex mutex;
  static const std::uint8_t* cached_data = nullptr;
  static std::size_t cached_size = 0;
  static std::shared_ptr<const MastercardIndex> cached;
  std::lock_guard lock(mutex);
  if (rebuild || !cached || cached_data != data || cached_size != size) {
    cached.reset();  // at most one index in memory
    cached = std::make_shared<const MastercardIndex>(build_mastercard_index(data, size));
    cached_data = data;
    cached_size = size;
  }
  return cached;
}

}  // namespace harness::workloads
