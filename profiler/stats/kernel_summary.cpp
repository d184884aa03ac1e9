// SPDX-License-Identifier: MIT
// Kernel summary (nsys cuda_gpu_kern_sum): one GROUP BY for counts/sums/extremes, then median and standard
// deviation for the rows shown only, each read from the (name, duration) index in duration order.
#include "profiler/stats/trace_stats.h"

#include <cmath>

namespace placescope {

namespace {

// Median and sample standard deviation of one name's durations. With idx_kernel_*_duration the median is
// an index seek and the deviation one covering-index scan of that name's rows.
Status fillDistribution(SqliteDb& db, const std::string& column, int64_t nameId, DurationStats& stats)
{
    const std::string duration = "(end - start)";
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement median,
        db.prepare("SELECT " + duration + " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + column + " = ?1 ORDER BY "
                   + duration + " LIMIT 2 - (?2 % 2) OFFSET (?2 - 1) / 2"));
    median.bind(1, nameId);
    median.bind(2, stats.count);
    double sum = 0;
    int values = 0;
    while (median.step()) {
        sum += static_cast<double>(median.columnInt(0));
        ++values;
    }
    PLACESCOPE_RETURN_IF_ERROR(median.status());
    stats.medianNs = values ? sum / values : 0;
    if (stats.count < 2)
        return Status::ok();
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement deviation,
                                db.prepare("SELECT TOTAL((" + duration + " - ?2) * (" + duration + " - ?2)) FROM"
                                           " CUPTI_ACTIVITY_KIND_KERNEL WHERE " + column + " = ?1"));
    deviation.bind(1, nameId);
    deviation.bind(2, stats.averageNs);
    if (!deviation.step())
        return deviation.status().isOk() ? Status::error("no deviation row") : deviation.status();
    stats.stddevNs = std::sqrt(deviation.columnDouble(0) / static_cast<double>(stats.count - 1));
    return Status::ok();
}

} // namespace

Result<KernelSummary> kernelSummary(SqliteDb& db, size_t topN, KernelNameKind nameKind)
{
    const std::string column = nameKind == KernelNameKind::Short ? "shortName" : "demangledName";
    KernelSummary summary;
    // One pass over the (name, duration) index gives every group; the totals are their sums.
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement groups,
        db.prepare("SELECT g.nameId, COALESCE(s.value, '[unknown]'), g.n, g.total, g.lo, g.hi FROM (SELECT " + column
                   + " AS nameId, COUNT(*) AS n, SUM(end - start) AS total, MIN(end - start) AS lo,"
                     " MAX(end - start) AS hi FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY " + column
                   + ") g LEFT JOIN StringIds s ON s.id = g.nameId ORDER BY g.total DESC, s.value"));
    std::vector<int64_t> nameIds;
    while (groups.step()) {
        ++summary.distinctNames;
        summary.kernelCount += groups.columnInt(2);
        summary.totalNs += groups.columnInt(3);
        if (topN > 0 && summary.rows.size() >= topN)
            continue;
        KernelSummaryRow row;
        nameIds.push_back(groups.columnInt(0));
        row.name = groups.columnText(1);
        row.time.count = groups.columnInt(2);
        row.time.totalNs = groups.columnInt(3);
        row.time.minNs = groups.columnInt(4);
        row.time.maxNs = groups.columnInt(5);
        row.time.averageNs = static_cast<double>(row.time.totalNs) / static_cast<double>(row.time.count);
        summary.rows.push_back(std::move(row));
    }
    PLACESCOPE_RETURN_IF_ERROR(groups.status());
    for (auto& row : summary.rows)
        row.timePercent = summary.totalNs ? 100.0 * static_cast<double>(row.time.totalNs) / summary.totalNs : 0;
    for (size_t i = 0; i < summary.rows.size(); ++i)
        PLACESCOPE_RETURN_IF_ERROR(fillDistribution(db, column, nameIds[i], summary.rows[i].time));
    return summary;
}

} // namespace placescope
