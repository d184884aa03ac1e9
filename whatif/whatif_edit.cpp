// SPDX-License-Identifier: MIT
#include "whatif/whatif_edit.h"

#include "whatif/drop_op_edit.h"
#include "whatif/loader_workers_edit.h"
#include "whatif/move_op_edit.h"
#include "whatif/trace_link.h"

#include "analysis/trace/device_timeline.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <unordered_map>

namespace placescope {

namespace {

Result<double> parseFactor(const std::string& text, const std::string& edit)
{
    std::string digits = !text.empty() && text[0] == 'x' ? text.substr(1) : text;
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() || !std::isfinite(value) || value < 0)
        return Status::error("edit '" + edit + "': '" + text + "' is not a factor (write xF with F >= 0, e.g. x0.5)");
    return value;
}

Result<NamePattern> compile(const std::string& pattern, const std::string& edit)
{
    auto compiled = NamePattern::compile(pattern);
    if (!compiled.isOk())
        return Status::error("edit '" + edit + "': " + compiled.status().message());
    return compiled;
}

std::string factorText(double factor)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "x%g", factor);
    return buffer;
}

int64_t scaled(int64_t ns, double factor)
{
    return static_cast<int64_t>(std::llround(static_cast<double>(ns) * factor));
}

bool matches(const WhatIfEdit& edit, const std::string& name)
{
    return edit.pattern.empty() || edit.regex.search(name);
}

// Whether an edit's regex matches a task's name, asked once per distinct name (names repeat).
class NameMatcher
{
public:
    NameMatcher(const TraceData& trace, const WhatIfEdit& edit, bool apiBase)
        : m_trace(trace)
        , m_edit(edit)
        , m_apiBase(apiBase)
    { }
    bool operator()(const ReplayTask& task)
    {
        // Kernels and host calls are named by their StringIds id; copies and memsets by kind and flags.
        const int64_t key = task.kind == TaskKind::Kernel || task.kind == TaskKind::HostCall ? task.nameId
                                                                                             : -16
                - (static_cast<int64_t>(task.kind) * 8 + task.pageable * 2 + task.hostToDevice
                    + (task.nameId == -2) * 4);
        auto [it, fresh] = m_cache.try_emplace(key, false);
        if (fresh) {
            const std::string name = taskName(m_trace, task);
            it->second = matches(m_edit, m_apiBase ? apiBaseName(name) : name);
        }
        return it->second;
    }

private:
    const TraceData& m_trace;
    const WhatIfEdit& m_edit;
    bool m_apiBase;
    std::unordered_map<int64_t, bool> m_cache;
};

// Host calls whose every GPU op was dropped are gone too; calls that waited only for dropped work no longer wait.
void dropOrphanedLaunches(ReplayGraph& graph)
{
    std::vector<int32_t> launched(graph.tasks.size(), 0), kept(graph.tasks.size(), 0);
    for (const ReplayTask& t : graph.tasks)
        if (t.launcher >= 0) {
            ++launched[t.launcher];
            if (!t.dropped)
                ++kept[t.launcher];
        }
    for (size_t id = 0; id < graph.tasks.size(); ++id)
        if (launched[id] > 0 && kept[id] == 0) {
            graph.tasks[id].duration = 0;
            graph.clearWaits(graph.tasks[id]);
        }
}

int64_t medianLaunchCost(const ReplayGraph& graph)
{
    std::vector<int64_t> costs;
    for (const ReplayTask& t : graph.tasks)
        if (t.role == HostRole::Launch)
            costs.push_back(t.duration);
    if (costs.empty())
        return 5000;
    auto mid = costs.begin() + static_cast<std::ptrdiff_t>(costs.size() / 2);
    std::nth_element(costs.begin(), mid, costs.end());
    return *mid;
}

// Host ranges that load or preprocess input, per thread.
std::map<int64_t, IntervalList> inputRangesByThread(const TraceData& trace)
{
    std::map<int64_t, std::vector<Interval>> ranges;
    std::map<int64_t, bool> isInput;
    for (const HostRange& r : trace.hostRanges) {
        auto [it, fresh] = isInput.try_emplace(r.nameId, false);
        if (fresh)
            it->second = isDataLoadingRange(trace.name(r.nameId));
        if (it->second)
            ranges[r.globalTid].push_back({ r.startNs, r.endNs });
    }
    std::map<int64_t, IntervalList> merged;
    for (auto& [tid, list] : ranges)
        merged[tid] = mergeIntervals(std::move(list));
    return merged;
}

int64_t overlap(const IntervalList& list, int64_t begin, int64_t end)
{
    int64_t total = 0;
    for (const Interval& i : list)
        total += std::max<int64_t>(0, std::min(end, i.endNs) - std::max(begin, i.startNs));
    return total;
}

// What each edit's `matched` counts.
const char* matchedUnit(WhatIfEdit::Kind kind)
{
    switch (kind) {
    case WhatIfEdit::Kind::NoSync:
        return "host waits";
    case WhatIfEdit::Kind::Kernels:
    case WhatIfEdit::Kind::Drop:
        return "GPU ops";
    case WhatIfEdit::Kind::Pinned:
        return "copies";
    case WhatIfEdit::Kind::Launch:
        return "launch calls";
    case WhatIfEdit::Kind::Input:
        return "host gaps";
    case WhatIfEdit::Kind::LoaderWorkers:
        return "batch loads";
    case WhatIfEdit::Kind::OverlapComm:
        return "communication kernels";
    case WhatIfEdit::Kind::MoveOp:
    case WhatIfEdit::Kind::DropOp:
        return "ops";
    }
    return "";
}

} // namespace

Result<WhatIfEdit> parseEdit(const std::string& text)
{
    WhatIfEdit edit;
    edit.text = text;
    auto withPattern = [&](const std::string& pattern) -> Result<WhatIfEdit> {
        edit.pattern = pattern;
        if (!pattern.empty()) {
            PLACESCOPE_ASSIGN_OR_RETURN(edit.regex, compile(pattern, text));
        }
        return edit;
    };
    auto startsWith = [&](const char* prefix) { return text.rfind(prefix, 0) == 0; };
    if (text == "no-sync" || startsWith("no-sync:")) {
        edit.kind = WhatIfEdit::Kind::NoSync;
        return withPattern(text == "no-sync" ? "" : text.substr(8));
    }
    if (text == "pinned") {
        edit.kind = WhatIfEdit::Kind::Pinned;
        return edit;
    }
    if (text == "overlap-comm") {
        edit.kind = WhatIfEdit::Kind::OverlapComm;
        return edit;
    }
    if (startsWith("drop:op:") && text.size() > 8) {
        edit.kind = WhatIfEdit::Kind::DropOp;
        edit.pattern = text.substr(8);
        return edit;
    }
    if (startsWith("drop:") && text.size() > 5) {
        edit.kind = WhatIfEdit::Kind::Drop;
        return withPattern(text.substr(5));
    }
    if (startsWith("launch=") || startsWith("input=")) {
        edit.kind = startsWith("launch=") ? WhatIfEdit::Kind::Launch : WhatIfEdit::Kind::Input;
        PLACESCOPE_ASSIGN_OR_RETURN(edit.factor, parseFactor(text.substr(text.find('=') + 1), text));
        return edit;
    }
    if (startsWith("workers=")) {
        const std::string count = text.substr(8);
        const bool digits = !count.empty() && count.size() <= 3
            && std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; });
        const long workers = digits ? std::stol(count) : 0;
        if (workers < 1 || workers > 256)
            return Status::error("edit '" + text + "': write workers=N with N from 1 to 256 (e.g. workers=4)");
        edit.kind = WhatIfEdit::Kind::LoaderWorkers;
        edit.factor = static_cast<double>(workers);
        return edit;
    }
    if (startsWith("kernels:")) {
        const size_t equals = text.rfind('=');
        if (equals == std::string::npos || equals <= 8)
            return Status::error("edit '" + text + "': write kernels:REGEX=xF (e.g. kernels:gemm=x0.5)");
        edit.kind = WhatIfEdit::Kind::Kernels;
        PLACESCOPE_ASSIGN_OR_RETURN(edit.factor, parseFactor(text.substr(equals + 1), text));
        return withPattern(text.substr(8, equals - 8));
    }
    if (startsWith("op:")) {
        const size_t equals = text.rfind('=');
        const std::string target = equals == std::string::npos ? "" : text.substr(equals + 1);
        if (equals == std::string::npos || equals <= 3 || (target != "cpu" && target != "gpu"))
            return Status::error("edit '" + text + "': write op:NAME=cpu or op:NAME=gpu");
        edit.kind = WhatIfEdit::Kind::MoveOp;
        edit.pattern = text.substr(3, equals - 3);
        edit.toCpu = target == "cpu";
        return edit;
    }
    return Status::error("'" + text
        + "' is not an edit; use no-sync[:REGEX], kernels:REGEX=xF, drop:REGEX, drop:op:NAME, pinned, launch=xF, "
          "input=xF, workers=N, op:NAME=cpu|gpu, overlap-comm");
}

std::vector<EditOutcome> applyEdits(const TraceData& trace, const std::vector<WhatIfEdit>& edits, ReplayGraph& graph)
{
    std::vector<EditOutcome> outcomes;
    for (const WhatIfEdit& edit : edits) {
        EditOutcome out;
        out.text = edit.text;
        switch (edit.kind) {
        case WhatIfEdit::Kind::NoSync: {
            out.understood = edit.pattern.empty() ? "every host wait removed"
                                                  : "host waits of calls matching /" + edit.pattern + "/ removed";
            out.how = "each call keeps its own cost (what calls of its name took when the GPU had nothing left)";
            NameMatcher matcher(trace, edit, true);
            for (ReplayTask& t : graph.tasks)
                if (t.kind == TaskKind::HostCall && graph.waits(t) && matcher(t)) {
                    graph.clearWaits(t);
                    ++out.matched;
                }
            break;
        }
        case WhatIfEdit::Kind::Kernels: {
            out.understood = "GPU ops matching /" + edit.pattern + "/ take " + factorText(edit.factor) + " as long";
            out.how = "measured durations scaled";
            NameMatcher matcher(trace, edit, false);
            for (ReplayTask& t : graph.tasks)
                if (t.isGpu() && !t.dropped && matcher(t)) {
                    t.duration = scaled(t.duration, edit.factor);
                    if (t.links >= 0)
                        graph.links[t.links].collectiveLag = scaled(graph.links[t.links].collectiveLag, edit.factor);
                    ++out.matched;
                }
            break;
        }
        case WhatIfEdit::Kind::Drop: {
            out.understood = "GPU ops matching /" + edit.pattern + "/ and their launch calls removed";
            out.how = "the ops leave their streams; what queued behind them keeps its own gaps";
            NameMatcher matcher(trace, edit, false);
            for (ReplayTask& t : graph.tasks)
                if (t.isGpu() && !t.dropped && matcher(t)) {
                    t.dropped = true;
                    ++out.matched;
                }
            dropOrphanedLaunches(graph);
            break;
        }
        case WhatIfEdit::Kind::Pinned: {
            out.understood = "pageable copies made pinned and asynchronous";
            std::string toDeviceHow, toHostHow;
            const LinkFit toDevice = pinnedLinkOfTrace(trace, graph, true, &toDeviceHow);
            const LinkFit toHost = pinnedLinkOfTrace(trace, graph, false, &toHostHow);
            const int64_t launchCost = medianLaunchCost(graph);
            out.how = "copy time = latency + bytes / bandwidth (HtoD from " + toDeviceHow + "; DtoH from " + toHostHow
                + "); the copy call costs a launch (" + formatNanoseconds(static_cast<double>(launchCost))
                + ", the trace's median launch call)";
            for (int32_t id = 0; id < static_cast<int32_t>(graph.tasks.size()); ++id) {
                ReplayTask& t = graph.tasks[id];
                if (t.kind != TaskKind::Memcpy || !t.pageable || t.dropped)
                    continue;
                t.pageable = false;
                const LinkFit& link = t.hostToDevice ? toDevice : toHost;
                t.duration = static_cast<int64_t>(std::llround(link.transferUs(graph.linksOf(t).bytes) * 1e3));
                if (t.launcher >= 0) {
                    ReplayTask& call = graph.tasks[t.launcher];
                    const ReplayLinks& callLinks = graph.linksOf(call);
                    for (uint32_t a = callLinks.awaitBegin; a < callLinks.awaitEnd; ++a)
                        if (graph.awaited[a] == id) {
                            graph.clearWaits(call);
                            call.role = HostRole::Launch;
                            call.duration = std::min(call.duration, launchCost);
                            break;
                        }
                }
                ++out.matched;
            }
            break;
        }
        case WhatIfEdit::Kind::Launch:
            out.understood = "launch calls take " + factorText(edit.factor) + " of their CPU time";
            out.how = "measured durations of launch calls scaled";
            for (ReplayTask& t : graph.tasks)
                if (t.kind == TaskKind::HostCall && t.role == HostRole::Launch) {
                    t.duration = scaled(t.duration, edit.factor);
                    ++out.matched;
                }
            break;
        case WhatIfEdit::Kind::Input: {
            out.understood = "input-pipeline time on the host takes " + factorText(edit.factor) + " as long";
            out.how = "host gaps overlapping data-loading ranges (DataLoader, preprocessing) scaled by their overlap, "
                      "the first step's too (the time from its start to the thread's first call); a loader thread's "
                      "work scaled, and the waits for it left to follow";
            const auto inputRanges = inputRangesByThread(trace);
            int64_t loaderItems = 0;
            for (ReplayTask& t : graph.tasks)
                if (t.loaderWork && !t.dropped) {
                    t.duration = scaled(t.duration, edit.factor);
                    ++loaderItems;
                }
            for (const ReplayLane& lane : graph.lanes) {
                auto ranges = inputRanges.find(lane.globalTid);
                if (lane.kind != ReplayLane::Kind::Host || ranges == inputRanges.end() || lane.tasks.empty())
                    continue;
                // The thread's first call: the input time between the start of the step it is in and the call (its
                // anchor moves by it; trace_replay.cpp), so the first step is edited like the others.
                ReplayTask& first = graph.tasks[lane.tasks.front()];
                const int32_t firstWaitedFor = graph.linksOf(first).crossPred;
                const bool firstFollowsLoader
                    = first.loaderWork || (firstWaitedFor >= 0 && graph.tasks[firstWaitedFor].loaderWork);
                int64_t stepStart = INT64_MIN;
                for (const ReplayStep& s : graph.steps)
                    if (s.startNs <= first.measuredStart)
                        stepStart = std::max(stepStart, s.startNs);
                if (stepStart != INT64_MIN && !firstFollowsLoader) {
                    const int64_t inInput = overlap(ranges->second, stepStart, first.measuredStart);
                    if (inInput > 0) {
                        first.laneGap -= inInput - scaled(inInput, edit.factor);
                        ++out.matched;
                    }
                }
                for (size_t i = 1; i < lane.tasks.size(); ++i) {
                    ReplayTask& t = graph.tasks[lane.tasks[i]];
                    const int32_t waitedFor = graph.linksOf(t).crossPred;
                    if (t.loaderWork || (waitedFor >= 0 && graph.tasks[waitedFor].loaderWork))
                        continue; // the loader's work is scaled above; a wait for it follows it
                    const int64_t inInput
                        = overlap(ranges->second, graph.tasks[lane.tasks[i - 1]].measuredEnd, t.measuredStart);
                    if (inInput > 0) {
                        t.laneGap -= inInput - scaled(inInput, edit.factor);
                        ++out.matched;
                    }
                }
            }
            if (loaderItems > 0)
                out.matchedWhat = std::to_string(out.matched) + " host gaps, " + std::to_string(loaderItems)
                    + " ranges of loader threads' work";
            out.matched += loaderItems;
            break;
        }
        case WhatIfEdit::Kind::OverlapComm: {
            out.understood = "communication kernels on a stream of their own, each after the op it followed";
            out.how = "each moved kernel waits for its former stream predecessor; work behind it no longer waits";
            std::map<std::pair<int64_t, int64_t>, int32_t> commLane;
            std::vector<ReplayLane> added;
            for (ReplayLane& lane : graph.lanes) {
                if (lane.kind != ReplayLane::Kind::Gpu)
                    continue;
                std::vector<int32_t> stay;
                int32_t previous = -1;
                for (int32_t id : lane.tasks) {
                    ReplayTask& t = graph.tasks[id];
                    if (!t.communication || t.dropped) {
                        stay.push_back(id);
                        previous = id;
                        continue;
                    }
                    auto [it, fresh] = commLane.try_emplace(
                        { lane.globalPid, lane.deviceId }, static_cast<int32_t>(graph.lanes.size() + added.size()));
                    if (fresh) {
                        ReplayLane comm = lane;
                        comm.streamId = -1;
                        comm.label = lane.label.substr(0, lane.label.rfind("stream")) + "communication";
                        comm.tasks.clear();
                        added.push_back(std::move(comm));
                    }
                    ReplayLane& target = added[static_cast<size_t>(it->second) - graph.lanes.size()];
                    if (previous >= 0 && graph.linksOf(t).crossPred < 0) {
                        ReplayLinks& links = graph.linksFor(t);
                        links.crossPred = previous;
                        links.crossLag = 0;
                    }
                    t.laneGap = std::min<int64_t>(t.laneGap, 0);
                    t.lane = it->second;
                    target.tasks.push_back(id);
                    ++out.matched;
                }
                lane.tasks = std::move(stay);
            }
            for (ReplayLane& lane : added) {
                std::sort(lane.tasks.begin(), lane.tasks.end(),
                    [&](int32_t a, int32_t b) { return graph.tasks[a].measuredStart < graph.tasks[b].measuredStart; });
                graph.lanes.push_back(std::move(lane));
            }
            break;
        }
        case WhatIfEdit::Kind::MoveOp:
            out = applyMoveOp(trace, edit, graph); // it zeroes the moved op's own calls itself
            out.matchedWhat = std::to_string(out.matched) + " ops";
            break;
        case WhatIfEdit::Kind::DropOp:
            out = applyDropOp(trace, edit, graph);
            break;
        case WhatIfEdit::Kind::LoaderWorkers:
            out = applyLoaderWorkers(trace, edit, graph);
            break;
        }
        if (out.matched == 0)
            out.how = out.whyNothing.empty() ? "matched nothing in this trace: no change"
                                             : "matched nothing: " + out.whyNothing;
        if (out.matchedWhat.empty())
            out.matchedWhat = std::to_string(out.matched) + " " + matchedUnit(edit.kind);
        outcomes.push_back(std::move(out));
    }
    return outcomes;
}

} // namespace placescope
