#include "frameworks/bigkernel/round_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "harness/core/errors.h"
#include "harness/core/sizes.h"

namespace harness::bigkernel {

std::uint64_t plan_round(backend::Device& device, const AppKernel& app, const Params& params,
                         const std::string& variant, std::uint64_t records, std::uint32_t lanes,
                         const LaneBytes& lane, const std::string& what) {
  // The largest record (variable-length records: the longest in the input).
  const std::uint64_t rb = std::max<std::uint64_t>(app.records().max_bytes(1), 1);
  const std::uint64_t fixed = app.fixed_bytes(params);
  const std::uint64_t available = device.memory_available();
  const std::uint64_t max_alloc = device.info().max_allocation_bytes;
  // One thread a record, and no buffer past the device's largest allocation.
  const std::uint64_t max_records = std::min<std::uint64_t>(
      std::numeric_limits<std::uint32_t>::max() / 2,
      max_alloc ? std::max<std::uint64_t>(max_alloc / rb / 2, 1) : ~std::uint64_t{0});
  const std::uint64_t per_round =
      fixed <= available ? records_per_chunk(records, lanes, available - fixed, lane, max_records)
                         : 0;
  if (per_round == 0) {
    const std::uint64_t budget = device.memory_budget();
    throw RunError(fmt::format(
        "bigkernel/{}: the GPU memory budget {} ({} B available) is too small: one round needs "
        "{} B ({} lane(s) x ({} for one {} B record{}) + {}, with the pool's slack)",
        variant, budget ? format_size(budget) : "(none)", available, fixed + lanes * lane(1), lanes,
        what, rb, app.records().variable() ? ", the longest" : "", app.fixed_text()));
  }
  return per_round;
}

}  // namespace harness::bigkernel
