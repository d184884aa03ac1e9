// SPDX-License-Identifier: MIT
#include "whatif/whatif.h"

#include <algorithm>
#include <unordered_map>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace placescope {

namespace {

// Where a step boundary lies in a schedule. Steps read on a lane move with it; a step over the whole trace (no
// steps found) runs from the first GPU work's start to the last GPU work's end, as detectSteps' window does (the
// first and last work of any kind in a run without GPU work).
int64_t boundary(const ReplayGraph& graph, const ReplaySchedule* schedule, const ReplayStep& step, bool isStart)
{
    const int64_t measured = isStart ? step.startNs : step.endNs;
    if (step.lane >= 0)
        return schedule ? replayedInstant(graph, *schedule, step.lane, measured) : measured;
    const bool anyGpu
        = std::any_of(graph.tasks.begin(), graph.tasks.end(), [](const ReplayTask& t) { return t.isGpu(); });
    int64_t value = isStart ? INT64_MAX : INT64_MIN;
    for (size_t id = 0; id < graph.tasks.size(); ++id) {
        if (graph.tasks[id].dropped || (anyGpu && !graph.tasks[id].isGpu()))
            continue;
        const int64_t t = isStart ? (schedule ? schedule->start[id] : graph.tasks[id].measuredStart)
                                  : (schedule ? schedule->end[id] : graph.tasks[id].measuredEnd);
        value = isStart ? std::min(value, t) : std::max(value, t);
    }
    return value == INT64_MAX || value == INT64_MIN ? measured : value;
}

int64_t endOf(const ReplayGraph& graph, const ReplaySchedule* schedule, size_t id)
{
    return schedule ? schedule->end[id] : graph.tasks[id].measuredEnd;
}

// schedule == nullptr: the measured run.
RunFigures figures(const ReplayGraph& graph, const ReplaySchedule* schedule)
{
    RunFigures f;
    if (graph.steps.empty())
        return f;
    // The one step rule (analysis/trace/step_times.h) on the schedule: each step's host range moves with its lane,
    // and lasts until the GPU work launched in it (as measured: the launch call started in the range) has ended
    // where the schedule put it, so when the host runs ahead the step follows the GPU.
    std::vector<StepTime> steps, ranges;
    for (const ReplayStep& step : graph.steps) {
        steps.push_back({ step.number, step.globalPid, boundary(graph, schedule, step, true),
            boundary(graph, schedule, step, false) });
        ranges.push_back({ step.number, step.globalPid, step.startNs, step.endNs });
    }
    if (graph.stepsAreHostRanges) {
        const StepRangeLookup lookup(ranges);
        for (size_t id = 0; id < graph.tasks.size(); ++id) {
            const ReplayTask& t = graph.tasks[id];
            if (!t.isGpu() || t.dropped || t.launcher < 0)
                continue;
            const int s = lookup.find(graph.lanes[t.lane].globalPid, graph.tasks[t.launcher].measuredStart);
            if (s >= 0)
                steps[static_cast<size_t>(s)].gpuEndNs
                    = std::max(steps[static_cast<size_t>(s)].gpuEndNs, endOf(graph, schedule, id));
        }
    }
    f.steps = timeSteps(std::move(steps), graph.stepsAreHostRanges);
    f.stepNs = f.steps.meanNs();
    int64_t last = INT64_MIN;
    for (size_t id = 0; id < graph.tasks.size(); ++id)
        if (graph.inSpan[id] && !graph.tasks[id].dropped)
            last = std::max(last, endOf(graph, schedule, id));
    // CPU work after the last CUDA call (framework ops at the end of the last step) is in the span too.
    for (const ReplayStep& step : graph.steps)
        if (step.lane >= 0)
            last = std::max(last, boundary(graph, schedule, step, false));
    const int64_t first = boundary(graph, schedule, graph.steps.front(), true);
    f.spanNs = last == INT64_MIN ? 0 : last - first;
    return f;
}

// The work that ended last in the window (a step's work, or the span's) and where the window starts.
std::pair<int32_t, int64_t> pathEnd(const ReplayGraph& graph, const ReplaySchedule& schedule, const ReplayStep* step)
{
    int32_t last = -1;
    for (size_t id = 0; id < graph.tasks.size(); ++id) {
        const ReplayTask& t = graph.tasks[id];
        if (t.dropped || !graph.inSpan[id])
            continue;
        if (step) {
            const int64_t launched = t.launcher >= 0 ? graph.tasks[t.launcher].measuredStart : t.measuredStart;
            if (launched < step->startNs || launched >= step->endNs)
                continue;
        }
        if (last < 0 || schedule.end[id] > schedule.end[last])
            last = static_cast<int32_t>(id);
    }
    const ReplayStep& window = step ? *step : graph.steps.front();
    return { last, graph.steps.empty() ? 0 : boundary(graph, &schedule, window, true) };
}

// Busy time of the span's work per class of GPU work; schedule == nullptr: as measured. Kernel names are classified
// once per name.
ClassTimes classTimes(const ReplayGraph& graph, const ReplaySchedule* schedule, const TraceData& trace)
{
    ClassTimes times {};
    std::unordered_map<int32_t, GpuWorkClass> kernels;
    for (size_t id = 0; id < graph.tasks.size(); ++id) {
        const ReplayTask& t = graph.tasks[id];
        if (!t.isGpu() || !graph.inSpan[id] || t.dropped)
            continue;
        GpuWorkClass work = t.kind == TaskKind::Memcpy ? GpuWorkClass::Memcpy
            : t.kind == TaskKind::Memset               ? GpuWorkClass::Memset
                                                       : GpuWorkClass::OtherKernel;
        if (t.kind == TaskKind::Kernel) {
            auto [known, inserted] = kernels.emplace(t.nameId, GpuWorkClass::OtherKernel);
            if (inserted)
                known->second = classifyKernel(taskName(trace, t));
            work = known->second;
        }
        times[static_cast<size_t>(work)]
            += schedule ? schedule->end[id] - schedule->start[id] : t.measuredEnd - t.measuredStart;
    }
    return times;
}

std::vector<std::string> qualityNotes(const ReplayQuality& q)
{
    std::vector<std::string> notes;
    auto note = [&](int64_t count, const std::string& text) {
        if (count > 0)
            notes.push_back(std::to_string(count) + " " + text);
    };
    note(q.gpuOpsWithoutLaunch,
        "GPU ops have no launch call in the trace (no matching correlation id): they start at "
        "their measured time or after their stream predecessor, and do not move with the host");
    note(q.startsBeforeLaunch,
        "GPU ops start before their launch call (host and GPU clocks disagree): kept as measured");
    note(q.sameStreamOverlaps, "GPU ops start before the previous op on their stream ended: kept as measured");
    note(q.waitsEndingEarly, "sync calls ended before the work they would wait for: not bound to it");
    note(q.inferredHandoffs,
        "host calls resume after a gap of 1 ms or more right after another thread went quiet: "
        "taken as waiting for that thread (inferred, as autograd hands work between threads)");
    note(q.handoffsRejected,
        "host gaps of 1 ms or more end right after another thread's call, but that thread was not at work through "
        "half the gap: kept as CPU work, not taken as a hand-off");
    note(q.loaderWaitsAsWork,
        "DataLoader waits (__next__) are replayed as CPU work: the trace shows no loader thread's work to bound them "
        "(right for num_workers=0; with worker processes, an input= edit scales the wait as if it were work)");
    note(q.inferredCrossStream,
        "GPU ops wait for another stream (inferred: they start within 5 us of its op's end "
        "and nothing of their own explains the delay)");
    return notes;
}

} // namespace

Result<WhatIfModel> WhatIfModel::build(const TraceData& trace, const StepSet& steps)
{
    ReplayGraph graph = buildReplayGraph(trace, steps);
    PLACESCOPE_ASSIGN_OR_RETURN(ReplaySchedule replay, replayGraph(graph));
    return WhatIfModel(trace, std::move(graph), std::move(replay));
}

Result<WhatIfModel> WhatIfModel::build(SqliteDb& db, const TraceData& trace, const StepSet& steps)
{
    if (trace.parts == TraceParts::Everything)
        return build(trace, steps);
    PLACESCOPE_ASSIGN_OR_RETURN(ReplayGraph graph, buildReplayGraph(db, trace, steps));
    PLACESCOPE_ASSIGN_OR_RETURN(ReplaySchedule replay, replayGraph(graph));
    return WhatIfModel(trace, std::move(graph), std::move(replay));
}

Result<TraceData> loadForWhatIf(SqliteDb& db, const std::vector<WhatIfEdit>& edits, StepSet* steps)
{
    const bool readsFrameworkOps = std::any_of(edits.begin(), edits.end(), [](const WhatIfEdit& e) {
        return e.kind == WhatIfEdit::Kind::MoveOp || e.kind == WhatIfEdit::Kind::DropOp
            || e.kind == WhatIfEdit::Kind::Input;
    });
    PLACESCOPE_ASSIGN_OR_RETURN(
        TraceData trace, TraceData::load(db, readsFrameworkOps ? TraceParts::Everything : TraceParts::ForReplay));
    *steps = detectSteps(trace);
    const bool stepsFromRanges
        = steps->source == StepSet::Source::Recorded || steps->source == StepSet::Source::Annotation;
    if (trace.parts == TraceParts::ForReplay && !stepsFromRanges) {
        PLACESCOPE_RETURN_IF_ERROR(forEachGpuOp(db, true, [&](const GpuOp& op) { trace.gpuOps.push_back(op); }));
        *steps = detectSteps(trace);
        trace.gpuOps = std::vector<GpuOp>(); // releases the memory, which `= {}` would keep
#ifdef __GLIBC__
        // The step rules' many small allocations are free now but stay in the heap, where the graph's large
        // arrays (mapped on their own) cannot reuse them: give them back before the graph is built.
        malloc_trim(0);
#endif
    }
    return trace;
}

WhatIfModel::WhatIfModel(const TraceData& trace, ReplayGraph graph, ReplaySchedule replay)
    : m_trace(&trace)
    , m_graph(std::move(graph))
    , m_schedule(std::move(replay))
{
    m_measured = figures(m_graph, nullptr);
    m_replay = figures(m_graph, &m_schedule);
    // The band is the spread of the measured step times by the one step rule, the times the mean step is made of.
    std::vector<int64_t> stepNs;
    for (const StepTime& step : m_measured.steps.steps)
        stepNs.push_back(step.durationNs);
    m_band = stepBandOf(stepNs);
}

namespace {

// The step whose critical path is asked for (nullptr: the whole span); errors: a step the trace does not have.
Result<const ReplayStep*> pathStepOf(const ReplayGraph& graph, int64_t number)
{
    if (number < 0)
        return static_cast<const ReplayStep*>(nullptr);
    for (const ReplayStep& s : graph.steps)
        if (s.number == number)
            return &s;
    std::string known;
    for (const ReplayStep& s : graph.steps)
        known += (known.empty() ? "" : ", ") + std::to_string(s.number);
    return Status::error(
        "step " + std::to_string(number) + " is not in the trace (steps: " + (known.empty() ? "none" : known) + ")");
}

} // namespace

ClassTimes WhatIfModel::measuredClasses() const { return classTimes(m_graph, nullptr, *m_trace); }

Result<WhatIfResult> WhatIfModel::measuredPart(const WhatIfOptions& options) const
{
    const ReplayGraph& measured = m_graph;
    const ReplaySchedule& replay = m_schedule;
    PLACESCOPE_ASSIGN_OR_RETURN(const ReplayStep* pathStep, pathStepOf(measured, options.criticalPathStep));
    WhatIfResult result;
    result.stepSource = measured.stepSource;
    result.stepCount = static_cast<int64_t>(measured.steps.size());
    result.quality = measured.quality;
    result.measured = m_measured;
    result.replay = m_replay;
    auto [replayLast, replayWindow] = pathEnd(measured, replay, pathStep);
    result.replayPath = criticalPath(measured, replay, replayLast, replayWindow);

    // Busy time of the span's work per lane; the predicted column is filled once the edited graph is replayed.
    result.measuredTaskCount = measured.tasks.size();
    result.lanes.resize(measured.lanes.size());
    for (size_t l = 0; l < measured.lanes.size(); ++l)
        result.lanes[l].label = measured.lanes[l].label;
    for (size_t id = 0; id < measured.tasks.size(); ++id) {
        if (!measured.inSpan[id])
            continue;
        const ReplayTask& t = measured.tasks[id];
        result.lanes[t.lane].measuredNs += t.measuredEnd - t.measuredStart;
        result.lanes[t.lane].replayNs += replay.end[id] - replay.start[id];
    }
    result.measuredClassNs = classTimes(measured, nullptr, *m_trace);
    result.band = m_band;
    result.signature = runSignature(*m_trace, m_graph);
    const double stepError = result.replayStepError(), spanError = result.replaySpanError();
    if (stepError != 0.0 || spanError != 0.0)
        result.accuracyNotes.push_back(replayAccuracyText(result)
            + "; each count below is a place where the trace could not be taken as measured");
    for (std::string& note : qualityNotes(measured.quality))
        result.accuracyNotes.push_back(std::move(note));
    return result;
}

Status WhatIfModel::predictedPart(const WhatIfOptions& options, ReplayGraph predicted, WhatIfResult& result) const
{
    PLACESCOPE_ASSIGN_OR_RETURN(const ReplayStep* pathStep, pathStepOf(predicted, options.criticalPathStep));
    result.edits = applyEdits(*m_trace, options.edits, predicted);
    PLACESCOPE_ASSIGN_OR_RETURN(ReplaySchedule prediction, replayGraph(predicted));
    result.predicted = figures(predicted, &prediction);
    auto [predictedLast, predictedWindow] = pathEnd(predicted, prediction, pathStep);
    result.predictedPath = criticalPath(predicted, prediction, predictedLast, predictedWindow);

    // Lanes an edit added (overlap-comm) are listed after the measured ones.
    for (size_t l = result.lanes.size(); l < predicted.lanes.size(); ++l)
        result.lanes.push_back({ predicted.lanes[l].label, 0, 0, 0 });
    for (size_t id = 0; id < predicted.tasks.size(); ++id)
        if (predicted.inSpan[id] && !predicted.tasks[id].dropped)
            result.lanes[predicted.tasks[id].lane].predictedNs += prediction.end[id] - prediction.start[id];
    std::erase_if(result.lanes, [](const LaneBusy& l) { return l.measuredNs == 0 && l.predictedNs == 0; });
    result.predictedClassNs = classTimes(predicted, &prediction, *m_trace);
    result.predictedGraph = std::move(predicted);
    result.predictedSchedule = std::move(prediction);
    return Status::ok();
}

Result<WhatIfResult> WhatIfModel::predict(const WhatIfOptions& options) const&
{
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfResult result, measuredPart(options));
    PLACESCOPE_RETURN_IF_ERROR(predictedPart(options, m_graph, result));
    return result;
}

Result<WhatIfResult> WhatIfModel::predict(const WhatIfOptions& options) &&
{
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfResult result, measuredPart(options));
    // The replay's figures and path are in the result now: its schedule goes, and the graph is edited in place,
    // before the edited replay allocates its own (a 10M-event trace then holds one graph and one schedule).
    m_schedule = ReplaySchedule();
    PLACESCOPE_RETURN_IF_ERROR(predictedPart(options, std::move(m_graph), result));
    return result;
}

Result<WhatIfResult> runWhatIf(const TraceData& trace, const StepSet& steps, const WhatIfOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfModel model, WhatIfModel::build(trace, steps));
    return std::move(model).predict(options);
}

Result<WhatIfResult> runWhatIf(SqliteDb& db, const TraceData& trace, const StepSet& steps, const WhatIfOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfModel model, WhatIfModel::build(db, trace, steps));
    return std::move(model).predict(options);
}

namespace {

Status fillComparison(WhatIfResult& result, const RunFigures& measured, int64_t stepCount, const ClassTimes& classes,
    const RunSignature& after, const StepBand& afterBand)
{
    MeasuredComparison c;
    c.measuredBand = afterBand;
    c.verdict = judgeMeasured(result.band, result.predicted.stepNs, afterBand, measured.stepNs);
    c.notComparable = comparabilityWarnings(result.signature, after);
    c.measuredClassNs = classes;
    c.stepCount = stepCount;
    c.measured = measured;
    c.stepError = WhatIfResult::relativeError(result.predicted.stepNs, c.measured.stepNs);
    c.spanError = WhatIfResult::relativeError(result.predicted.spanNs, c.measured.spanNs);
    result.comparison = c;
    return Status::ok();
}

} // namespace

Status compareWithMeasured(WhatIfResult& result, SqliteDb& after)
{
    StepSet steps;
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, loadForWhatIf(after, {}, &steps));
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfModel model, WhatIfModel::build(after, trace, steps));
    return fillComparison(result, model.measured(), static_cast<int64_t>(steps.steps.size()), model.measuredClasses(),
        model.signature(), model.band());
}

Status compareWithMeasured(WhatIfResult& result, const TraceData& after, const StepSet& afterSteps)
{
    PLACESCOPE_ASSIGN_OR_RETURN(WhatIfModel model, WhatIfModel::build(after, afterSteps));
    return fillComparison(result, model.measured(), static_cast<int64_t>(afterSteps.steps.size()),
        model.measuredClasses(), model.signature(), model.band());
}

} // namespace placescope
