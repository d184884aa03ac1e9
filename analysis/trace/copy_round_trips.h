// SPDX-License-Identifier: MIT
// Copies that took data to the host and back: a device-to-host copy followed within `windowNs` by a host-to-device
// copy of the same size on the same GPU of the same process (the most recent such DtoH for each HtoD, each copy in
// at most one pair). The trace fact under the round-trip and CPU-fallback findings and under the what-if edit that
// moves a host op between them to the GPU (whatif/move_op_edit), so the finding and its simulation read one pairing.
#pragma once

#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <vector>

namespace placescope {

inline constexpr int64_t kRoundTripWindowNs = 50'000'000; // DtoH -> HtoD of the same size within 50 ms

struct CopyRoundTrip
{
    const GpuOp* toHost = nullptr;
    const GpuOp* toDevice = nullptr;
};

// In the order of the HtoD copies' starts. Pure.
std::vector<CopyRoundTrip> pairCopyRoundTrips(const TraceData& trace, int64_t windowNs = kRoundTripWindowNs);

} // namespace placescope
