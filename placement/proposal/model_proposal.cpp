// SPDX-License-Identifier: MIT
// Gathers the facts of a model proposal: the reason for each op's device (pinned, no kernel elsewhere,
// cheaper once its transfers are counted), runs of ops per device, the transfers left, the comparisons.
#include "placement/proposal/model_proposal.h"

#include "placement/engine/problem_file.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

// Cost of `op` on `device` plus the transfers on its edges given where its neighbours are.
double localCost(const OpGraph& graph, const std::vector<std::vector<int>>& edgesOf, const std::vector<int>& assignment,
    int op, int device, double* transferUs)
{
    double transfers = 0;
    for (int e : edgesOf[op]) {
        const PlacementEdge& edge = graph.edges[e];
        if (edge.from == op)
            transfers += graph.transferUs(device, assignment[edge.to], edge.bytes);
        else
            transfers += graph.transferUs(assignment[edge.from], device, edge.bytes);
    }
    *transferUs = transfers;
    return graph.ops[op].costUs[device] + transfers;
}

std::string summarizeTypes(const std::map<std::string, int>& counts)
{
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string text;
    size_t shown = 0;
    for (const auto& [type, count] : sorted) {
        if (shown == 4) {
            text += ", ...";
            break;
        }
        text += (shown++ ? ", " : "") + type + " " + std::to_string(count);
    }
    return text;
}

} // namespace

const char* placementReasonKey(PlacementReason reason)
{
    switch (reason) {
    case PlacementReason::FrameworkDefault:
        return "framework_default";
    case PlacementReason::Pinned:
        return "pinned";
    case PlacementReason::NoKernel:
        return "no_kernel";
    case PlacementReason::Cheaper:
        return "cheaper_with_transfers";
    case PlacementReason::WithConsumer:
        return "with_consumer";
    case PlacementReason::HostEnd:
        return "host_end";
    }
    return "unknown";
}

std::vector<int> deviceOfModelOps(
    const ModelGraph& model, const PlacementModel& placement, const std::vector<int>& assignment)
{
    std::vector<int> devices(model.ops.size(), kCpu);
    std::vector<bool> known(model.ops.size(), false);
    for (size_t i = 0; i < model.ops.size() && i < placement.graphOpOfModelOp.size(); ++i) {
        const int g = placement.graphOpOfModelOp[i];
        if (g >= 0 && g < static_cast<int>(assignment.size())) {
            devices[i] = assignment[g];
            known[i] = true;
        }
    }
    // A weight producer lives with its first consumer; consumers come later in model order, so walk backwards.
    std::vector<int> firstConsumer(model.values.size(), -1);
    for (size_t i = model.ops.size(); i-- > 0;)
        for (int v : model.ops[i].inputs)
            if (v >= 0 && v < static_cast<int>(model.values.size()))
                firstConsumer[v] = static_cast<int>(i);
    for (size_t i = model.ops.size(); i-- > 0;) {
        if (known[i])
            continue;
        for (int v : model.ops[i].outputs) {
            const int consumer = v >= 0 && v < static_cast<int>(model.values.size()) ? firstConsumer[v] : -1;
            if (consumer >= 0) {
                devices[i] = devices[consumer];
                break;
            }
        }
    }
    return devices;
}

ModelProposal buildModelProposal(const ModelGraph& model, const PlacementModel& placement,
    const PlacementFigures& figures, const LayoutResult& layout, const ModelProposalContext& context)
{
    const Proposal& proposal = figures.proposal;
    const OpGraph& graph = placement.graph;
    ModelProposal out;
    out.context = context;
    out.source = model.source;
    out.proposal = proposal;
    out.layout = layout;
    // Short kind names ("cpu", "gpu") as --pin takes them; the engine's "assignment" keeps the full names.
    for (const PlacementDevice& device : graph.devices)
        out.deviceNames.push_back(device.kind == DeviceKind::Gpu ? "gpu" : "cpu");
    while (out.deviceNames.size() < 2)
        out.deviceNames.push_back(out.deviceNames.empty() ? "cpu" : "gpu");
    for (const ModelOp& op : model.ops) {
        out.modelOpNames.push_back(op.name);
        out.modelOpTypes.push_back(op.type);
    }
    for (const ModelValue& value : model.values)
        out.valueNames.push_back(value.name);

    std::vector<std::vector<int>> edgesOf(graph.ops.size());
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        edgesOf[graph.edges[e].from].push_back(static_cast<int>(e));
        edgesOf[graph.edges[e].to].push_back(static_cast<int>(e));
    }
    const std::vector<int> modelDevices = deviceOfModelOps(model, placement, proposal.assignment);
    const std::vector<int> defaultDevices = deviceOfModelOps(model, placement, placement.frameworkDefault);
    const std::string& cpuName = out.deviceNames[kCpu];
    const std::string& gpuName = out.deviceNames[kGpu];
    for (size_t i = 0; i < model.ops.size(); ++i) {
        OpDecision d;
        d.modelOp = static_cast<int>(i);
        d.graphOp = i < placement.graphOpOfModelOp.size() ? placement.graphOpOfModelOp[i] : -1;
        d.device = modelDevices[i];
        d.defaultDevice = defaultDevices[i];
        d.ranOn = model.ops[i].measuredDevice;
        d.provider = model.ops[i].measuredProvider;
        d.cpuMeasured = model.ops[i].measuredCpuUs >= 0;
        d.gpuMeasured = model.ops[i].measuredGpuUs >= 0;
        if (d.graphOp < 0) {
            d.reason = PlacementReason::WithConsumer;
            d.why = "produces a weight: placed with its consumer";
            out.ops.push_back(std::move(d));
            continue;
        }
        const PlacementOp& op = graph.ops[d.graphOp];
        const int other = 1 - d.device;
        const std::string& here = d.device == kGpu ? gpuName : cpuName;
        const std::string& there = other == kGpu ? gpuName : cpuName;
        if (op.pin && *op.pin == d.device) {
            d.reason = PlacementReason::Pinned;
            d.why = "pinned to " + here;
        } else if (!std::isfinite(op.costUs[other])) {
            d.reason = PlacementReason::NoKernel;
            d.why = "no " + there + " kernel in the " + context.framework + " table";
        } else {
            double transfersHere = 0, transfersThere = 0;
            const double costHere = localCost(graph, edgesOf, proposal.assignment, d.graphOp, d.device, &transfersHere);
            const double costThere = localCost(graph, edgesOf, proposal.assignment, d.graphOp, other, &transfersThere);
            d.reason = d.device != d.defaultDevice ? PlacementReason::Cheaper : PlacementReason::FrameworkDefault;
            auto measured
                = [&d](int device) { return (device == kGpu ? d.gpuMeasured : d.cpuMeasured) ? " (measured)" : ""; };
            d.why = here + " " + formatNanoseconds(op.costUs[d.device] * 1e3) + measured(d.device) + " + transfers "
                + formatNanoseconds(transfersHere * 1e3) + " vs " + there + " "
                + formatNanoseconds(op.costUs[other] * 1e3) + measured(other) + " + transfers "
                + formatNanoseconds(transfersThere * 1e3);
            if (costHere > costThere)
                d.why += " (moving it alone costs less, but its neighbours would then pay more)";
        }
        out.ops.push_back(std::move(d));
    }

    // Runs of compute ops on one device, in model order.
    std::map<std::string, int> types;
    for (const OpDecision& d : out.ops) {
        if (d.graphOp < 0)
            continue;
        if (out.runs.empty() || out.runs.back().device != d.device) {
            if (!out.runs.empty())
                out.runs.back().typeSummary = summarizeTypes(types);
            types.clear();
            DeviceRun run;
            run.device = d.device;
            run.firstOp = d.modelOp;
            out.runs.push_back(run);
        }
        DeviceRun& run = out.runs.back();
        run.lastOp = d.modelOp;
        ++run.opCount;
        run.costUs += graph.ops[d.graphOp].costUs[d.device];
        ++types[model.ops[d.modelOp].type];
    }
    if (!out.runs.empty())
        out.runs.back().typeSummary = summarizeTypes(types);

    for (size_t e = 0; e < graph.edges.size(); ++e) {
        const PlacementEdge& edge = graph.edges[e];
        const int from = proposal.assignment[edge.from];
        const int to = proposal.assignment[edge.to];
        if (from == to)
            continue;
        RemainingTransfer t;
        t.edge = static_cast<int>(e);
        t.from = graph.ops[edge.from].id;
        t.to = graph.ops[edge.to].id;
        t.fromDevice = from;
        t.toDevice = to;
        t.bytes = edge.bytes;
        t.us = graph.transferUs(from, to, edge.bytes);
        out.transfers.push_back(std::move(t));
    }
    std::stable_sort(out.transfers.begin(), out.transfers.end(),
        [](const RemainingTransfer& a, const RemainingTransfer& b) { return a.bytes > b.bytes; });

    out.comparisons = figures.comparisons;
    out.assumptions = placement.assumptions;
    for (const std::string& note : model.notes)
        out.assumptions.push_back("graph: " + note);
    for (const std::string& note : layout.notes)
        out.assumptions.push_back("layout: " + note);
    out.assumptions.push_back("layout: the predicted step times do not include the layout saving; transposes are "
                              "costed as memory-bound copies (2 x bytes / memory bandwidth)");
    for (const std::string& extra : context.extraAssumptions)
        out.assumptions.push_back(extra);
    out.engineJson = proposalToJson(graph, proposal, context.objective);
    return out;
}

} // namespace placescope
