// SPDX-License-Identifier: MIT
#include "profiler/exporters/chrome_external_ids.h"

#include "profiler/model/global_ids.h"

namespace placescope::chrome {
namespace {

// The process part of an nsys serialized id (globalPid or globalTid): the salt that keeps merged ranks apart stays in.
int64_t processOf(int64_t globalId) { return globalPidOfGlobalTid(globalId); }

} // namespace

Result<ExternalIds> ExternalIds::load(SqliteDb& db)
{
    ExternalIds ids;
    if (!db.hasTable("PS_EXTERNAL_CORRELATION"))
        return ids;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        db.prepare("SELECT globalPid, correlationId, externalId FROM PS_EXTERNAL_CORRELATION ORDER BY rowid"));
    while (row.step()) {
        const int64_t correlationId = row.columnInt(1);
        const int64_t externalId = row.columnInt(2);
        ids.m_first.emplace(correlationId, externalId); // emplace keeps the first row of an id
        if (row.isNull(0))
            ids.m_ofUnknownProcess.emplace(correlationId, externalId);
        else
            ids.m_ofProcess.emplace(ProcessCorrelation { processOf(row.columnInt(0)), correlationId }, externalId);
    }
    PLACESCOPE_RETURN_IF_ERROR(row.status());
    return ids;
}

std::optional<int64_t> ExternalIds::find(std::optional<int64_t> globalId, std::optional<int64_t> correlationId) const
{
    if (!correlationId)
        return std::nullopt;
    if (!globalId) {
        auto first = m_first.find(*correlationId);
        return first == m_first.end() ? std::nullopt : std::optional<int64_t>(first->second);
    }
    if (auto own = m_ofProcess.find({ processOf(*globalId), *correlationId }); own != m_ofProcess.end())
        return own->second;
    auto unknown = m_ofUnknownProcess.find(*correlationId);
    return unknown == m_ofUnknownProcess.end() ? std::nullopt : std::optional<int64_t>(unknown->second);
}

} // namespace placescope::chrome
