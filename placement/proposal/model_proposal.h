// SPDX-License-Identifier: MIT
// A model placement proposal as people and scripts read it: which ops go where and why, the layout per
// region with the transposes it adds and removes, the transfers that remain, and the predicted step time
// next to all-GPU, all-CPU, the framework's default placement and the measured run. buildModelProposal()
// gathers the facts once; proposalText() and modelProposalJson() only format them. Pure functions.
#pragma once

#include "placement/cost/placement_model.h"
#include "placement/engine/planner.h"
#include "placement/graph/model_graph.h"
#include "placement/layout/layout_pass.h"
#include "placement/proposal/placement_figures.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placescope {

// Why an op is where the proposal puts it.
enum class PlacementReason
{
    FrameworkDefault,
    Pinned,
    NoKernel,
    Cheaper,
    WithConsumer,
    HostEnd
};

struct OpDecision
{
    int modelOp = -1;
    int graphOp = -1; // -1 for a folded weight producer
    int device = 0; // 0 = CPU, 1 = GPU
    int defaultDevice = 0; // where the framework would put it
    PlacementReason reason = PlacementReason::FrameworkDefault;
    std::string why; // one line with the figures; a cost the trace measured says "(measured)"
    // What the trace measured of the op (ModelOp's measured fields): the device it ran on ("cpu", "gpu"; "" when
    // the trace does not say) and, beside an ONNX Runtime profile, the provider; which of its costs are the trace's
    // times, not estimates.
    std::string ranOn;
    std::string provider;
    bool cpuMeasured = false;
    bool gpuMeasured = false;
};

// A run of consecutive ops (model order) on one device.
struct DeviceRun
{
    int device = 0;
    int firstOp = 0; // model op indices, inclusive
    int lastOp = 0;
    int opCount = 0;
    double costUs = 0; // the run's op costs on its device
    std::string typeSummary; // "Conv 53, Relu 49, Add 16"
};

struct RemainingTransfer
{
    int edge = -1; // graph edge index
    std::string from; // op ids
    std::string to;
    int fromDevice = 0;
    int toDevice = 0;
    int64_t bytes = 0;
    double us = 0;
};

struct ModelProposalContext
{
    std::string modelPath;
    std::string framework; // "tf", "torch", "ort"
    std::string gpu; // the device table key or "from-trace"
    Objective objective = Objective::Sum;
    std::optional<double> measuredStepUs; // from a trace, when one was given
    std::string measuredNote;
    std::vector<std::string> extraAssumptions;
};

struct ModelProposal
{
    ModelProposalContext context;
    std::string source; // the graph source ("onnx", ...)
    std::vector<std::string> deviceNames; // per device index
    std::vector<OpDecision> ops; // per model op
    std::vector<DeviceRun> runs;
    std::vector<RemainingTransfer> transfers; // largest first
    std::vector<PlacementComparison> comparisons; // proposal first
    LayoutResult layout;
    std::vector<std::string> assumptions;
    std::vector<std::string> modelOpNames; // for the layout lines
    std::vector<std::string> modelOpTypes;
    std::vector<std::string> valueNames;
    Proposal proposal;
    std::string engineJson; // proposalToJson() of the engine, which the model JSON extends
};

// The assignment per graph op expressed per model op (weight producers follow their first consumer).
std::vector<int> deviceOfModelOps(
    const ModelGraph& model, const PlacementModel& placement, const std::vector<int>& assignment);

// The proposal and its comparisons come from planPlacementFigures(), as in the GUI; context.objective should be
// figures.objective (the text and JSON name it).
ModelProposal buildModelProposal(const ModelGraph& model, const PlacementModel& placement,
    const PlacementFigures& figures, const LayoutResult& layout, const ModelProposalContext& context);

const char* placementReasonKey(PlacementReason reason);

// Readable text (what `placescope place --model` prints) and JSON (`--json`, `-o`; docs/placement_problem.md).
std::string proposalText(const ModelProposal& proposal);
std::string modelProposalJson(const ModelProposal& proposal);

} // namespace placescope
