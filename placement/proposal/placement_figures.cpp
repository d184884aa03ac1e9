// SPDX-License-Identifier: MIT
#include "placement/proposal/placement_figures.h"

#include "placement/engine/preferred_placement.h"
#include "placement/proposal/model_proposal.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

double objectiveOf(const Timeline& timeline, Objective objective)
{
    return objective == Objective::Sum ? timeline.sumUs : timeline.makespanUs;
}

bool known(double us) { return us >= 0 && std::isfinite(us); }

} // namespace

double PlacementFigures::objectiveUs(const std::string& key) const
{
    for (const PlacementComparison& row : comparisons)
        if (row.key == key)
            return known(row.objectiveUs) ? row.objectiveUs : -1;
    return -1;
}

std::vector<PlacementComparison> comparePlacements(
    const PlacementModel& placement, const Proposal& proposal, const PlanOptions& options)
{
    const OpGraph& graph = placement.graph;
    std::vector<PlacementComparison> rows;
    auto order = topologicalOrder(graph);
    auto pins = effectivePins(graph, options);
    if (!order.isOk() || !pins.isOk())
        return rows;
    auto add = [&](std::string key, std::string label, std::vector<int> assignment, const std::vector<int>& list,
                   std::string note) {
        PlacementComparison row;
        row.key = std::move(key);
        row.label = std::move(label);
        row.timeline = simulate(graph, assignment, list);
        row.objectiveUs = objectiveOf(row.timeline, options.objective);
        row.assignment = std::move(assignment);
        row.note = std::move(note);
        rows.push_back(std::move(row));
    };
    // The proposal in the list order the solver chose (the makespan depends on it), so this row is the
    // proposal's own timeline and value.
    add("proposal", "proposal", proposal.assignment,
        proposal.order.size() == graph.ops.size() ? proposal.order : *order,
        proposal.exact ? "optimal for the objective" : "heuristic");
    int elsewhere = 0;
    std::vector<int> allGpu = preferDevice(graph, *pins, kGpu, &elsewhere);
    add("all_gpu", "all on the GPU", allGpu, *order,
        elsewhere ? std::to_string(elsewhere) + " op(s) without a GPU kernel or pinned stay on the CPU" : "");
    std::vector<int> allCpu = preferDevice(graph, *pins, kCpu, &elsewhere);
    add("all_cpu", "all on the CPU", allCpu, *order,
        elsewhere ? std::to_string(elsewhere) + " op(s) without a CPU kernel or pinned stay on the GPU" : "");
    if (placement.frameworkDefault.size() == graph.ops.size()) {
        // Frameworks honour explicit device assignments (tf.device, .to()), so the pins apply here too.
        std::vector<int> defaults = placement.frameworkDefault;
        int pinned = 0;
        for (size_t i = 0; i < graph.ops.size(); ++i)
            if ((*pins)[i] && defaults[i] != *(*pins)[i]) {
                defaults[i] = *(*pins)[i];
                ++pinned;
            }
        add("framework_default", "framework default", defaults, *order,
            "GPU wherever the framework has a kernel (soft placement)"
                + (pinned ? ", " + std::to_string(pinned) + " pinned op(s) moved" : std::string()));
    }
    return rows;
}

PlacedOps countPlacedOps(const PlacementModel& placement, const std::vector<int>& assignment)
{
    PlacedOps count;
    for (int graphOp : placement.graphOpOfModelOp) {
        if (graphOp < 0 || static_cast<size_t>(graphOp) >= assignment.size())
            continue;
        ++count.ops;
        const int device = assignment[static_cast<size_t>(graphOp)];
        count.onCpu += placement.graph.devices[static_cast<size_t>(device)].kind == DeviceKind::Cpu;
    }
    return count;
}

Result<PlacementFigures> planPlacementFigures(const PlacementModel& placement, const PlanOptions& options)
{
    PlacementFigures figures;
    figures.objective = options.objective;
    PLACESCOPE_ASSIGN_OR_RETURN(figures.proposal, plan(placement.graph, options));
    figures.comparisons = comparePlacements(placement, figures.proposal, options);
    return figures;
}

const char* objectiveKey(Objective objective) { return objective == Objective::Sum ? "sum" : "makespan"; }

const char* objectiveMeaning(Objective objective)
{
    return objective == Objective::Sum ? "ops and transfers one after another" : "CPU and GPU overlap";
}

std::string savingLine(const std::string& baselineLabel, double baselineUs, double proposalUs)
{
    if (!known(baselineUs) || !known(proposalUs))
        return "saving vs " + baselineLabel + ": n/a";
    const double saving = baselineUs - proposalUs;
    const double tolerance = std::max(0.05, 1e-6 * baselineUs);
    if (saving < -tolerance)
        return "no saving vs " + baselineLabel + " (the proposal is " + formatNanoseconds(-saving * 1e3) + " longer)";
    if (saving <= tolerance)
        return "no saving vs " + baselineLabel;
    return "saving vs " + baselineLabel + ": " + formatNanoseconds(saving * 1e3) + " ("
        + formatPercentFixed(baselineUs > 0 ? 100.0 * saving / baselineUs : 0.0, 1) + ")";
}

} // namespace placescope
