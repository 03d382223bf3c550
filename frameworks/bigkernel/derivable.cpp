#include "frameworks/bigkernel/derivable.h"

#include <fmt/format.h>

#include <algorithm>

namespace harness::bigkernel {

std::string first_address_difference(const std::uint64_t* list_zero,
                                     const std::uint32_t* counts_zero,
                                     const std::uint64_t* list_one, const std::uint32_t* counts_one,
                                     std::uint32_t threads, std::uint32_t capacity,
                                     std::uint64_t first_record) {
  constexpr std::uint64_t kOffset = (std::uint64_t{1} << 60) - 1;
  for (std::uint32_t t = 0; t < threads; ++t) {
    if (counts_zero[t] != counts_one[t]) {
      return fmt::format(
          "record {} makes {} mapped reads when mapped data reads 0, {} when it "
          "reads 1",
          first_record + t, counts_zero[t], counts_one[t]);
    }
    const std::uint32_t stored = std::min(counts_zero[t], capacity);
    for (std::uint64_t n = 0; n < stored; ++n) {
      const std::uint64_t a = list_zero[n * threads + t], b = list_one[n * threads + t];
      if (a == b) continue;
      return fmt::format(
          "record {}'s read {} is {} B at mapped byte {} when mapped data reads 0, "
          "{} B at byte {} when it reads 1",
          first_record + t, n, 1u << (a >> 60), a & kOffset, 1u << (b >> 60), b & kOffset);
    }
  }
  return "";
}

}  // namespace harness::bigkernel
