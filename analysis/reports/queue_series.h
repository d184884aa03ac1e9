// SPDX-License-Identifier: MIT
// Launch queue length per stream as a step function: the GPU ops launched (launch call start) and not yet finished
// (op end) on each (process, device, stream). The `queue` report summarises it, `queue_timeline` buckets it for plots
// (the HTML report), and the GUI draws it as a counter track, so all three show the same figures.
#pragma once

#include "analysis/reports/report_context.h"

#include <cstdint>
#include <vector>

namespace placescope {

struct QueuePoint
{
    int64_t timeNs = 0;
    int64_t length = 0; // from timeNs until the next point
};

struct StreamQueue
{
    int64_t globalPid = 0, deviceId = 0, streamId = 0;
    int64_t ops = 0; // GPU ops with a launch call
    std::vector<QueuePoint> points; // time order, one per distinct time; the last one is back to 0
};

struct QueueSeries
{
    std::vector<StreamQueue> streams; // by (process, device, stream)
    int64_t unlinked = 0; // GPU ops in scope without a launch call, left out
};

// The GPU ops in the context's scope. At one instant ends count before launches: an op that finished frees its slot
// before the next one counts.
QueueSeries queueLengthSeries(const ReportContext& ctx);

} // namespace placescope
