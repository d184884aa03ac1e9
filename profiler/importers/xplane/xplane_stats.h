// SPDX-License-Identifier: MIT
// Reading XStats of one XPlane: a stat's name comes from the plane's stat_metadata, and a string value may be
// interned there too (ref_value). Kept apart from the mapping so the fuzz target and the tests read stats the same way.
#pragma once

#include "profiler/importers/xplane/xplane.pb.h"
#include "profiler/importers/xplane/xstat_view.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace placescope {

class XPlaneStats
{
public:
    explicit XPlaneStats(const tensorflow::profiler::XPlane& plane);

    // The stat metadata id of `name` on this plane, or nullopt when the plane never names it.
    std::optional<int64_t> idOf(std::string_view name) const;
    std::string_view nameOf(int64_t metadataId) const;

    // The value of a stat as an integer (int64, uint64, or a decimal string; doubles truncated), or nullopt.
    std::optional<int64_t> integer(const XStatView& stat) const;
    // The value of a stat as text (str_value, or ref_value resolved through stat_metadata; numbers printed).
    std::string text(const XStatView& stat) const;
    // The plane's own stats (device facts on a GPU plane).
    std::span<const XStatView> planeStats() const { return m_planeStats; }

    // The stat with metadata id `id` among `stats`, or null.
    static const XStatView* find(std::span<const XStatView> stats, std::optional<int64_t> id)
    {
        if (!id)
            return nullptr;
        for (const XStatView& stat : stats)
            if (stat.metadataId == *id)
                return &stat;
        return nullptr;
    }

private:
    const tensorflow::profiler::XPlane& m_plane;
    std::unordered_map<std::string_view, int64_t> m_idsByName;
    std::vector<XStatView> m_planeStats;
};

// "regs:38 shm:0 grid:160,1,1 block:1024,1,1" (CUDA) or "grid:...,block:...,group_mem:..." (ROCm): the launch
// shape of a kernel. Fields left out stay nullopt.
struct KernelDetails
{
    std::optional<int64_t> registers, sharedMemory;
    std::optional<int64_t> grid[3], block[3];
};
KernelDetails parseKernelDetails(std::string_view text);

// "kind:HtoD size:4096 dest:0 async:1" (memcpy_details), "kind:... num_bytes:..." (memset_details).
struct CopyDetails
{
    std::string kind;
    std::optional<int64_t> bytes;
};
CopyDetails parseCopyDetails(std::string_view text);

} // namespace placescope
