// SPDX-License-Identifier: MIT
// Tooltip details: one row of the event's source table, read on demand with its own connection.
#include "ui/core/trace_loader.h"

#include "profiler/base/units.h"
#include "profiler/store/trace_file.h"

namespace placescope::ui {
namespace {

const char* tableFor(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel:
        return "CUPTI_ACTIVITY_KIND_KERNEL";
    case EventKind::Memcpy:
        return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case EventKind::Memset:
        return "CUPTI_ACTIVITY_KIND_MEMSET";
    case EventKind::Runtime:
        return "CUPTI_ACTIVITY_KIND_RUNTIME";
    case EventKind::Nvtx:
        return "NVTX_EVENTS";
    case EventKind::FrameworkOp:
        return "PS_FRAMEWORK_OPS";
    case EventKind::GpuAnnotation:
        return "PS_GPU_ANNOTATIONS";
    case EventKind::Predicted:
        return nullptr;
    }
    return nullptr;
}

bool isStringColumn(const std::string& column)
{
    return column == "demangledName" || column == "shortName" || column == "mangledName" || column == "nameId"
        || column == "textId";
}

} // namespace

std::vector<std::pair<std::string, std::string>> eventDetails(
    const std::string& tracePath, EventKind kind, uint32_t sourceRow)
{
    std::vector<std::pair<std::string, std::string>> out;
    const char* table = tableFor(kind);
    if (!table)
        return out;
    auto db = openTrace(tracePath);
    if (!db)
        return out;
    auto stmt = db->prepare(std::string("SELECT * FROM ") + table + " WHERE rowid = ?");
    if (!stmt)
        return out;
    stmt->bind(1, static_cast<int64_t>(sourceRow));
    if (!stmt->step())
        return out;
    int64_t start = 0, end = 0, bytes = -1;
    for (int c = 0; c < stmt->columnCount(); ++c) {
        if (stmt->isNull(c))
            continue;
        const std::string column = stmt->columnName(c);
        std::string value = stmt->columnText(c);
        if (isStringColumn(column)) {
            auto name = db->prepare("SELECT value FROM StringIds WHERE id = ?");
            if (name) {
                name->bind(1, stmt->columnInt(c));
                if (name->step())
                    value = name->columnText(0);
            }
            if (column == "mangledName")
                continue;
        }
        if (column == "start")
            start = stmt->columnInt(c);
        if (column == "end")
            end = stmt->columnInt(c);
        if (column == "bytes")
            bytes = stmt->columnInt(c);
        out.emplace_back(column, value);
    }
    if (end > start)
        out.emplace_back("duration", formatNanoseconds(static_cast<double>(end - start)));
    if (bytes > 0 && end > start) {
        // Bytes per ns are GB/s.
        out.emplace_back(
            "bandwidth", ::placescope::formatRate(1e9 * static_cast<double>(bytes) / static_cast<double>(end - start)));
    }
    return out;
}

} // namespace placescope::ui
