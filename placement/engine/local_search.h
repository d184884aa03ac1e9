// SPDX-License-Identifier: MIT
// PlacementSearch: local improvement of placements with the simulator as the judge. A placement is
// compared first by how many bytes it needs beyond the devices' memory limits (so a search that starts
// over a limit repairs it), then by the objective (makespan, or the sum of op and transfer costs).
// Moves: one op to another allowed device (pins and missing kernels respected); over a memory limit, the
// ops live at the full device's peak, cheapest per byte freed first. On small graphs (<= 24 ops) also pairs
// of ops and restarts from random perturbations of the best (iterated local search), or every assignment
// when they all fit the budget; the best few assignments then get a search over list orders (random
// topological orders and adjacent swaps). Every candidate assignment is simulated in a few list orders (the
// current one, the bottom-level order and, up to 64 ops, earliest-start and earliest-finish dispatch) and
// keeps the best. The work is a fixed number of simulations
// proportional to 1 / graph size (times PlanOptions::searchEffort), so the time stays near-linear and the
// result is deterministic.
#pragma once

#include "placement/engine/list_scheduler.h"
#include "placement/engine/planner.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace placescope {

struct SearchKey
{
    int64_t overflowBytes = 0; // sum over devices of peak bytes beyond the limit
    double value = 0; // makespan or sum, us
};

class PlacementSearch
{
public:
    PlacementSearch(const OpGraph& graph, const std::vector<std::optional<int>>& pins,
        const std::vector<int>& topoOrder, Objective objective, double effort);

    bool allowed(int op, int device) const;
    // Simulates one schedule (one unit of the budget).
    SearchKey evaluate(const Schedule& schedule);
    // The best of `starts` (each also tried in its bottom-level order), then improved until no move helps
    // or the budget is spent.
    Schedule improve(const std::vector<Schedule>& starts);
    SearchKey bestKey() const { return m_bestKey; }
    // Simulations spent so far.
    long evaluations() const { return m_evaluations; }

private:
    struct Move
    {
        int op;
        int device;
        double estimatedGain;
    };
    bool better(const SearchKey& a, const SearchKey& b) const;
    // Best list order for an assignment among the hint order and the orders derived from the assignment.
    SearchKey evaluateAssignment(
        const std::vector<int>& assignment, const std::vector<int>& hintOrder, std::vector<int>& bestOrder);
    double sumOf(const std::vector<int>& assignment) const;
    double localGain(const std::vector<int>& assignment, int op, int device) const;
    std::vector<Move> candidateMoves(const Schedule& current, const SearchKey& key);
    void localSearch(Schedule& current, SearchKey& key);
    bool tryPairs(Schedule& current, SearchKey& key);
    bool budgetLeft() const { return m_evaluations < m_budget; }
    // Small graphs: keeps the best few distinct assignments seen, for the final search over list orders.
    void remember(const std::vector<int>& assignment, const std::vector<int>& order, const SearchKey& key);
    // Small graphs: random topological orders and swaps of adjacent independent ops, for one assignment.
    void improveOrder(Schedule& schedule, SearchKey& key, long budgetEnd);
    std::vector<int> randomTopologicalOrder();

    const OpGraph& m_graph;
    const std::vector<std::optional<int>>& m_pins;
    const std::vector<int>& m_topoOrder;
    Objective m_objective;
    ListScheduler m_scheduler;
    bool m_hasLimits = false;
    bool m_small = false; // pair moves and restarts
    bool m_tiny = false; // earliest-start orders too
    long m_budget = 0;
    long m_evaluations = 0;
    SearchKey m_bestKey;
    std::vector<std::pair<SearchKey, Schedule>> m_pool;
    std::mt19937 m_rng { 20240601u };
};

} // namespace placescope
