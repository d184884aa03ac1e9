// SPDX-License-Identifier: MIT
// Memcpy/memset summary by copy kind and memory type (nsys cuda_gpu_mem_time_sum + cuda_gpu_mem_size_sum in
// one table), with the achieved bandwidth of each group.
#include "profiler/model/cuda_enums.h"
#include "profiler/stats/trace_stats.h"

namespace placescope {

namespace {

std::string memKindText(const SqliteStatement& row, int column)
{
    if (row.isNull(column))
        return "Unknown";
    return std::string(memKindLabel(static_cast<MemKind>(row.columnInt(column))));
}

void fillTimes(const SqliteStatement& row, int first, MemoryOpRow& op)
{
    op.time.count = row.columnInt(first);
    op.totalBytes = row.columnInt(first + 1);
    op.time.totalNs = row.columnInt(first + 2);
    op.time.minNs = row.columnInt(first + 3);
    op.time.maxNs = row.columnInt(first + 4);
    op.time.averageNs = op.time.count ? static_cast<double>(op.time.totalNs) / op.time.count : 0;
    op.bandwidthGBps = op.time.totalNs ? static_cast<double>(op.totalBytes) / static_cast<double>(op.time.totalNs) : 0;
}

} // namespace

Result<std::vector<MemoryOpRow>> memoryOpSummary(SqliteDb& db)
{
    std::vector<MemoryOpRow> rows;
    const std::string aggregates = "COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS bytes, SUM(end - start) AS total,"
                                   " MIN(end - start) AS lo, MAX(end - start) AS hi";
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement copies,
        db.prepare("SELECT g.copyKind, g.srcKind, g.dstKind, e.label, g.n, g.bytes, g.total,"
                   " g.lo, g.hi FROM (SELECT copyKind, srcKind, dstKind, "
            + aggregates
            + " FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2, 3) g LEFT JOIN"
              " ENUM_CUDA_MEMCPY_OPER e ON e.id = g.copyKind"
              " ORDER BY g.total DESC, 1, 2, 3"));
    while (copies.step()) {
        MemoryOpRow op;
        op.copyKind = copies.columnInt(0);
        if (!copies.isNull(1))
            op.srcKind = copies.columnInt(1);
        if (!copies.isNull(2))
            op.dstKind = copies.columnInt(2);
        // HtoD..PtoP have the short names PyTorch and Nsight use; unified-memory kinds get the enum's label.
        if (*op.copyKind >= 1 && *op.copyKind <= 10)
            op.operation = "Memcpy " + std::string(copyKindShortName(static_cast<CopyKind>(*op.copyKind)));
        else
            op.operation = "Memcpy " + (copies.isNull(3) ? std::string("Unknown") : copies.columnText(3));
        op.memoryTypes = memKindText(copies, 1) + " -> " + memKindText(copies, 2);
        fillTimes(copies, 4, op);
        rows.push_back(std::move(op));
    }
    PLACESCOPE_RETURN_IF_ERROR(copies.status());
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement sets,
        db.prepare("SELECT memKind, " + aggregates + " FROM CUPTI_ACTIVITY_KIND_MEMSET GROUP BY 1 ORDER BY 4 DESC, 1"));
    while (sets.step()) {
        MemoryOpRow op;
        op.operation = "Memset";
        if (!sets.isNull(0))
            op.srcKind = sets.columnInt(0);
        op.memoryTypes = memKindText(sets, 0);
        fillTimes(sets, 1, op);
        rows.push_back(std::move(op));
    }
    PLACESCOPE_RETURN_IF_ERROR(sets.status());
    return rows;
}

} // namespace placescope
