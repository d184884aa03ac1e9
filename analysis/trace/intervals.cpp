// SPDX-License-Identifier: MIT
#include "analysis/trace/intervals.h"

#include <algorithm>

namespace placescope {

IntervalList mergeIntervals(std::vector<Interval> intervals)
{
    std::sort(
        intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    IntervalList out;
    for (const auto& iv : intervals) {
        if (iv.endNs <= iv.startNs)
            continue;
        if (!out.empty() && iv.startNs <= out.back().endNs)
            out.back().endNs = std::max(out.back().endNs, iv.endNs);
        else
            out.push_back(iv);
    }
    return out;
}

int64_t totalLength(const IntervalList& list)
{
    int64_t total = 0;
    for (const auto& iv : list)
        total += iv.length();
    return total;
}

IntervalList intersectIntervals(const IntervalList& a, const IntervalList& b)
{
    IntervalList out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        int64_t s = std::max(a[i].startNs, b[j].startNs);
        int64_t e = std::min(a[i].endNs, b[j].endNs);
        if (s < e)
            out.push_back({ s, e });
        if (a[i].endNs < b[j].endNs)
            ++i;
        else
            ++j;
    }
    return out;
}

IntervalList subtractIntervals(const IntervalList& a, const IntervalList& b)
{
    IntervalList out;
    size_t j = 0;
    for (const auto& iv : a) {
        int64_t cursor = iv.startNs;
        while (j < b.size() && b[j].endNs <= cursor)
            ++j;
        size_t k = j;
        while (k < b.size() && b[k].startNs < iv.endNs) {
            if (b[k].startNs > cursor)
                out.push_back({ cursor, b[k].startNs });
            cursor = std::max(cursor, b[k].endNs);
            ++k;
        }
        if (cursor < iv.endNs)
            out.push_back({ cursor, iv.endNs });
    }
    return out;
}

int64_t overlapLength(const IntervalList& list, int64_t startNs, int64_t endNs)
{
    auto it = std::upper_bound(
        list.begin(), list.end(), startNs, [](int64_t t, const Interval& iv) { return t < iv.endNs; });
    int64_t total = 0;
    for (; it != list.end() && it->startNs < endNs; ++it)
        total += std::min(endNs, it->endNs) - std::max(startNs, it->startNs);
    return total;
}

bool containsPoint(const IntervalList& list, int64_t timeNs)
{
    auto it = std::upper_bound(
        list.begin(), list.end(), timeNs, [](int64_t t, const Interval& iv) { return t < iv.endNs; });
    return it != list.end() && it->startNs <= timeNs;
}

} // namespace placescope
