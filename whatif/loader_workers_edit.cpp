// SPDX-License-Identifier: MIT
#include "whatif/loader_workers_edit.h"

#include "whatif/host_waits.h"

#include "analysis/trace/device_timeline.h"

#include <algorithm>
#include <map>

namespace placescope {

namespace {

// One batch the training thread loaded itself, and how the thread is tied to the worker that takes it over.
struct BatchLoad
{
    int64_t requestedNs = 0; // when the thread began to wait for it (the measured start of the loading)
    int64_t durationNs = 0;
    int32_t nameId = -1;
    int32_t loaderTask = -1; // the loading is a task of its own (a thread that launches nothing: a CPU-only run)
    CallAfterWait after; // else the call that followed the loading in its thread's gap
    int64_t deliveredAt = 0;
};

bool loadsInWorkers(const std::string& name) { return name.find("MultiProcessing") != std::string::npos; }

} // namespace

EditOutcome applyLoaderWorkers(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph)
{
    EditOutcome out;
    out.text = edit.text;
    const int workers = static_cast<int>(edit.factor);
    out.understood = "the DataLoader's loading moved off the training thread to " + std::to_string(workers)
        + (workers == 1 ? " worker process" : " worker processes") + " (num_workers=" + std::to_string(workers) + ")";
    out.how = "each batch's loading, as measured in __next__ on the training thread, runs on worker i mod "
        + std::to_string(workers)
        + " in turn, and the thread waits only until its batch is ready; assumed: the workers filled their queue "
          "before the first step (the iterator was made before it), each has a CPU core of its own (with fewer free "
          "cores the loading is slower than this), and handing a batch over costs nothing";
    // The loads, per process (each rank has its own DataLoader), in the order they were asked for.
    std::map<int64_t, std::vector<BatchLoad>> loadsOfProcess;
    bool alreadyInWorkers = false;
    for (const ReplayLane& lane : graph.lanes)
        for (int32_t id : lane.tasks) {
            const ReplayTask& t = graph.tasks[id];
            if (!t.loaderWork || t.dropped || t.nameId < 0)
                continue;
            const std::string& name = trace.name(t.nameId);
            alreadyInWorkers |= loadsInWorkers(name);
            if (isBatchWait(name) && !loadsInWorkers(name))
                loadsOfProcess[lane.globalPid].push_back({ t.measuredStart, t.duration, t.nameId, id, {}, 0 });
        }
    for (const BatchWait& wait : batchWaitsOfLaunchingThreads(trace, graph)) {
        const std::string& name = trace.name(wait.nameId);
        alreadyInWorkers |= loadsInWorkers(name);
        const CallAfterWait after = callAfterBatchWait(graph, wait);
        if (loadsInWorkers(name) || after.call < 0 || graph.linksOf(graph.tasks[after.call]).crossPred >= 0)
            continue; // bound to a loader thread's work already, or nothing after it to move
        const int64_t deliveredAt = std::min(wait.endNs, graph.tasks[after.call].measuredStart);
        if (deliveredAt > after.waitFromNs)
            loadsOfProcess[graph.lanes[wait.lane].globalPid].push_back(
                { after.waitFromNs, deliveredAt - after.waitFromNs, wait.nameId, -1, after, deliveredAt });
    }
    for (auto& [pid, loads] : loadsOfProcess) {
        std::sort(loads.begin(), loads.end(),
            [](const BatchLoad& a, const BatchLoad& b) { return a.requestedNs < b.requestedNs; });
        const int32_t firstLane = static_cast<int32_t>(graph.lanes.size());
        for (int w = 0; w < workers; ++w) {
            ReplayLane lane;
            lane.kind = ReplayLane::Kind::Host;
            lane.globalPid = pid;
            lane.globalTid = -1 - w; // no thread of the trace: input= finds no ranges of its own on it
            lane.label = "DataLoader worker " + std::to_string(w) + " (predicted)";
            graph.lanes.push_back(std::move(lane));
        }
        // A warm queue: every worker's first batch is ready when the first batch is asked for.
        const int64_t warmStart = loads.front().requestedNs - loads.front().durationNs;
        for (size_t i = 0; i < loads.size(); ++i) {
            const BatchLoad& load = loads[i];
            const int32_t laneIndex = firstLane + static_cast<int32_t>(i % static_cast<size_t>(workers));
            ReplayTask task;
            task.kind = TaskKind::HostCall;
            task.loaderWork = true; // an input= edit after this one scales the workers' loading
            task.nameId = load.nameId;
            task.lane = laneIndex;
            task.duration = load.durationNs;
            task.anchored = graph.lanes[laneIndex].tasks.empty();
            task.measuredStart = task.anchored ? warmStart : load.requestedNs - load.durationNs;
            task.measuredEnd = task.measuredStart + load.durationNs;
            const int32_t produced = static_cast<int32_t>(graph.tasks.size());
            graph.tasks.push_back(task);
            graph.inSpan.push_back(0); // loading ahead of the steps, as a loader thread's work is
            graph.lanes[laneIndex].tasks.push_back(produced);
            if (load.loaderTask >= 0) {
                // The thread's own range becomes its wait for the batch: no CPU time of its own.
                ReplayTask& waiting = graph.tasks[load.loaderTask];
                waiting.duration = 0;
                waiting.loaderWork = false;
                ReplayLinks& links = graph.linksFor(waiting);
                links.crossPred = produced;
                links.crossLag = 0;
            } else {
                waitForProducer(graph, load.after, produced, load.deliveredAt);
            }
            ++out.matched;
        }
    }
    if (alreadyInWorkers)
        out.whyNothing = "this trace's DataLoader already loads in worker processes (_MultiProcessingDataLoaderIter); "
                         "try input=xF on the loader threads' work";
    out.matchedWhat = std::to_string(out.matched) + " batch loads";
    return out;
}

} // namespace placescope
