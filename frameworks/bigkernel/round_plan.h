// How many records one round (a chunk of every lane) holds for a variant of
// the family, from the device memory the point may take; a budget too small
// for one record is a one-line RunError, thrown before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

#include "frameworks/bigkernel/app_kernel.h"
#include "frameworks/bigkernel/chunk_plan.h"
#include "harness/backend/backend.h"

namespace harness::bigkernel {

// `lane(r)`: one lane's device bytes for r records beside the app's fixed
// buffers; `lanes` lanes must fit. `what` describes a lane for the message.
std::uint64_t plan_round(backend::Device& device, const AppKernel& app, const Params& params,
                         const std::string& variant, std::uint64_t records, std::uint32_t lanes,
                         const LaneBytes& lane, const std::string& what);

}  // namespace harness::bigkernel
