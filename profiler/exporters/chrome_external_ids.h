// SPDX-License-Identifier: MIT
// The framework op (Kineto "External id") behind each CUDA API call and GPU activity, for the Chrome export's
// args. Read once from PS_EXTERNAL_CORRELATION into memory: the trace file keeps no index on correlation ids
// (building them would cost every import a tenth of its time), and a lookup per exported row would otherwise
// scan that table.
// Correlation ids are unique within one process only, so a link is looked up by (process, correlation id). A
// side whose process is unknown (NULL globalPid) matches the other side's first row of that correlation id.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace placescope::chrome {

class ExternalIds
{
public:
    static Result<ExternalIds> load(SqliteDb& db);

    // `globalId`: the event's globalPid or globalTid (both name the process in their upper bits).
    std::optional<int64_t> find(std::optional<int64_t> globalId, std::optional<int64_t> correlationId) const;

private:
    struct ProcessCorrelation
    {
        int64_t process;
        int64_t correlationId;
        bool operator==(const ProcessCorrelation&) const = default;
    };
    struct Hash
    {
        size_t operator()(const ProcessCorrelation& key) const
        {
            return std::hash<int64_t>()(key.correlationId)
                ^ (std::hash<int64_t>()(key.process) * 0x9E3779B97F4A7C15ull);
        }
    };

    std::unordered_map<ProcessCorrelation, int64_t, Hash> m_ofProcess; // rows with a known process
    std::unordered_map<int64_t, int64_t> m_first; // first row per correlation id
    std::unordered_map<int64_t, int64_t> m_ofUnknownProcess; // first row per id whose process is unknown
};

} // namespace placescope::chrome
