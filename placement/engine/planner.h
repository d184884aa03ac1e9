// SPDX-License-Identifier: MIT
// The placement engine's entry points: the `sum` solver (Stone's min-cut, exact for two devices), the
// `makespan` solver (HEFT and other starts, then local improvement judged by the simulator), the simulator
// that turns any assignment and list order into a timeline (list_scheduler.h states its time model), and
// plan() which ties them together and keeps every device within its memory limit. All functions
// are pure (inputs by const reference, results by value, no globals), so the GUI may call plan() from a
// background thread while another thread plans another graph.
#pragma once

#include "placement/engine/op_graph.h"
#include "profiler/base/status.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

enum class Objective
{
    Sum,
    Makespan
};

struct PlanOptions
{
    Objective objective = Objective::Sum;
    std::vector<std::pair<int, int>> pins; // (op index, device index), on top of the graph's own pins
    // Scales the local improvement's work budget (simulations, proportional to 1 / graph size); 0 turns
    // the improvement off (the makespan proposal is then the best of its starting placements).
    double searchEffort = 1.0;
};

struct TimelineSpan
{
    int op = -1; // op index, or -1 for a transfer
    int edge = -1; // edge index for a transfer
    int device = 0; // lane: the device (for a transfer, the destination)
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
    std::vector<int> order; // the list order the timeline was simulated in (a topological order)
    Timeline timeline;
    double objectiveUs = 0; // the chosen objective's value
    double lowerBoundUs = 0; // the best bound the solver knows (== objectiveUs when exact)
    bool exact = false;
    std::vector<std::string> notes; // e.g. "memory repair moved 3 ops after the min cut: no longer proven optimal"
};

// An assignment with the list order it is simulated in.
struct Schedule
{
    std::vector<int> assignment;
    std::vector<int> order;
};

// Ops in a topological order, or an error naming an op on a cycle.
Result<std::vector<int>> topologicalOrder(const OpGraph& graph);
// Checks the graph: device indices, pins, costs, and that no op is pinned where it has no kernel.
Status validateGraph(const OpGraph& graph);
// Any assignment and list order (a topological order) -> predicted timeline, by the ListScheduler model:
// each device one lane running its ops in list order, each directed link one lane for transfers.
Timeline simulate(const OpGraph& graph, const std::vector<int>& assignment, const std::vector<int>& order);
// The graph's pins with options.pins on top; an error names a pin to a missing op or device, or to a device
// without the op's kernel.
Result<std::vector<std::optional<int>>> effectivePins(const OpGraph& graph, const PlanOptions& options);
// Exact minimum of the `sum` objective for two devices (Stone's construction), ignoring memory limits.
Result<std::vector<int>> solveSum(const OpGraph& graph, const PlanOptions& options);
// Plain HEFT (upward rank with mean costs, earliest finish device, no insertion) on the ListScheduler
// model; the order is the one HEFT placed the ops in, so simulate() reproduces HEFT's own schedule.
Schedule heftSchedule(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, const std::vector<int>& topoOrder);
// A makespan no placement can beat: max(longest path with every op at its cheapest allowed device and no
// transfers, total cheapest work / device count).
double makespanLowerBound(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, const std::vector<int>& topoOrder);
// The makespan solver: HEFT, the sum optimum and the single-device placements as starts, then local
// improvement (single-op moves and, on small graphs, pair moves and restarts), memory limits first.
// Ignores memory limits only when none can be met; plan() reports that as an error.
Result<Schedule> solveMakespan(const OpGraph& graph, const PlanOptions& options, const std::vector<int>& topoOrder);
// Validates, solves and simulates. Errors are one line naming the cause.
Result<Proposal> plan(const OpGraph& graph, const PlanOptions& options);

} // namespace placescope
