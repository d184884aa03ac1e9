// SPDX-License-Identifier: MIT
// Small helpers the reports share: integer means (JSON carries integer ns) and the column sets they build from.
#pragma once

#include "analysis/reports/report_table.h"

#include <cstdint>

namespace placescope {

// total / count rounded to the nearest integer (0 when count is 0): means of ns stay integer ns.
inline int64_t roundedMean(int64_t total, int64_t count)
{
    if (count <= 0)
        return 0;
    return total >= 0 ? (total + count / 2) / count : -((-total + count / 2) / count);
}

// The step cell of a row that totals every step (the overlap and idle reports' whole-trace rows).
inline constexpr const char* kAllStepsCell = "all";

inline ReportCell nullIfNegative(int64_t value) { return value < 0 ? ReportCell {} : ReportCell { value }; }

} // namespace placescope
