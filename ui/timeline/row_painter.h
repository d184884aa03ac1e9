// SPDX-License-Identifier: MIT
// The one drawing loop for a row of timeline events: the events in view, narrow ones folded into blocks
// (ui/core/lane_folding, Tracy's rule), each box coloured by kind and name (timeline_format's eventColor, folded
// blocks darker and as opaque as they are busy), named where it is wide enough. The main timeline and the compare
// window's lanes both draw their rows through it, so the two fold, colour and label alike; what differs between them is
// in RowPaintStyle.
#pragma once

#include "ui/core/lane_folding.h"

#include <QColor>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QPainter;

namespace placescope::ui {

struct RowPaintStyle
{
    double left = 0; // x of the plot's left edge (the lane headers' width)
    double widthPx = 1; // the plot's width
    int rowHeight = 16;
    double minEventPx = 3.0; // narrower events fold
    bool foldCounts = true; // write how many events a wide folded block stands for
    bool labels = true; // write names on single events wide enough for them
    int alpha = 255; // below 255: every box dimmed (something else is drawn on top)
    std::optional<uint32_t> outline; // outline single events of this name index (nameIndex or fullNameIndex)
    QColor outlineColor;
};

// A folded block's opacity: from kMinFoldedOpacity (its events cover none of it) to 1 (all of it), by the share of
// its extent its events cover (DrawItem::totalNs), so a folded stream reads as busy as it was.
constexpr double kMinFoldedOpacity = 0.2;
double foldedBlockOpacity(const DrawItem& item);

// Draws `row` at rowY; `scratch` is reused between calls (no allocation per paint). Returns the number of items
// drawn: single events and folded blocks.
size_t paintRow(QPainter& painter, const LaneRow& row, const std::vector<std::string>& names, int rowY,
    const TimeAxis& axis, const RowPaintStyle& style, std::vector<DrawItem>& scratch);

} // namespace placescope::ui
