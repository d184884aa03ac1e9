// SPDX-License-Identifier: MIT
// ReportContext: what every report reads, built once per run of a report: the trace (TraceData, the findings' view of
// the store), its steps (detectSteps, the same steps `analyze` and `diff` use) numbered by StepIndex, the launch call
// of each GPU op, and the scope chosen with --step. A GPU op belongs to a step by StepIndex's rule: with host-time
// steps (ProfilerStep, annotations) the step its launch call ran in, else the step it ran in. Without --step every
// event is in scope, including work outside every step (HTA drops what runs after the last step; we do not).
#pragma once

#include "analysis/reports/report_table.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/step_index.h"
#include "analysis/trace/trace_data.h"

#include <optional>
#include <unordered_map>

namespace placescope {

struct ReportOptions
{
    std::optional<int64_t> step; // a step number (as `analyze` and PS_STEPS number them); none: the whole trace
    bool shortNames = false; // kernel names through shortKernelName
    // sequences (HTA's operator_name and min_pattern_len): only the kernels launched inside host ranges whose name
    // contains `op`, and only sequences of at least `minLength` kernels (0: the report's default).
    std::string op;
    int64_t minLength = 0;
};

class ReportContext
{
public:
    // Fails with a one-line message when `options.step` names no step of the trace.
    static Result<ReportContext> create(const TraceData& trace, const ReportOptions& options);

    const TraceData& trace() const { return *m_trace; }
    const StepSet& steps() const { return m_steps; }
    const StepIndex& stepIndex() const { return *m_index; }
    bool hasStepFilter() const { return m_selected != StepIndex::kOutside; }
    const ReportOptions& options() const { return m_options; }

    // The CUDA call that launched `op` (same process, same correlation id), null when the trace has none.
    const ApiCall* launchOf(const GpuOp& op) const;
    // StepIndex position of the op's step, StepIndex::kOutside when it is in none.
    int stepOf(const GpuOp& op) const;
    int stepOfHost(int64_t globalTid, int64_t timeNs) const { return m_index->find(globalTid, timeNs); }
    bool inScope(const GpuOp& op) const { return stepInScope(stepOf(op)); }
    // Whether the step at a StepIndex position (kOutside: no step) is in the report's scope.
    bool stepInScope(int position) const { return !hasStepFilter() || position == m_selected; }
    // The StepIndex position of a step number, kOutside when the trace has no such step.
    int positionOfStep(int64_t number) const;
    bool hostInScope(int64_t globalTid, int64_t timeNs) const
    {
        return !hasStepFilter() || stepOfHost(globalTid, timeNs) == m_selected;
    }
    // The step number of a position, as a cell: null for work outside every step.
    ReportCell stepCell(int position) const;
    // A kernel's name as the user asked for it (demangled, or shortened with --short-names).
    const std::string& kernelName(int64_t nameId) const;
    // The process's rank (PS_PROCESSES), -1 when not recorded.
    int64_t rankOf(int64_t globalPid) const;
    // The earliest event of the trace: text tables show timestamps relative to it.
    int64_t originNs() const { return m_originNs; }
    // One line saying which steps the report covers (always added to a table's notes).
    std::string scopeNote() const;

private:
    const TraceData* m_trace = nullptr;
    StepSet m_steps;
    std::optional<StepIndex> m_index;
    int m_selected = StepIndex::kOutside;
    ReportOptions m_options;
    int64_t m_originNs = 0;
    std::unordered_map<uint64_t, const ApiCall*> m_launches; // correlationKey -> call
    mutable std::unordered_map<int64_t, std::string> m_shortNameCache;
};

} // namespace placescope
