// SPDX-License-Identifier: MIT
#include "analysis/reports/report_context.h"

#include "profiler/model/kernel_names.h"

#include <algorithm>
#include <climits>

namespace placescope {

Result<ReportContext> ReportContext::create(const TraceData& trace, const ReportOptions& options)
{
    ReportContext ctx;
    ctx.m_trace = &trace;
    ctx.m_steps = detectSteps(trace);
    ctx.m_index.emplace(ctx.m_steps);
    ctx.m_options = options;
    if (options.step) {
        ctx.m_selected = ctx.positionOfStep(*options.step);
        if (ctx.m_selected == StepIndex::kOutside) {
            if (ctx.m_index->count() == 0)
                return Status::error("--step " + std::to_string(*options.step) + ": the trace has no steps");
            return Status::error("--step " + std::to_string(*options.step) + " is out of range: the trace has steps "
                + std::to_string(ctx.m_index->number(0)) + " to "
                + std::to_string(ctx.m_index->number(ctx.m_index->count() - 1)) + " (" + ctx.m_steps.description + ")");
        }
    }
    ctx.m_launches.reserve(trace.apiCalls.size());
    for (const ApiCall& call : trace.apiCalls)
        if (call.correlationId >= 0)
            ctx.m_launches.emplace(TraceData::correlationKey(call.globalTid, call.correlationId), &call);
    int64_t origin = INT64_MAX;
    if (!trace.gpuOps.empty())
        origin = trace.gpuOps.front().startNs;
    if (!trace.apiCalls.empty())
        origin = std::min(origin, trace.apiCalls.front().startNs);
    if (!trace.hostRanges.empty())
        origin = std::min(origin, trace.hostRanges.front().startNs);
    ctx.m_originNs = origin == INT64_MAX ? 0 : origin;
    return ctx;
}

int ReportContext::positionOfStep(int64_t number) const
{
    for (size_t p = 0; p < m_index->count(); ++p)
        if (m_index->number(p) == number)
            return static_cast<int>(p);
    return StepIndex::kOutside;
}

const ApiCall* ReportContext::launchOf(const GpuOp& op) const
{
    if (op.correlationId < 0)
        return nullptr;
    auto it = m_launches.find(TraceData::correlationKey(op.globalPid, op.correlationId));
    return it == m_launches.end() ? nullptr : it->second;
}

int ReportContext::stepOf(const GpuOp& op) const
{
    int64_t atNs = op.startNs;
    if (m_index->hostTime())
        if (const ApiCall* launch = launchOf(op))
            atNs = launch->startNs;
    return m_index->find(op.globalPid, atNs);
}

ReportCell ReportContext::stepCell(int position) const
{
    if (position == StepIndex::kOutside)
        return {};
    return m_index->number(static_cast<size_t>(position));
}

const std::string& ReportContext::kernelName(int64_t nameId) const
{
    const std::string& name = m_trace->name(nameId);
    if (!m_options.shortNames)
        return name;
    auto [it, inserted] = m_shortNameCache.emplace(nameId, std::string());
    if (inserted)
        it->second = shortKernelName(name);
    return it->second;
}

int64_t ReportContext::rankOf(int64_t globalPid) const
{
    for (const auto& r : m_trace->ranks)
        if (r.globalPid == globalPid)
            return r.rank;
    return -1;
}

std::string ReportContext::scopeNote() const
{
    std::string steps
        = std::to_string(m_index->count()) + " step(s) from " + std::string(stepSourceName(m_steps.source));
    if (hasStepFilter())
        return "scope: step " + std::to_string(m_index->number(static_cast<size_t>(m_selected))) + " of " + steps;
    return "scope: the whole trace, work outside every step included; " + steps;
}

} // namespace placescope
