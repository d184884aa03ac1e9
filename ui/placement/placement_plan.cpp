// SPDX-License-Identifier: MIT
#include "ui/placement/placement_plan.h"

#include "placement/cost/ort_node_times.h"
#include "ui/graphview/graph_collapse.h"
#include "ui/placement/model_source.h"

#include <algorithm>
#include <cmath>

namespace placescope::ui {

Result<PlacementInputs> preparePlacementInputs(std::shared_ptr<const ModelGraph> model, const CostOptions& options)
{
    PlacementInputs inputs;
    inputs.measured = model;
    // Beside an ONNX Runtime profile, the nodes it measured cost what they took there (as in `placescope place`).
    if (!options.tracePath.empty()) {
        PLACESCOPE_ASSIGN_OR_RETURN(auto measured, withTraceMeasurements(*model, options.tracePath));
        inputs.measured = std::make_shared<const ModelGraph>(std::move(measured));
    }
    PLACESCOPE_ASSIGN_OR_RETURN(auto placement, buildPlacementModel(*inputs.measured, options));
    inputs.opLayout.reserve(model->ops.size());
    for (const ModelOp& op : model->ops)
        inputs.opLayout.push_back(inputLayout(*model, op));
    inputs.placement = std::make_shared<const PlacementModel>(std::move(placement));
    inputs.model = std::move(model);
    return inputs;
}

Result<PlacementInputs> loadPlacementInputs(const std::string& modelPath, const CostOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto model, readModelGraph(modelPath));
    return preparePlacementInputs(std::make_shared<const ModelGraph>(std::move(model)), options);
}

Result<PlacementPlan> planPlacement(const PlacementInputs& inputs, const PinMap& pins, Objective objective)
{
    if (!inputs.placement)
        return Status::error("no model is open");
    const OpGraph& graph = inputs.placement->graph;
    PlacementPlan result;
    result.pins = pins;
    result.objective = objective;
    PlanOptions options;
    options.objective = objective;
    for (const auto& [op, device] : pins)
        if (op >= 0 && static_cast<size_t>(op) < graph.ops.size())
            options.pins.emplace_back(op, device);
    PLACESCOPE_ASSIGN_OR_RETURN(PlacementFigures figures, planPlacementFigures(*inputs.placement, options));
    result.proposalUs = figures.objectiveUs("proposal");
    result.allGpuUs = figures.objectiveUs("all_gpu");
    result.allCpuUs = figures.objectiveUs("all_cpu");
    result.frameworkDefaultUs = figures.objectiveUs("framework_default");
    result.proposal = std::move(figures.proposal);
    result.comparisons = std::move(figures.comparisons);
    result.predicted = predictedLanes(inputs, result.proposal.timeline);
    return result;
}

PredictedLanes predictedLanes(const PlacementInputs& inputs, const Timeline& timeline)
{
    PredictedLanes out;
    if (!inputs.placement)
        return out;
    const OpGraph& graph = inputs.placement->graph;
    // Names: op ids first (index = op), then one label per transfer edge as it is met.
    out.names.reserve(graph.ops.size());
    for (const auto& op : graph.ops)
        out.names.push_back(op.type.empty() ? op.id : op.type + " " + op.id);
    std::vector<std::vector<PendingEvent>> perDevice(graph.devices.size());
    std::vector<PendingEvent> transfers;
    for (const TimelineSpan& span : timeline.spans) {
        const int64_t start = std::llround(span.startUs * 1000.0), end = std::llround(span.endUs * 1000.0);
        out.lengthNs = std::max(out.lengthNs, end);
        if (span.op >= 0 && span.device >= 0 && static_cast<size_t>(span.device) < perDevice.size()) {
            perDevice[static_cast<size_t>(span.device)].push_back({ start, end, static_cast<uint32_t>(span.op),
                static_cast<uint32_t>(span.op), 0, EventKind::Predicted });
        } else if (span.edge >= 0 && static_cast<size_t>(span.edge) < graph.edges.size()) {
            const PlacementEdge& edge = graph.edges[static_cast<size_t>(span.edge)];
            out.names.push_back(
                graph.ops[static_cast<size_t>(edge.from)].id + " -> " + graph.ops[static_cast<size_t>(edge.to)].id);
            transfers.push_back({ start, end, static_cast<uint32_t>(out.names.size() - 1),
                static_cast<uint32_t>(span.edge), 0, EventKind::Memcpy });
        }
    }
    for (size_t d = 0; d < perDevice.size(); ++d) {
        Lane lane;
        lane.group = Lane::Group::Predicted;
        lane.title
            = "Predicted: " + (graph.devices[d].kind == DeviceKind::Gpu ? std::string("GPU") : std::string("CPU"));
        lane.sortKey = static_cast<int64_t>(d);
        buildRows(perDevice[d], lane);
        if (lane.rows.empty())
            lane.rows.emplace_back().finish(); // an idle device still gets its (empty) lane
        out.lanes.push_back(std::move(lane));
    }
    Lane transferLane;
    transferLane.group = Lane::Group::Predicted;
    transferLane.title = "Predicted: transfers";
    transferLane.sortKey = static_cast<int64_t>(perDevice.size());
    buildRows(transfers, transferLane);
    if (transferLane.rows.empty())
        transferLane.rows.emplace_back().finish();
    out.lanes.push_back(std::move(transferLane));
    return out;
}

} // namespace placescope::ui
