// SPDX-License-Identifier: MIT
// Host round trips: a device-to-host copy followed soon (options.roundTripWindowNs) by a host-to-device copy
// of the same size on the same GPU, i.e. data that went to the host and came back. The framework ops that
// ran on the host in between without launching GPU work say why (a CPU fallback of an op); none means a
// hand-off through the host (between frameworks, or to numpy). Shared by the round-trip and CPU-fallback
// rules, which split the pairs between them so no time is reported twice. Pure function.
#pragma once

#include "analysis/findings/finding_rule.h"

#include <string>
#include <vector>

namespace placescope {

struct RoundTrip
{
    const GpuOp* toHost = nullptr;
    const GpuOp* toDevice = nullptr;
    std::vector<const HostRange*> hostOps; // outermost host ops in between that launched no GPU work
    int64_t hostOpNs = 0;
    int64_t gpuIdleNs = 0; // GPU idle between the two copies
};

std::vector<RoundTrip> findRoundTrips(const RuleContext& context);

} // namespace placescope
