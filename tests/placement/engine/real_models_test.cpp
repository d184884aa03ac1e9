// SPDX-License-Identifier: MIT
// Both solvers on every real model in tests/data/models (ONNX -> ModelGraph -> costed OpGraph): the makespan
// proposal is never worse than the best single-device placement nor plain HEFT, and the sum proposal's total
// is never above all-GPU (GPU wherever it has a kernel) nor all-CPU; with the GPU memory cut below what
// all-GPU needs, the proposal fits or the error names the device.
#include "placement/cost/placement_model.h"
#include "placement/engine/list_scheduler.h"
#include "placement/engine/planner.h"
#include "placement/graph/onnx_model_loader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace placescope {
namespace {

std::vector<std::string> modelFiles()
{
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(PLACESCOPE_DATA_DIR) + "/models"))
        if (entry.path().extension() == ".onnx")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// Every op on `device` where allowed (pins and kernels), elsewhere on the first device that is allowed.
std::vector<int> preferDevice(const OpGraph& graph, const std::vector<std::optional<int>>& pins, int device)
{
    std::vector<int> assignment(graph.ops.size(), device);
    for (size_t op = 0; op < graph.ops.size(); ++op) {
        if (pins[op]) {
            assignment[op] = *pins[op];
            continue;
        }
        if (!std::isfinite(graph.ops[op].costUs[device]))
            for (size_t d = 0; d < graph.devices.size(); ++d)
                if (std::isfinite(graph.ops[op].costUs[d]))
                    assignment[op] = static_cast<int>(d);
    }
    return assignment;
}

class RealModelsTest : public ::testing::TestWithParam<std::string>
{
};

TEST_P(RealModelsTest, SolversBeatTheSimplePlacements)
{
    auto model = loadOnnxModel(GetParam());
    ASSERT_TRUE(model.isOk()) << model.status().message();
    auto costed = buildPlacementModel(*model, CostOptions {});
    ASSERT_TRUE(costed.isOk()) << costed.status().message();
    const OpGraph& graph = costed->graph;
    ASSERT_FALSE(graph.ops.empty());
    const std::vector<int> topo = *topologicalOrder(graph);
    auto pins = effectivePins(graph, {});
    ASSERT_TRUE(pins.isOk());
    ListScheduler scheduler(graph);

    PlanOptions sumOptions;
    auto sum = plan(graph, sumOptions);
    ASSERT_TRUE(sum.isOk()) << sum.status().message();
    const std::vector<int> gpu = preferDevice(graph, *pins, 1);
    const std::vector<int> cpu = preferDevice(graph, *pins, 0);
    EXPECT_LE(sum->objectiveUs, simulate(graph, gpu, topo).sumUs * (1 + 1e-9));
    EXPECT_LE(sum->objectiveUs, simulate(graph, cpu, topo).sumUs * (1 + 1e-9));
    EXPECT_TRUE(sum->exact);

    PlanOptions makespanOptions;
    makespanOptions.objective = Objective::Makespan;
    const auto t0 = std::chrono::steady_clock::now();
    auto makespan = plan(graph, makespanOptions);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(makespan.isOk()) << makespan.status().message();
    Schedule heft = heftSchedule(graph, *pins, topo);
    const double heftUs = simulate(graph, heft.assignment, heft.order).makespanUs;
    EXPECT_LE(makespan->objectiveUs, heftUs * (1 + 1e-9));
    for (const std::vector<int>& single : { gpu, cpu }) {
        EXPECT_LE(makespan->objectiveUs, simulate(graph, single, topo).makespanUs * (1 + 1e-9));
        EXPECT_LE(makespan->objectiveUs,
            simulate(graph, single, scheduler.bottomLevelOrder(single, topo)).makespanUs * (1 + 1e-9));
    }
    EXPECT_GE(makespan->objectiveUs * (1 + 1e-9), makespan->lowerBoundUs);
    std::printf(
        "%s: %zu ops; sum %.1f us (all-GPU %.1f, all-CPU %.1f); makespan %.1f us (HEFT %.1f, bound %.1f) in %.3f s\n",
        std::filesystem::path(GetParam()).filename().c_str(), graph.ops.size(), sum->objectiveUs,
        simulate(graph, gpu, topo).sumUs, simulate(graph, cpu, topo).sumUs, makespan->objectiveUs, heftUs,
        makespan->lowerBoundUs, seconds);
}

TEST_P(RealModelsTest, TightGpuMemoryIsRespectedOrNamed)
{
    auto model = loadOnnxModel(GetParam());
    ASSERT_TRUE(model.isOk()) << model.status().message();
    auto costed = buildPlacementModel(*model, CostOptions {});
    ASSERT_TRUE(costed.isOk()) << costed.status().message();
    OpGraph graph = costed->graph;
    auto pins = effectivePins(graph, {});
    ASSERT_TRUE(pins.isOk());
    const std::vector<int> topo = *topologicalOrder(graph);
    const int64_t allGpuPeak = simulate(graph, preferDevice(graph, *pins, 1), topo).peakMemoryBytes[1];
    if (allGpuPeak < 2)
        GTEST_SKIP() << "no GPU memory in use";
    graph.devices[1].memoryBytes = allGpuPeak / 2;
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto proposal = plan(graph, options);
        std::printf("%s %s, GPU limit %lld bytes (all-GPU peak %lld): %s\n",
            std::filesystem::path(GetParam()).filename().c_str(), objective == Objective::Sum ? "sum" : "makespan",
            static_cast<long long>(graph.devices[1].memoryBytes), static_cast<long long>(allGpuPeak),
            proposal.isOk() ? ("GPU peak " + std::to_string(proposal->timeline.peakMemoryBytes[1]) + ", "
                + (proposal->notes.empty() ? std::string("no notes") : proposal->notes.front()))
                                  .c_str()
                            : proposal.status().message().c_str());
        if (proposal.isOk())
            EXPECT_LE(proposal->timeline.peakMemoryBytes[1], graph.devices[1].memoryBytes);
        else
            EXPECT_NE(proposal.status().message().find("'" + graph.devices[1].name + "'"), std::string::npos)
                << proposal.status().message();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Models, RealModelsTest, ::testing::ValuesIn(modelFiles()), [](const ::testing::TestParamInfo<std::string>& param) {
        std::string name = std::filesystem::path(param.param).stem().string();
        for (char& c : name)
            if (!std::isalnum(static_cast<unsigned char>(c)))
                c = '_';
        return name;
    });

} // namespace
} // namespace placescope
