// SPDX-License-Identifier: MIT
// The placement engine's entry points: the `sum` solver (Stone's min-cut, exact for two devices), the
// simulator that turns any assignment into a timeline, and plan() which ties them together. All functions
// are pure (inputs by const reference, results by value, no globals), so the GUI may call plan() from a
// background thread while another thread plans another graph.
#pragma once

#include "placement/engine/op_graph.h"
#include "profiler/base/status.h"

#include <string>
#include <vector>

namespace placescope {

enum class Objective { Sum, Makespan };

struct PlanOptions
{
    Objective objective = Objective::Sum;
    std::vector<std::pair<int, int>> pins; // (op index, device index), on top of the graph's own pins
};

struct TimelineSpan
{
    int op = -1;     // op index, or -1 for a transfer
    int edge = -1;   // edge index for a transfer
    int device = 0;  // lane: the device (for a transfer, the destination)
    double startUs = 0;
    double endUs = 0;
};

// What the simulator predicts for one assignment.
struct Timeline
{
    std::vector<TimelineSpan> spans;
    double makespanUs = 0;
    double sumUs = 0; // op costs + transfers, one after another
    int64_t transferredBytes = 0;
    int transferCount = 0;
    double transferUs = 0;
    std::vector<int64_t> peakMemoryBytes; // per device
};

struct Proposal
{
    std::vector<int> assignment; // device per op
    Timeline timeline;
    double objectiveUs = 0;   // the chosen objective's value
    double lowerBoundUs = 0;  // the best bound the solver knows (== objectiveUs when exact)
    bool exact = false;
};

// Ops in a topological order, or an error naming an op on a cycle.
Result<std::vector<int>> topologicalOrder(const OpGraph& graph);
// Checks the graph: device indices, pins, costs, and that no op is pinned where it has no kernel.
Status validateGraph(const OpGraph& graph);
// Any assignment -> predicted timeline (ops in topological order, each device one lane).
Timeline simulate(const OpGraph& graph, const std::vector<int>& assignment, const std::vector<int>& order);
// Exact minimum of the `sum` objective for two devices (Stone's construction).
Result<std::vector<int>> solveSum(const OpGraph& graph, const PlanOptions& options);
// HEFT list scheduling for the makespan objective; *lowerBoundUs gets max(critical path, work / devices).
Result<std::vector<int>> solveMakespan(const OpGraph& graph, const PlanOptions& options, const std::vector<int>& order,
    double* lowerBoundUs);
// Validates, solves and simulates. Errors are one line naming the cause.
Result<Proposal> plan(const OpGraph& graph, const PlanOptions& options);

} // namespace placescope
