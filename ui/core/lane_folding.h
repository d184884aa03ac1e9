// SPDX-License-Identifier: MIT
#pragma once

#include "ui/core/time_axis.h"
#include "ui/core/trace_data.h"

#include <cstdint>
#include <vector>

namespace placescope::ui {

// One thing to draw on a row: a single event (count == 1) or a block of `count` folded narrow events.
// totalNs is the summed duration of the events it stands for (never the block's extent).
struct DrawItem
{
    int64_t startNs;
    int64_t endNs;
    int64_t totalNs;
    uint32_t firstIndex; // index of the first event in the row
    uint32_t count;
};

// Index of the first event of a sorted, non-overlapping row that ends after timeNs (binary search).
size_t firstVisibleEvent(const LaneRow& row, int64_t timeNs);

// Tracy-style visible-window walk: binary-searches the first visible event, then emits events at least
// minWidthPx wide as themselves and folds runs of narrower ones into one block per ~minWidthPx. Runs are
// skipped with a binary search to the next pixel boundary, so the cost is O(pixels x log n), not O(n).
// Thread-safe (reads only).
void foldVisible(
    const LaneRow& row, const TimeAxis& axis, double widthPx, double minWidthPx, std::vector<DrawItem>& out);

} // namespace placescope::ui
