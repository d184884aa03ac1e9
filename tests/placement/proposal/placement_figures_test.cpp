// SPDX-License-Identifier: MIT
// planPlacementFigures and the saving line: pins given as plan options (the GUI) and pins set on the graph (the
// CLI's --pin) give the same figures; the baselines keep pinned ops where they are pinned; savings are rounded
// and "no saving" where the two figures are the same placement.
#include "placement/proposal/placement_figures.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

// input (host end, CPU only) -> a (GPU much faster) -> b (GPU faster) -> output (host end).
PlacementModel smallModel()
{
    PlacementModel m;
    OpGraph& g = m.graph;
    g.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    g.links = { { 0, 1, 5, 10 }, { 1, 0, 5, 10 } };
    g.ops = { { "input:x", "Input", { 0, kNoKernel }, 0, 0 }, { "a", "Conv", { 900, 20 }, std::nullopt, 0 },
        { "b", "Relu", { 40, 10 }, std::nullopt, 0 }, { "output:y", "Output", { 0, kNoKernel }, 0, 0 } };
    g.edges = { { 0, 1, 1000 }, { 1, 2, 1000 }, { 2, 3, 1000 } };
    m.frameworkDefault = { 0, 1, 1, 0 };
    return m;
}

TEST(PlacementFigures, PinsAsOptionsAndOnTheGraphGiveTheSameFigures)
{
    const PlacementModel model = smallModel();
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        options.pins = { { 2, 0 } };
        auto viaOptions = planPlacementFigures(model, options);
        ASSERT_TRUE(viaOptions) << viaOptions.status().message();
        PlacementModel pinned = model;
        pinned.graph.ops[2].pin = 0;
        PlanOptions plain;
        plain.objective = objective;
        auto viaGraph = planPlacementFigures(pinned, plain);
        ASSERT_TRUE(viaGraph) << viaGraph.status().message();
        ASSERT_EQ(viaOptions->comparisons.size(), 4u);
        ASSERT_EQ(viaGraph->comparisons.size(), 4u);
        for (size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(viaOptions->comparisons[i].key, viaGraph->comparisons[i].key);
            EXPECT_EQ(viaOptions->comparisons[i].objectiveUs, viaGraph->comparisons[i].objectiveUs)
                << viaOptions->comparisons[i].key;
            EXPECT_EQ(viaOptions->comparisons[i].assignment[2], 0) << viaOptions->comparisons[i].key;
        }
    }
}

TEST(PlacementFigures, EveryFigureIsTheChosenObjective)
{
    const PlacementModel model = smallModel();
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto figures = planPlacementFigures(model, options);
        ASSERT_TRUE(figures);
        EXPECT_EQ(figures->objective, objective);
        for (const PlacementComparison& row : figures->comparisons)
            EXPECT_EQ(row.objectiveUs, objective == Objective::Sum ? row.timeline.sumUs : row.timeline.makespanUs);
        EXPECT_EQ(figures->objectiveUs("proposal"), figures->proposal.objectiveUs);
        EXPECT_EQ(figures->objectiveUs("nothing"), -1);
    }
}

TEST(PlacementFigures, SavingLineRoundsAndSaysNoSaving)
{
    // The noise of two equal placements simulated twice (the issue's `1.455e-08 ns`, `-2.91e-08 ns (-0.0 %)`).
    EXPECT_EQ(savingLine("framework default", 143020.0 + 1.455e-11, 143020.0), "no saving vs framework default");
    EXPECT_EQ(savingLine("framework default", 143020.0 - 2.91e-11, 143020.0), "no saving vs framework default");
    EXPECT_EQ(savingLine("framework default", 513.8, 345.0), "saving vs framework default: 169 us (32.9 %)");
    EXPECT_EQ(savingLine("framework default", 3000.0, 1800.0), "saving vs framework default: 1.20 ms (40.0 %)");
    EXPECT_EQ(
        savingLine("all on the GPU", 100.0, 103.0), "no saving vs all on the GPU (the proposal is 3.00 us longer)");
    EXPECT_EQ(savingLine("framework default", -1, 10), "saving vs framework default: n/a");
    EXPECT_EQ(objectiveKey(Objective::Makespan), std::string("makespan"));
}

} // namespace
} // namespace placescope
