// SPDX-License-Identifier: MIT
// TensorFlow's "op placement" (xprof's overview page): how many of the TF ops that ran were on the host and how many
// on the device, and the time they took there. A TF op (category tf_op, from XPlane or TensorBoard's trace JSON) is a
// device op when GPU work is linked to it (its launches ran on its thread while it ran: PS_EXTERNAL_CORRELATION),
// else a host op. xprof's percentages are of op occurrences (host_tf_op_percent / device_tf_op_percent in its
// overview_page); the times are the host ops' own time on their threads and the device ops' GPU time (their kernels,
// copies and memsets). Pure.
#pragma once

#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <optional>

namespace placescope {

struct OpPlacement
{
    int64_t hostOps = 0, deviceOps = 0;
    int64_t hostOpNs = 0; // the host ops' time on their threads
    int64_t deviceOpNs = 0; // the GPU time of the device ops' kernels, copies and memsets
    double hostOpPercent() const;
    double hostTimePercent() const;
};

// nullopt when the trace has no TensorFlow op.
std::optional<OpPlacement> tensorFlowOpPlacement(const TraceData& trace);

} // namespace placescope
