// SPDX-License-Identifier: MIT
// What the predicted-lanes view draws, prepared off the UI thread from a WhatIfResult: for every lane of the
// predicted graph, its tasks' measured spans and their predicted spans, each sorted by start so that painting
// binary-searches the visible window (the timeline's rule). Critical-path tasks are flagged: measured spans by
// the replay's path (the replay reproduces the measured run), predicted spans by the prediction's path.
// Qt-free; immutable once built.
#pragma once

#include "whatif/whatif.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::ui {

struct WhatIfSpan
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int32_t task = -1; // index into the predicted graph's tasks
    bool critical = false;
    bool dropped = false; // measured spans of tasks an edit removed
};

struct WhatIfSpanRow
{
    std::vector<WhatIfSpan> spans; // sorted by start
    int64_t longestNs = 0; // bounds the binary search (a span may start before the window and reach into it)
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
    int64_t startNs = 0; // earliest start of either row set
    int64_t endNs = 0; // latest end of either
};

WhatIfLaneRows buildLaneRows(const WhatIfResult& result);

// Spans of `row` that may overlap [fromNs, toNs): [first, last) indices.
std::pair<size_t, size_t> visibleSpans(const WhatIfSpanRow& row, int64_t fromNs, int64_t toNs);

} // namespace placescope::ui
