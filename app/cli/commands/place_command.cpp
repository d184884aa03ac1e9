// SPDX-License-Identifier: MIT
// `placescope place --problem p.json [--objective sum|makespan] [--json]`: reads a placement problem,
// plans it with the placement engine and prints the assignment and its totals. Errors: one line, exit 1.
#include "app/cli/command_registry.h"
#include "placement/engine/planner.h"
#include "placement/engine/problem_file.h"

#include <cstdio>
#include <memory>
#include <string>

namespace placescope::cli {
namespace {

struct PlaceOptions
{
    std::string problemPath;
    std::string objective = "sum";
    bool json = false;
};

int runPlace(const PlaceOptions& options)
{
    if (options.problemPath.empty()) {
        std::fprintf(stderr, "placescope place: give --problem FILE\n");
        return 2;
    }
    auto graph = loadPlacementProblem(options.problemPath);
    if (!graph.isOk()) {
        std::fprintf(stderr, "placescope place: %s\n", graph.status().message().c_str());
        return 1;
    }
    PlanOptions planOptions;
    planOptions.objective = options.objective == "makespan" ? Objective::Makespan : Objective::Sum;
    auto proposal = plan(*graph, planOptions);
    if (!proposal.isOk()) {
        std::fprintf(stderr, "placescope place: %s\n", proposal.status().message().c_str());
        return 1;
    }
    if (options.json) {
        std::printf("%s\n", proposalToJson(*graph, *proposal, planOptions.objective).c_str());
        return 0;
    }
    std::printf("objective %s: %.3f us (%s)\n", options.objective.c_str(), proposal->objectiveUs,
        proposal->exact ? "optimal" : "heuristic");
    for (size_t i = 0; i < graph->ops.size(); ++i)
        std::printf("  %-32s %-10s %s\n", graph->ops[i].id.c_str(), graph->ops[i].type.c_str(),
            graph->devices[proposal->assignment[i]].name.c_str());
    std::printf("transfers: %d, %lld bytes, %.3f us; makespan %.3f us\n", proposal->timeline.transferCount,
        static_cast<long long>(proposal->timeline.transferredBytes), proposal->timeline.transferUs,
        proposal->timeline.makespanUs);
    return 0;
}

const CommandRegistration kRegistration("place", "Propose a CPU/GPU placement for a placement problem", 60,
    [](CLI::App& app) -> std::function<int()> {
        auto options = std::make_shared<PlaceOptions>();
        app.add_option("--problem", options->problemPath, "placement problem JSON (docs/placement_problem.md)");
        app.add_option("--objective", options->objective, "sum or makespan")
            ->check(CLI::IsMember({ "sum", "makespan" }));
        app.add_flag("--json", options->json, "print the proposal as JSON");
        return [options] { return runPlace(*options); };
    });

} // namespace
} // namespace placescope::cli
