// SPDX-License-Identifier: MIT
// The model proposal JSON: the engine's proposal object (proposalToJson) with the model's sections added, so
// scripts that read `--problem` proposals read these too. Fields: docs/placement_problem.md.
#include "placement/proposal/model_proposal.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace placescope {
namespace {

using Json = nlohmann::json;

Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

Json layoutJson(const ModelProposal& p)
{
    const LayoutResult& layout = p.layout;
    Json regions = Json::array();
    for (const LayoutRegion& region : layout.regions) {
        Json ops = Json::array();
        for (int op : region.ops)
            ops.push_back(p.modelOpNames[op]);
        regions.push_back({ { "id", region.id }, { "layout", layoutName(region.chosen) },
            { "source_layout", layoutName(region.sourceLayout) }, { "ops", ops }, { "cpu_ops", region.cpuOps },
            { "gpu_ops", region.gpuOps }, { "tensor_core_convs", region.tensorCoreConvs },
            { "nchw_cost_us", region.nchwCostUs }, { "nhwc_cost_us", region.nhwcCostUs },
            { "reason", region.reason } });
    }
    Json added = Json::array();
    for (const LayoutTranspose& t : layout.added)
        added.push_back({ { "region", t.region }, { "value", p.valueNames[t.value] }, { "op", p.modelOpNames[t.op] },
            { "position", t.beforeOp ? "before" : "after" }, { "device", p.deviceNames[t.device] },
            { "from", layoutName(t.from) }, { "to", layoutName(t.to) }, { "bytes", t.bytes }, { "cost_us", t.costUs },
            { "where", t.where } });
    Json removed = Json::array();
    for (const RemovedTransposePair& r : layout.removed)
        removed.push_back({ { "first", p.modelOpNames[r.first] }, { "second", p.modelOpNames[r.second] },
            { "first_removed", r.firstRemoved }, { "bytes", r.bytes }, { "saving_us", r.savingUs } });
    return { { "regions", regions }, { "transposes_added", added }, { "transposes_removed", removed },
        { "baseline_us", layout.baselineUs }, { "chosen_us", layout.chosenUs }, { "saving_us", layout.savingUs },
        { "gpu_convs", layout.gpuConvs }, { "gpu_convs_preferring_nhwc", layout.gpuConvsPreferringNhwc },
        { "framework_swap_rule_holds", layout.frameworkSwapRuleHolds } };
}

} // namespace

std::string modelProposalJson(const ModelProposal& p)
{
    Json root = Json::parse(p.engineJson, nullptr, /*allow_exceptions=*/false);
    if (!root.is_object())
        root = Json::object();
    root["model"] = { { "path", p.context.modelPath }, { "source", p.source }, { "framework", p.context.framework },
        { "gpu", p.context.gpu } };

    Json ops = Json::array();
    for (const OpDecision& d : p.ops) {
        // The measured placement beside the proposal's, and which costs are measured (the rest are estimates).
        Json measuredCosts = Json::array();
        if (d.cpuMeasured)
            measuredCosts.push_back(p.deviceNames[0]); // device 0 is the CPU, 1 the GPU (PlacementModel)
        if (d.gpuMeasured)
            measuredCosts.push_back(p.deviceNames[1]);
        ops.push_back({ { "name", p.modelOpNames[d.modelOp] }, { "type", p.modelOpTypes[d.modelOp] },
            { "device", p.deviceNames[d.device] }, { "default_device", p.deviceNames[d.defaultDevice] },
            { "graph_op", d.graphOp }, { "reason", placementReasonKey(d.reason) }, { "why", d.why },
            { "layout_region",
                d.modelOp < static_cast<int>(p.layout.regionOfOp.size()) ? p.layout.regionOfOp[d.modelOp] : -1 },
            { "ran_on", d.ranOn.empty() ? Json(nullptr) : Json(d.ranOn) },
            { "provider", d.provider.empty() ? Json(nullptr) : Json(d.provider) },
            { "measured_costs", measuredCosts } });
    }
    root["ops"] = ops;

    Json runs = Json::array();
    for (const DeviceRun& run : p.runs)
        runs.push_back({ { "device", p.deviceNames[run.device] }, { "first", p.modelOpNames[run.firstOp] },
            { "last", p.modelOpNames[run.lastOp] }, { "ops", run.opCount }, { "cost_us", run.costUs },
            { "types", run.typeSummary } });
    root["runs"] = runs;

    Json transfers = Json::array();
    for (const RemainingTransfer& t : p.transfers)
        transfers.push_back({ { "from", t.from }, { "to", t.to }, { "from_device", p.deviceNames[t.fromDevice] },
            { "to_device", p.deviceNames[t.toDevice] }, { "bytes", t.bytes }, { "us", t.us } });
    root["transfers"] = transfers;

    root["layout"] = layoutJson(p);

    Json comparisons = Json::array();
    for (const PlacementComparison& row : p.comparisons)
        comparisons.push_back({ { "name", row.key }, { "objective_us", number(row.objectiveUs) },
            { "total_us", number(row.timeline.sumUs) }, { "makespan_us", number(row.timeline.makespanUs) },
            { "transfer_count", row.timeline.transferCount }, { "transferred_bytes", row.timeline.transferredBytes },
            { "transfer_us", row.timeline.transferUs }, { "note", row.note } });
    root["comparisons"] = comparisons;
    root["measured_step_us"] = p.context.measuredStepUs ? Json(*p.context.measuredStepUs) : Json(nullptr);
    root["assumptions"] = p.assumptions;
    return root.dump(2);
}

} // namespace placescope
