// SPDX-License-Identifier: MIT
// counters (HTA's CUPTI counter analysis): counter values per kernel, as PyTorch's profiler records them with
// CUPTI's range profiler (cuda_profiler_range events carrying metrics such as
// smsp__sass_thread_inst_executed_op_ffma_pred_on.sum). No importer keeps those events yet and a capture records no
// counters, so the report has no rows and says so in one line rather than showing anything made up.
#include "placement/reports/reports.h"

namespace placescope {

ReportTable countersReport(const ReportContext&)
{
    ReportTable table;
    table.title = "CUPTI counters per kernel";
    table.columns = { { "kernel", "Kernel", ColumnKind::Text },
                      { "counter", "Counter", ColumnKind::Text },
                      { "value", "Value", ColumnKind::Real } };
    table.notes.push_back("no counter data: the importers do not keep CUPTI counter events (cuda_profiler_range) yet");
    return table;
}

} // namespace placescope
