// SPDX-License-Identifier: MIT
// The GUI's view of a placement: the model, its costed placement problem, the user's pins and what the engine
// predicts for them. Qt-free functions run on a worker thread; their results are immutable snapshots the UI
// thread shares (std::shared_ptr<const ...>) between the panel, the graph view and the timeline.
#pragma once

#include "placement/cost/placement_model.h"
#include "placement/engine/planner.h"
#include "placement/graph/model_graph.h"
#include "placement/proposal/placement_figures.h"
#include "profiler/base/status.h"
#include "ui/core/trace_data.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace placescope::ui {

// A model opened for placement: the graph as its source gave it, the same with what the open trace measured of it,
// and the costed problem built from that.
struct PlacementInputs
{
    std::shared_ptr<const ModelGraph> model; // as its source gave it (the graph view's own, compared by pointer)
    // `model` with what the open trace measured of it (an ONNX model beside an ONNX Runtime profile: its nodes' times
    // and providers, ort_node_times.h); the costs are built from this. `model` itself when there is no trace.
    std::shared_ptr<const ModelGraph> measured;
    std::shared_ptr<const PlacementModel> placement;
    std::vector<DataLayout> opLayout; // per model op: layout of its first 4-D input (None when it has none)
};

// Pins by graph op index: device index (0 = CPU, 1 = GPU as PlacementModel says).
using PinMap = std::map<int, int>;

// One plan: the proposal for the pins and the baselines it is compared with, all valued by `objective` and
// computed by planPlacementFigures(), the function `placescope place` prints from (-1 where the engine could
// not price one).
struct PlacementPlan
{
    PinMap pins;
    Objective objective = Objective::Sum;
    Proposal proposal;
    std::vector<PlacementComparison> comparisons; // "proposal", "all_gpu", "all_cpu", "framework_default"
    double proposalUs = -1;
    double allGpuUs = -1;
    double allCpuUs = -1;
    double frameworkDefaultUs = -1;
    PredictedLanes predicted; // the proposal's simulated timeline as lanes
};

// Reads a model (ONNX, execution trace) and builds its placement problem. One line naming the cause on error.
Result<PlacementInputs> loadPlacementInputs(const std::string& modelPath, const CostOptions& options);
// Builds the placement problem of an already loaded graph.
Result<PlacementInputs> preparePlacementInputs(std::shared_ptr<const ModelGraph> model, const CostOptions& options);
// Plans with the pins for the objective and prices the baselines (all on the GPU, all on the CPU, the
// framework's default; pinned ops and ops with no kernel on a device stay where they must) through
// planPlacementFigures(). The default objective is the CLI's.
Result<PlacementPlan> planPlacement(
    const PlacementInputs& inputs, const PinMap& pins, Objective objective = Objective::Sum);
// The simulated timeline as timeline lanes: "Predicted: <device>" per device and "Predicted: transfers".
PredictedLanes predictedLanes(const PlacementInputs& inputs, const Timeline& timeline);

} // namespace placescope::ui
