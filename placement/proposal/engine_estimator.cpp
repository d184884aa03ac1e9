// SPDX-License-Identifier: MIT
#include "placement/proposal/engine_estimator.h"

#include "placement/cost/capability_table.h"
#include "placement/cost/device_table.h"
#include "placement/cost/placement_model.h"
#include "placement/engine/planner.h"
#include "placement/graph/model_loader.h"
#include "placement/layout/layout_pass.h"
#include "placement/proposal/layout_facts.h"
#include "placement/proposal/model_proposal.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace placescope {

// The model, costed for the trace's GPU (the device table entry whose name matches, else the default) and
// planned for the `sum` objective.
struct EnginePlacementEstimator::PlannedModel
{
    ModelGraph model;
    PlacementModel placement;
    Proposal proposal;
};

namespace {

// "aten::nonzero" and "NonZero" name the same op: compare without the namespace, case and underscores.
std::string opKey(const std::string& name)
{
    std::string bare = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    std::string key;
    for (char c : bare)
        if (c != '_')
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
}

} // namespace

std::shared_ptr<const EnginePlacementEstimator::PlannedModel> EnginePlacementEstimator::planned(
    const std::string& modelPath, const std::string& deviceName) const
{
    std::lock_guard lock(m_mutex);
    std::string key = modelPath + '\n' + deviceName;
    if (key == m_plannedKey)
        return m_planned;
    m_plannedKey = std::move(key);
    m_planned = nullptr;
    if (modelPath.empty())
        return nullptr;
    auto model = loadModelGraph(modelPath);
    auto table = DeviceTable::builtin();
    if (!model || !table)
        return nullptr;
    CostOptions options;
    options.framework = m_framework;
    if (const DeviceSpec* match = table->matchGpuName(deviceName))
        options.gpu = match->key;
    auto placement = buildPlacementModel(*model, options);
    if (!placement)
        return nullptr;
    auto proposal = plan(placement->graph, PlanOptions {});
    if (!proposal)
        return nullptr;
    m_planned = std::make_shared<const PlannedModel>(
        PlannedModel { std::move(*model), std::move(*placement), std::move(*proposal) });
    return m_planned;
}

std::optional<EngineEstimate> EnginePlacementEstimator::estimateLayout(const LayoutQuery& query) const
{
    auto planned = this->planned(query.modelPath, query.deviceName);
    if (!planned)
        return std::nullopt;
    auto capabilities = CapabilityTable::forFramework(m_framework);
    if (!capabilities)
        return std::nullopt;
    const std::vector<int> devices = deviceOfModelOps(planned->model, planned->placement, planned->proposal.assignment);
    LayoutResult layout = runLayoutPass(
        planned->model, devices, *capabilities, layoutFactsFor(planned->placement.cpu, planned->placement.gpu));
    int nhwcRegions = 0;
    for (const LayoutRegion& region : layout.regions)
        nhwcRegions += region.chosen == DataLayout::Nhwc;
    double remainingUs = 0;
    for (const LayoutTranspose& transpose : layout.added)
        remainingUs += transpose.costUs;
    const double measuredUs = static_cast<double>(query.conversionNsPerStep) / 1000.0;
    EngineEstimate estimate;
    estimate.savingMsPerStep = std::max(0.0, measuredUs - remainingUs) / 1000.0;
    estimate.explanation = "the layout pass over " + std::to_string(layout.regions.size()) + " region(s) of the model ("
        + std::to_string(nhwcRegions) + " run NHWC on " + planned->placement.gpu.name + ") keeps "
        + std::to_string(layout.added.size()) + " transpose(s) at region borders ("
        + formatNanoseconds(remainingUs * 1e3) + " per step); the trace's "
        + std::to_string(query.conversionKernelsPerStep) + " conversion kernels per step ("
        + formatNanoseconds(measuredUs * 1e3) + ") go";
    return estimate;
}

std::optional<EngineEstimate> EnginePlacementEstimator::estimateFallback(const FallbackQuery& query) const
{
    auto planned = this->planned(query.modelPath, query.deviceName);
    if (!planned)
        return std::nullopt;
    std::set<std::string> hostKeys;
    for (const std::string& name : query.opNames)
        hostKeys.insert(opKey(name));
    std::set<std::string> matched;
    for (const ModelOp& op : planned->model.ops)
        if (hostKeys.count(opKey(op.type)))
            matched.insert(op.type);
    if (matched.empty())
        return std::nullopt; // the model has none of the trace's host ops: nothing the engine can say
    double defaultUs = -1;
    for (const PlacementComparison& comparison :
        comparePlacements(planned->placement, planned->proposal, PlanOptions {}))
        if (comparison.key == "framework_default")
            defaultUs = comparison.objectiveUs;
    if (defaultUs < 0)
        return std::nullopt;
    std::string names;
    for (const std::string& type : matched)
        names += (names.empty() ? "" : ", ") + type;
    EngineEstimate estimate;
    estimate.savingMsPerStep = std::max(0.0, defaultUs - planned->proposal.objectiveUs) / 1000.0;
    estimate.explanation = "the model's " + names + " op(s) placed by the engine (min-cut over CPU and "
        + planned->placement.gpu.name + " costs, transfers included): predicted step "
        + formatNanoseconds(planned->proposal.objectiveUs * 1e3) + " against " + formatNanoseconds(defaultUs * 1e3)
        + " with the framework's default placement";
    return estimate;
}

} // namespace placescope
