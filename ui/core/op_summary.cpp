// SPDX-License-Identifier: MIT
#include "ui/core/op_summary.h"

namespace placescope::ui {

Result<std::vector<OpSummaryRow>> summarizeFrameworkOps(SqliteDb& db)
{
    std::vector<OpSummaryRow> rows;
    if (!db.hasTable("PS_FRAMEWORK_OPS"))
        return rows;
    PLACESCOPE_ASSIGN_OR_RETURN(
        auto cpuOps, db.queryInt("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'cpu_op'"));
    const std::string where = cpuOps > 0 ? "WHERE o.category = 'cpu_op'" : "";
    const bool linked = db.hasTable("PS_EXTERNAL_CORRELATION") && db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL");
    // GPU time per externalId first, so an op with many kernels is joined once.
    const std::string gpu = linked
        ? "WITH gpu AS (SELECT e.externalId AS ext, SUM(k.end - k.start) AS ns, COUNT(*) AS n "
          "FROM PS_EXTERNAL_CORRELATION e JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = e.correlationId "
          "GROUP BY e.externalId) "
        : "WITH gpu AS (SELECT 0 AS ext, 0 AS ns, 0 AS n WHERE 0) ";
    const std::string sql = gpu
        + "SELECT COALESCE(s.value, '#' || o.nameId), COUNT(*), SUM(o.end - o.start), COALESCE(SUM(gpu.ns), 0), "
          "COALESCE(SUM(gpu.n), 0) FROM PS_FRAMEWORK_OPS o LEFT JOIN StringIds s ON s.id = o.nameId "
          "LEFT JOIN gpu ON gpu.ext = o.externalId "
        + where + " GROUP BY o.nameId ORDER BY 3 DESC";
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, db.prepare(sql));
    while (stmt.step())
        rows.push_back(
            { stmt.columnText(0), stmt.columnInt(1), stmt.columnInt(2), stmt.columnInt(3), stmt.columnInt(4) });
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    return rows;
}

} // namespace placescope::ui
