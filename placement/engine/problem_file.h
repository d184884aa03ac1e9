// SPDX-License-Identifier: MIT
// Reads and writes the JSON placement problem (docs/placement_problem.md) and the proposal JSON.
// Pure functions; errors are one line naming the cause (bad JSON, missing field, unknown device or op).
#pragma once

#include "placement/engine/op_graph.h"
#include "placement/engine/planner.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope {

Result<OpGraph> parsePlacementProblem(const std::string& text);
Result<OpGraph> loadPlacementProblem(const std::string& path);
// The proposal as JSON text: assignment per op id, objective, totals, timeline figures.
std::string proposalToJson(const OpGraph& graph, const Proposal& proposal, Objective objective);

} // namespace placescope
