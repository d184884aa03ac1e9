// SPDX-License-Identifier: MIT
// The critical path of a replayed schedule: the chain of events that set when the window's last work ended, read
// back through the dependency that decided each event (HTA's critical-path analysis, on any trace source). Each
// piece of the chain is put in one category, so a user sees what a step's length is made of.
#pragma once

#include "whatif/trace_replay.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placescope {

enum class PathCategory : uint8_t
{
    CpuOps,
    Launch,
    Kernel,
    Copy,
    Sync,
    Communication,
    Wait
};
inline constexpr int kPathCategoryCount = 7;
std::string_view pathCategoryName(PathCategory category);

struct PathSegment // 24 bytes: a path through a 10M-event run has millions
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int32_t task = -1; // the task whose duration or dependency this piece is
    PathCategory category = PathCategory::CpuOps;
};

struct CriticalPath
{
    int64_t startNs = 0; // window start (the path is clipped there)
    int64_t endNs = 0; // end of the work that ended last
    std::array<int64_t, kPathCategoryCount> categoryNs {};
    std::vector<PathSegment> segments; // from the end backwards
    int64_t lengthNs() const { return endNs - startNs; }
};

// The path ending at `lastTask`'s end, followed back until `windowStartNs`.
CriticalPath criticalPath(
    const ReplayGraph& graph, const ReplaySchedule& schedule, int32_t lastTask, int64_t windowStartNs);

} // namespace placescope
