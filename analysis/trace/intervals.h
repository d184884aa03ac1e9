// SPDX-License-Identifier: MIT
// Interval arithmetic on [start, end) nanosecond ranges: union, intersection, difference, overlap. The
// findings rules express "GPU busy", "GPU idle", "host loading data" as merged interval lists. Pure functions.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace placescope {

struct Interval
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t length() const { return endNs - startNs; }
};
using IntervalList = std::vector<Interval>; // merged: sorted, disjoint, non-empty intervals

IntervalList mergeIntervals(std::vector<Interval> intervals);
int64_t totalLength(const IntervalList& list);
IntervalList intersectIntervals(const IntervalList& a, const IntervalList& b);
IntervalList subtractIntervals(const IntervalList& a, const IntervalList& b);
int64_t overlapLength(const IntervalList& list, int64_t startNs, int64_t endNs);
bool containsPoint(const IntervalList& list, int64_t timeNs);

} // namespace placescope
