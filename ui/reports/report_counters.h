// SPDX-License-Identifier: MIT
// The reports' time series as timeline counter tracks, below the memory tracks: launch queue length per stream
// (queue_series.h, the step function the queue and queue_timeline reports use) and copy bandwidth per copy kind and
// memory type (copy_rate_series.h, the spreading the bandwidth report buckets). Whole trace, as `report` without
// --step. Runs in the open job, off the UI thread.
#pragma once

#include "analysis/trace/trace_data.h"
#include "ui/core/trace_data.h"

#include <vector>

namespace placescope::ui {

std::vector<CounterSeries> reportCounterTracks(const TraceData& trace);

} // namespace placescope::ui
