// SPDX-License-Identifier: MIT
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::ui {

// One row of the op summary: a framework op name with its call count, the time it took on the CPU (its own
// ranges, children included) and the GPU time of the kernels it launched (linked through
// PS_EXTERNAL_CORRELATION).
struct OpSummaryRow
{
    std::string name;
    int64_t count = 0;
    int64_t cpuNs = 0;
    int64_t gpuNs = 0;
    int64_t kernelCount = 0;
};

// Summarises PS_FRAMEWORK_OPS by name: cpu_op rows when the trace has any (annotations and Python frames
// would double-count them), else every row. Empty when the trace has no framework ops. Sorted by CPU time.
Result<std::vector<OpSummaryRow>> summarizeFrameworkOps(SqliteDb& db);

} // namespace placescope::ui
