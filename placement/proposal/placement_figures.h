// SPDX-License-Identifier: MIT
// The figures a placement is judged by, computed in one place for every front end: `placescope place` prints
// them, the GUI's placement panel charts them, so the same model, GPU, pins and objective give the same
// numbers in both. planPlacementFigures() plans with the pins and objective and simulates the baselines
// (all on the GPU, all on the CPU, the framework's default) under the same pins, each valued by that objective.
// Pure functions: the GUI calls them from worker threads.
#pragma once

#include "placement/cost/placement_model.h"
#include "placement/engine/planner.h"
#include "profiler/base/status.h"

#include <string>
#include <vector>

namespace placescope {

// One placement the proposal is compared with, simulated on the same graph.
struct PlacementComparison
{
    std::string key; // "proposal", "all_gpu", "all_cpu", "framework_default"
    std::string label; // what the text prints
    std::vector<int> assignment; // device per graph op
    Timeline timeline;
    double objectiveUs = 0; // the chosen objective of this placement
    std::string note; // e.g. "3 ops without a GPU kernel stay on the CPU"
};

struct PlacementFigures
{
    Objective objective = Objective::Sum;
    Proposal proposal;
    std::vector<PlacementComparison> comparisons; // "proposal" first, then the baselines
    // The objective's value of the comparison `key`; -1 where there is none (or it is not finite).
    double objectiveUs(const std::string& key) const;
};

// The model's ops as the proposal places them, counted one way for `place` ("Placement (176 ops: ...)") and the GUI's
// placement panel: the model ops that the graph holds (folded weight producers and the graph's own stand-ins left
// out), and how many of them run on the CPU.
struct PlacedOps
{
    int ops = 0;
    int onCpu = 0;
};
PlacedOps countPlacedOps(const PlacementModel& placement, const std::vector<int>& assignment);

// Plans graph + options.pins for options.objective and compares the proposal with the baselines.
Result<PlacementFigures> planPlacementFigures(const PlacementModel& placement, const PlanOptions& options);

// Simulates all-GPU, all-CPU and the framework default next to `proposal`, honouring the graph's pins and
// options.pins (ops without a kernel on the preferred device, or pinned elsewhere, stay where they must),
// each valued by options.objective.
std::vector<PlacementComparison> comparePlacements(
    const PlacementModel& placement, const Proposal& proposal, const PlanOptions& options);

// "sum" / "makespan", as --objective takes them.
const char* objectiveKey(Objective objective);
// What the objective measures, in the words the CLI and the GUI both print:
// "ops and transfers one after another" / "CPU and GPU overlap".
const char* objectiveMeaning(Objective objective);

// The proposal's saving against a baseline as people read it, in the words both front ends print:
// "saving vs framework default: 1.20 ms (4.5 %)"; "no saving vs framework default" where the difference is
// below rounding (0.05 us or a millionth of the baseline: two equal placements give floating-point noise, not
// a saving), with "(the proposal is 3.0 us longer)" after it where the proposal is slower; "n/a" inside when
// either figure is missing (< 0 or not finite).
std::string savingLine(const std::string& baselineLabel, double baselineUs, double proposalUs);

} // namespace placescope
