// SPDX-License-Identifier: MIT
#include "ui/core/lane_folding.h"

#include <algorithm>
#include <cstddef>

namespace placescope::ui {

size_t firstVisibleEvent(const LaneRow& row, int64_t timeNs)
{
    // Rows do not overlap, so ends are sorted as starts are.
    auto it = std::upper_bound(row.endNs.begin(), row.endNs.end(), timeNs);
    return static_cast<size_t>(it - row.endNs.begin());
}

void foldVisible(
    const LaneRow& row, const TimeAxis& axis, double widthPx, double minWidthPx, std::vector<DrawItem>& out)
{
    const size_t n = row.size();
    if (n == 0)
        return;
    const int64_t viewStart = axis.viewStartNs();
    const int64_t viewEnd = axis.viewEndNs(widthPx);
    const double minWidthNs = minWidthPx * axis.nsPerPixel();
    size_t i = firstVisibleEvent(row, viewStart);
    while (i < n && row.startNs[i] <= viewEnd) {
        const int64_t duration = row.durationNs(i);
        if (static_cast<double>(duration) >= minWidthNs) {
            out.push_back({ row.startNs[i], row.endNs[i], duration, static_cast<uint32_t>(i), 1 });
            ++i;
            continue;
        }
        // Narrow: fold every event starting within minWidthPx of the block's current event, then go on while
        // the next event is narrow, starts without a visible gap and the block stays a few pixels wide. Each
        // step is a binary search, so a block costs O(log n) however many events it folds.
        const size_t first = i;
        int64_t blockEnd = row.endNs[i];
        double limit = static_cast<double>(row.startNs[i]) + minWidthNs;
        for (;;) {
            const auto bound = std::lower_bound(row.startNs.begin() + static_cast<std::ptrdiff_t>(i + 1),
                row.startNs.end(), std::min(static_cast<int64_t>(limit), viewEnd + 1));
            size_t j = static_cast<size_t>(bound - row.startNs.begin());
            // Only the last skipped event can be wide (the row does not overlap): leave it to draw on its own.
            if (j > i + 1 && static_cast<double>(row.durationNs(j - 1)) >= minWidthNs)
                --j;
            blockEnd = std::max(blockEnd, row.endNs[j - 1]);
            i = j;
            if (i < n && static_cast<double>(row.durationNs(i)) < minWidthNs
                && static_cast<double>(row.startNs[i] - blockEnd) < minWidthNs
                && static_cast<double>(row.endNs[i] - row.startNs[first]) < 4 * minWidthNs
                && row.startNs[i] <= viewEnd) {
                limit = static_cast<double>(row.startNs[i]) + minWidthNs;
                continue;
            }
            break;
        }
        const int64_t total = row.prefixDurationNs[i] - row.prefixDurationNs[first];
        out.push_back(
            { row.startNs[first], blockEnd, total, static_cast<uint32_t>(first), static_cast<uint32_t>(i - first) });
    }
}

} // namespace placescope::ui
