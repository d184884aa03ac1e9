// SPDX-License-Identifier: MIT
// What the predicted-lanes view draws, prepared off the UI thread from a WhatIfResult: for every lane of the
// predicted graph, its tasks' measured spans and their predicted spans as timeline rows (ui/core's LaneRow), so
// the view draws them through the timeline's row painter (same folding, colours and labels). Critical-path tasks
// are flagged: measured spans by the replay's path (the replay reproduces the measured run), predicted spans by
// the prediction's path. Qt-free; immutable once built.
#pragma once

#include "ui/core/trace_data.h"
#include "whatif/whatif.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::ui {

struct WhatIfSpanRow
{
    // Spans of the tasks that run, sorted by start: sourceRow is the task's index in the predicted graph,
    // nameIndex points into WhatIfLaneRows::names.
    LaneRow events;
    std::vector<uint8_t> critical; // per event: on the critical path
    // Measured spans of tasks an edit dropped (measured rows only), drawn as outlines; same indexing as events.
    LaneRow dropped;
};

struct WhatIfLaneRow
{
    std::string label;
    bool gpu = false;
    WhatIfSpanRow measured, predicted;
};

struct WhatIfLaneRows
{
    std::vector<WhatIfLaneRow> lanes; // lanes with no task are left out
    std::vector<std::string> names; // task names (kernel, API, copy), what nameIndex points at
    int64_t startNs = 0; // earliest start of either row set
    int64_t endNs = 0; // latest end of either
};

// `trace` is the one the result was replayed from (task names).
WhatIfLaneRows buildLaneRows(const WhatIfResult& result, const TraceData& trace);

} // namespace placescope::ui
