// SPDX-License-Identifier: MIT
#include "whatif/move_op_edit.h"

#include "placement/cost/device_table.h"
#include "placement/cost/op_work.h"
#include "placement/cost/roofline.h"
#include "placement/graph/torch_tensor_facts.h"
#include "profiler/base/units.h"
#include "profiler/model/global_ids.h"
#include "whatif/move_op_round_trip.h"
#include "whatif/trace_link.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace placescope {

namespace {

// One op with its recorded input shapes as a ModelGraph, so the cost model prices it as it prices any model op.
// The output is taken to have the first input's shape (the trace records inputs only).
ModelGraph oneOpGraph(const HostRange& op, const std::string& type, int64_t* inputBytes, int64_t* outputBytes)
{
    ModelGraph graph;
    graph.source = "trace-ops";
    ModelOp node;
    node.name = type;
    node.type = type;
    *inputBytes = 0;
    *outputBytes = 0;
    auto dims = nlohmann::json::parse(op.inputDims, nullptr, false);
    auto types = nlohmann::json::parse(op.inputTypes, nullptr, false);
    if (dims.is_array()) {
        for (size_t i = 0; i < dims.size(); ++i) {
            if (!dims[i].is_array())
                continue;
            ModelValue value;
            value.name = "in" + std::to_string(i);
            value.shapeKnown = true;
            for (const auto& d : dims[i])
                value.shape.push_back(d.is_number_integer() ? d.get<int64_t>() : -1);
            value.dtype = types.is_array() && i < types.size() && types[i].is_string()
                ? dtypeFromTorchName(types[i].get<std::string>())
                : "float32";
            if (value.dtype.empty())
                continue; // a scalar argument, not a tensor
            value.bytes = staticTensorBytes(value.shape, true, value.dtype);
            *inputBytes += value.bytes;
            node.inputs.push_back(static_cast<int>(graph.values.size()));
            graph.values.push_back(value);
        }
    }
    ModelValue output = graph.values.empty() ? ModelValue {} : graph.values.front();
    output.name = "out";
    output.producer = 0;
    *outputBytes = output.bytes;
    node.outputs.push_back(static_cast<int>(graph.values.size()));
    graph.values.push_back(output);
    graph.ops.push_back(std::move(node));
    return graph;
}

// The last GPU task launched before `time` on each GPU lane of the process.
std::vector<int32_t> queuedBefore(const ReplayGraph& graph, int64_t globalPid, int64_t time, int32_t onlyLane = -1)
{
    std::vector<int32_t> last;
    for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l) {
        const ReplayLane& lane = graph.lanes[l];
        if (lane.kind != ReplayLane::Kind::Gpu
            || globalPidOfGlobalTid(lane.globalPid) != globalPidOfGlobalTid(globalPid)
            || (onlyLane >= 0 && l != onlyLane))
            continue;
        int32_t found = -1;
        for (int32_t id : lane.tasks) {
            const ReplayTask& t = graph.tasks[id];
            const int64_t launched = t.launcher >= 0 ? graph.tasks[t.launcher].measuredStart : t.measuredStart;
            if (launched >= time)
                break;
            if (!t.dropped)
                found = id;
        }
        if (found >= 0)
            last.push_back(found);
    }
    return last;
}

// Adds `awaited` to a host task's waits (the ranges of graph.awaited are contiguous per task: copy to the end).
void addWaits(ReplayGraph& graph, ReplayTask& task, const std::vector<int32_t>& awaited, int64_t wake)
{
    ReplayLinks& links = graph.linksFor(task);
    std::vector<int32_t> all(graph.awaited.begin() + links.awaitBegin, graph.awaited.begin() + links.awaitEnd);
    all.insert(all.end(), awaited.begin(), awaited.end());
    links.awaitBegin = static_cast<uint32_t>(graph.awaited.size());
    graph.awaited.insert(graph.awaited.end(), all.begin(), all.end());
    links.awaitEnd = static_cast<uint32_t>(graph.awaited.size());
    links.wake = std::max(links.wake, wake);
    task.role = HostRole::Wait;
}

int64_t toNs(double us) { return static_cast<int64_t>(std::llround(us * 1e3)); }

} // namespace

EditOutcome applyMoveOp(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph)
{
    EditOutcome out;
    out.text = edit.text;
    out.understood = "framework op '" + edit.pattern + "' moved to the " + (edit.toCpu ? "CPU" : "GPU");
    const auto nameId = trace.findNameId(edit.pattern);
    if (!nameId)
        return out;

    auto table = DeviceTable::builtin();
    const DeviceTable* devices = table.isOk() ? &table.value() : nullptr;
    DeviceSpec host, gpu;
    std::string gpuSource = "the trace's GPU";
    if (devices) {
        if (auto spec = devices->device("host"); spec.isOk())
            host = spec.value();
        const DeviceSpec* matched = trace.devices.empty() ? nullptr : devices->matchGpuName(trace.devices.front().name);
        if (matched)
            gpu = *matched;
        else if (auto fallback = devices->device("a100"); fallback.isOk()) {
            gpu = fallback.value();
            gpuSource = "an A100 (the trace names no GPU the table knows)";
        }
    }
    std::string toDeviceHow, toHostHow;
    const LinkFit up = pinnedLinkOfTrace(trace, graph, true, &toDeviceHow);
    const LinkFit down = pinnedLinkOfTrace(trace, graph, false, &toHostHow);

    std::map<int64_t, int32_t> hostLane;
    for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l)
        if (graph.lanes[l].kind == ReplayLane::Kind::Host)
            hostLane[graph.lanes[l].globalTid] = l;
    int64_t coveredUntil = INT64_MIN;
    int64_t coveredTid = -1;
    double estimateUs = 0;
    std::optional<RoundTripMover> roundTrips;
    if (!edit.toCpu)
        roundTrips.emplace(trace, graph, toNs(gpu.launchOverheadUs));
    int64_t viaRoundTrip = 0;
    for (const HostRange& op : trace.hostRanges) {
        if (op.nameId != *nameId || op.isNvtx)
            continue;
        if (op.globalTid == coveredTid && op.startNs < coveredUntil)
            continue; // nested in an occurrence already moved
        auto laneIt = hostLane.find(op.globalTid);
        if (laneIt == hostLane.end())
            continue;
        const ReplayLane& lane = graph.lanes[laneIt->second];
        // Host calls inside the op, and the GPU work they launched.
        std::vector<int32_t> calls;
        for (int32_t id : lane.tasks)
            if (graph.tasks[id].measuredStart >= op.startNs && graph.tasks[id].measuredStart < op.endNs)
                calls.push_back(id);
        std::vector<int32_t> kernels;
        for (size_t id = 0; id < graph.tasks.size(); ++id) {
            const ReplayTask& t = graph.tasks[id];
            if (t.isGpu() && !t.dropped && t.launcher >= 0
                && std::find(calls.begin(), calls.end(), t.launcher) != calls.end())
                kernels.push_back(static_cast<int32_t>(id));
        }
        const bool onGpu = !kernels.empty();
        if (onGpu != edit.toCpu)
            continue; // already where the edit puts it
        if (roundTrips && roundTrips->move(op, laneIt->second)) {
            coveredTid = op.globalTid;
            coveredUntil = op.endNs;
            ++out.matched;
            ++viaRoundTrip;
            continue;
        }
        int64_t inputBytes = 0, outputBytes = 0;
        const ModelGraph model = oneOpGraph(op, trace.name(op.nameId), &inputBytes, &outputBytes);
        const OpWork work = opWork(model, 0);
        // rooflineUs holds the device's dispatch overhead (launchOverheadUs) once already: not added again.
        const double computeUs = rooflineUs(work, edit.toCpu ? host : gpu);
        estimateUs = computeUs;
        if (edit.toCpu) {
            const int64_t costNs = toNs(down.transferUs(inputBytes) + computeUs + up.transferUs(outputBytes));
            std::vector<int32_t> before = queuedBefore(graph, lane.globalPid, op.startNs);
            for (int32_t k : kernels)
                graph.tasks[k].dropped = true;
            for (int32_t call : calls) {
                graph.tasks[call].duration = 0;
                graph.clearWaits(graph.tasks[call]);
            }
            if (calls.empty())
                continue;
            ReplayTask& first = graph.tasks[calls.front()];
            first.duration = costNs;
            first.role = HostRole::Other;
            addWaits(graph, first, before, costNs);
        } else {
            // The first call after the op carries the offload: its gap loses the op's CPU time, and it waits for
            // the kernel, which runs after the work queued on the busiest stream of the process.
            int32_t next = -1;
            for (int32_t id : lane.tasks)
                if (graph.tasks[id].measuredStart >= op.endNs) {
                    next = id;
                    break;
                }
            if (next < 0)
                continue;
            int32_t busiest = -1;
            for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l)
                if (graph.lanes[l].kind == ReplayLane::Kind::Gpu
                    && globalPidOfGlobalTid(graph.lanes[l].globalPid) == globalPidOfGlobalTid(lane.globalPid)
                    && (busiest < 0 || graph.lanes[l].tasks.size() > graph.lanes[busiest].tasks.size()))
                    busiest = l;
            const int64_t offloadNs = toNs(up.transferUs(inputBytes) + computeUs + down.transferUs(outputBytes));
            ReplayTask& t = graph.tasks[next];
            t.laneGap = std::max<int64_t>(0, t.laneGap - (op.endNs - op.startNs)) + offloadNs;
            if (busiest >= 0) {
                std::vector<int32_t> queued = queuedBefore(graph, lane.globalPid, op.endNs, busiest);
                if (!queued.empty()) {
                    const int64_t ownCost = t.duration;
                    addWaits(graph, t, queued, toNs(computeUs + down.transferUs(outputBytes)));
                    t.duration = ownCost;
                }
            }
        }
        coveredTid = op.globalTid;
        coveredUntil = op.endNs;
        ++out.matched;
    }
    out.how = std::string("op time from the roofline of its recorded shapes on ") + (edit.toCpu ? host.name : gpuSource)
        + " (last occurrence: " + formatNanoseconds(estimateUs * 1e3) + "), copies from "
        + (edit.toCpu ? toHostHow : toDeviceHow) + "; the host waits for the moved op's result";
    if (viaRoundTrip > 0) {
        char speedupText[32];
        std::snprintf(speedupText, sizeof speedupText, "%g", kAssumedGpuSpeedup);
        const std::string oneTrip = "the DtoH -> op -> HtoD round trip around " + std::to_string(viaRoundTrip)
            + " occurrence(s) removed (" + std::to_string(roundTrips->copiesDropped()) + " copies, "
            + formatBytes(roundTrips->bytesDropped())
            + ", and the DtoH calls); the op's host time leaves its thread and the call that copied its result "
              "back launches it as a kernel on the busiest stream instead, taking its measured host time / "
            + speedupText + " (assumed speedup), no less than the GPU's "
            + formatNanoseconds(gpu.launchOverheadUs * 1e3) + " launch overhead: last occurrence "
            + formatNanoseconds(static_cast<double>(roundTrips->lastKernelNs())) + ")";
        out.how = viaRoundTrip == out.matched ? oneTrip : oneTrip + "; other occurrences: " + out.how;
    }
    return out;
}

} // namespace placescope
