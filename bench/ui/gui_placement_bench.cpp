// SPDX-License-Identifier: MIT
// gui_placement_bench [model.onnx ...]: what the GUI does off the UI thread when a model opens and when a pin
// changes: read + cost the model, plan (proposal, baselines, predicted lanes), re-plan with one pin; and the
// graph view's Graphviz layout of the full graph vs the graph collapsed by scope (the baseline for the ratio).
// Defaults to every model in tests/data/models.
#include "profiler/base/units.h"
#include "ui/graph/graph_layout.h"
#include "ui/graphview/graph_collapse.h"
#include "ui/placement/placement_plan.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace placescope;
using namespace placescope::ui;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string secs(double seconds) { return formatNanoseconds(seconds * 1e9); }

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> models;
    for (int i = 1; i < argc; ++i)
        models.emplace_back(argv[i]);
    if (models.empty())
        for (const auto& entry : std::filesystem::directory_iterator(PLACESCOPE_DATA_DIR "/models"))
            if (entry.path().extension() == ".onnx")
                models.push_back(entry.path().string());
    std::printf("%-28s %6s %9s %9s %9s %12s %12s %7s\n", "model", "ops", "load", "plan", "replan", "layout",
        "collapsed", "ratio");
    int failures = 0;
    for (const auto& path : models) {
        auto start = std::chrono::steady_clock::now();
        auto inputs = loadPlacementInputs(path, CostOptions {});
        const double loadS = secondsSince(start);
        if (!inputs.isOk()) {
            std::printf(
                "%-28s error: %s\n", std::filesystem::path(path).filename().c_str(), inputs.status().message().c_str());
            ++failures;
            continue;
        }
        start = std::chrono::steady_clock::now();
        auto planned = planPlacement(*inputs, {});
        const double planS = secondsSince(start);
        double replanS = -1;
        if (planned.isOk() && !planned->proposal.assignment.empty()) {
            // Pin the first op to the device the proposal did not choose (if it has a kernel there).
            const auto& graph = inputs->placement->graph;
            const int other = 1 - planned->proposal.assignment[0];
            PinMap pins;
            if (other >= 0 && static_cast<size_t>(other) < graph.ops[0].costUs.size()
                && graph.ops[0].costUs[static_cast<size_t>(other)] < kNoKernel)
                pins[0] = other;
            start = std::chrono::steady_clock::now();
            auto replanned = planPlacement(*inputs, pins);
            replanS = replanned.isOk() ? secondsSince(start) : -1;
        }
        const auto& model = *inputs->model;
        start = std::chrono::steady_clock::now();
        auto full = layoutGraph(toLayoutInput(buildVisibleGraph(model, false, {})));
        const double fullS = secondsSince(start);
        start = std::chrono::steady_clock::now();
        auto collapsed = layoutGraph(toLayoutInput(buildVisibleGraph(model, true, {})));
        const double collapsedS = secondsSince(start);
        std::printf("%-28s %6zu %9s %9s %9s %12s %12s %6.1fx\n", std::filesystem::path(path).filename().c_str(),
            inputs->placement->graph.ops.size(), secs(loadS).c_str(), secs(planS).c_str(),
            replanS < 0 ? "-" : secs(replanS).c_str(), secs(fullS).c_str(), secs(collapsedS).c_str(),
            collapsedS > 0 ? fullS / collapsedS : 0.0);
        failures += !planned.isOk() || !full.isOk() || !collapsed.isOk();
    }
    return failures == 0 ? 0 : 1;
}
