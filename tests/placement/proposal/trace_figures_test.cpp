// SPDX-License-Identifier: MIT
// The figures of issue 14 on the bundled ResNet-50 trace (V100, Kineto 2021) read as its own op graph, as
// `placescope place --model run.sqlite --trace run.sqlite` and the GUI's placement panel cost it:
// - "all on the CPU" is one figure whatever target GPU is picked (CPU costs come from the CPU model and from the
//   GPU that measured the ops, never from the target);
// - measured GPU times are scaled to the target (a T4 is slower than the V100 that measured them, an H100 faster);
// - the makespan proposal is never worse than all-GPU (T4: it was 152.99 ms against 143.00 ms);
// - a pin cannot beat the exact `sum` proposal;
// - without --gpu the trace's GPU is used.
#include "placement/cost/default_gpu.h"
#include "placement/cost/placement_model.h"
#include "placement/graph/trace_ops_graph.h"
#include "placement/proposal/placement_figures.h"
#include "profiler/importers/importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

namespace placescope {
namespace {

class ResNetTraceFigures : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_path = new std::string((std::filesystem::temp_directory_path()
            / ("placescope_trace_figures_" + std::to_string(::getpid()) + ".sqlite"))
                                     .string());
        std::filesystem::remove(*s_path);
        auto imported = importTraces(
            { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }, *s_path,
            {});
        ASSERT_TRUE(imported) << imported.status().message();
        auto graph = modelGraphFromTrace(*s_path);
        ASSERT_TRUE(graph) << graph.status().message();
        s_graph = new ModelGraph(std::move(graph).value());
    }
    static void TearDownTestSuite()
    {
        std::filesystem::remove(*s_path);
        delete s_path;
        delete s_graph;
    }

    static PlacementModel costed(const std::string& gpu)
    {
        CostOptions options;
        options.gpu = gpu;
        options.tracePath = *s_path;
        auto placement = buildPlacementModel(*s_graph, options);
        EXPECT_TRUE(placement) << placement.status().message();
        return placement ? std::move(placement).value() : PlacementModel {};
    }

    static PlacementFigures figures(
        const PlacementModel& placement, Objective objective, std::vector<std::pair<int, int>> pins = {})
    {
        PlanOptions options;
        options.objective = objective;
        options.pins = std::move(pins);
        auto planned = planPlacementFigures(placement, options);
        EXPECT_TRUE(planned) << planned.status().message();
        return planned ? std::move(planned).value() : PlacementFigures {};
    }

    static int graphOpNamed(const PlacementModel& placement, const std::string& name)
    {
        for (size_t op = 0; op < placement.graph.ops.size(); ++op)
            if (placement.graph.ops[op].id == name)
                return static_cast<int>(op);
        return -1;
    }

    static std::string* s_path;
    static ModelGraph* s_graph;
};

std::string* ResNetTraceFigures::s_path = nullptr;
ModelGraph* ResNetTraceFigures::s_graph = nullptr;

TEST_F(ResNetTraceFigures, AllCpuDoesNotDependOnTheTargetGpu)
{
    const PlacementModel v100 = costed("v100");
    const double allCpu = figures(v100, Objective::Sum).objectiveUs("all_cpu");
    ASSERT_GT(allCpu, 0);
    for (const char* gpu : { "t4", "h100", "from-trace" }) {
        const PlacementModel other = costed(gpu);
        EXPECT_NEAR(figures(other, Objective::Sum).objectiveUs("all_cpu"), allCpu, 1e-6 * allCpu) << gpu;
        // Op by op: the CPU column is the same table whatever the GPU.
        ASSERT_EQ(other.graph.ops.size(), v100.graph.ops.size());
        for (size_t op = 0; op < other.graph.ops.size(); ++op)
            ASSERT_EQ(other.graph.ops[op].costUs[0], v100.graph.ops[op].costUs[0])
                << gpu << " " << other.graph.ops[op].id;
    }
}

TEST_F(ResNetTraceFigures, MeasuredGpuTimesAreScaledToTheTarget)
{
    const double onTrace = figures(costed("from-trace"), Objective::Sum).objectiveUs("all_gpu");
    const double t4 = figures(costed("t4"), Objective::Sum).objectiveUs("all_gpu");
    const double h100 = figures(costed("h100"), Objective::Sum).objectiveUs("all_gpu");
    EXPECT_GT(t4, onTrace * 1.5) << "a T4 has half a V100's FP32 peak and a third of its bandwidth";
    EXPECT_LT(h100, onTrace / 1.5);
    // The traced GPU itself is the table's v100: its measurements are taken as they are.
    EXPECT_NEAR(figures(costed("v100"), Objective::Sum).objectiveUs("all_gpu"), onTrace, 0.01 * onTrace);
}

TEST_F(ResNetTraceFigures, MakespanProposalIsNeverWorseThanEitherSingleDevice)
{
    for (const char* gpu : { "t4", "v100", "h100" }) {
        const PlacementFigures f = figures(costed(gpu), Objective::Makespan);
        const double proposal = f.objectiveUs("proposal");
        ASSERT_GT(proposal, 0) << gpu;
        EXPECT_LE(proposal, f.objectiveUs("all_gpu") * (1 + 1e-9)) << gpu;
        EXPECT_LE(proposal, f.objectiveUs("all_cpu") * (1 + 1e-9)) << gpu;
        EXPECT_LE(proposal, f.objectiveUs("framework_default") * (1 + 1e-9)) << gpu;
        // The proposal row is the proposal's own timeline, not a re-simulation in another order.
        EXPECT_DOUBLE_EQ(proposal, f.proposal.objectiveUs) << gpu;
    }
}

TEST_F(ResNetTraceFigures, APinCannotBeatTheSumProposal)
{
    const PlacementModel t4 = costed("t4");
    const int conv = graphOpNamed(t4, "aten::conv2d#0");
    ASSERT_GE(conv, 0);
    const PlacementFigures free = figures(t4, Objective::Sum);
    EXPECT_TRUE(free.proposal.exact);
    const PlacementFigures pinned = figures(t4, Objective::Sum, { { conv, 0 } });
    EXPECT_EQ(pinned.proposal.assignment[static_cast<size_t>(conv)], 0);
    EXPECT_GE(pinned.objectiveUs("proposal"), free.objectiveUs("proposal"));
    // The pin holds in every baseline too.
    for (const PlacementComparison& row : pinned.comparisons)
        EXPECT_EQ(row.assignment[static_cast<size_t>(conv)], 0) << row.key;
}

TEST_F(ResNetTraceFigures, TheTraceGpuIsTheDefault)
{
    EXPECT_EQ(defaultGpuKey(*s_path), "from-trace");
    EXPECT_EQ(defaultGpuKey(""), kDefaultGpuKey);
}

} // namespace
} // namespace placescope
