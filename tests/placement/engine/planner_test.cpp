// SPDX-License-Identifier: MIT
// The engine against brute force: `sum` must equal the exhaustive optimum on random DAGs with pins and
// missing kernels; the simulator's sum must match a hand computation; bad graphs give one-line errors.
#include "placement/engine/planner.h"
#include "placement/engine/problem_file.h"
#include "random_graphs.h"
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace placescope {
namespace {

using test::randomGraph;

TEST(PlannerTest, SumEqualsBruteForceOnRandomGraphs)
{
    std::mt19937 rng(7);
    for (int seed = 0; seed < 300; ++seed) {
        const int n = 1 + seed % 16;
        OpGraph graph = randomGraph(rng, n);
        auto order = topologicalOrder(graph);
        ASSERT_TRUE(order.isOk());
        double best = kNoKernel;
        for (uint32_t mask = 0; mask < (1u << n); ++mask) {
            std::vector<int> assignment(n);
            bool feasible = true;
            for (int i = 0; i < n; ++i) {
                assignment[i] = (mask >> i) & 1;
                const PlacementOp& op = graph.ops[i];
                feasible = feasible && std::isfinite(op.costUs[assignment[i]]) && (!op.pin || *op.pin == assignment[i]);
            }
            if (feasible)
                best = std::min(best, simulate(graph, assignment, *order).sumUs);
        }
        auto proposal = plan(graph, {});
        if (!std::isfinite(best)) {
            EXPECT_FALSE(proposal.isOk()) << "seed " << seed;
            continue;
        }
        ASSERT_TRUE(proposal.isOk()) << proposal.status().message();
        EXPECT_NEAR(proposal->timeline.sumUs, best, 1e-6 * best) << "seed " << seed << " n " << n;
    }
}

TEST(PlannerTest, MakespanBetweenLowerBoundAndSingleDevice)
{
    std::mt19937 rng(11);
    for (int seed = 0; seed < 100; ++seed) {
        OpGraph graph = randomGraph(rng, 2 + seed % 30);
        auto order = topologicalOrder(graph);
        PlanOptions options;
        options.objective = Objective::Makespan;
        auto proposal = plan(graph, options);
        if (!proposal.isOk())
            continue; // infeasible pins: covered by the sum test
        EXPECT_GE(proposal->objectiveUs + 1e-6, proposal->lowerBoundUs) << seed;
        for (int d = 0; d < 2; ++d) {
            bool feasible = true;
            for (const PlacementOp& op : graph.ops)
                feasible = feasible && std::isfinite(op.costUs[d]) && (!op.pin || *op.pin == d);
            if (feasible) {
                EXPECT_LE(proposal->objectiveUs,
                    simulate(graph, std::vector<int>(graph.ops.size(), d), *order).makespanUs + 1e-6);
            }
        }
    }
}

TEST(PlannerTest, SimulatorChargesTransfersAndOverlaps)
{
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    graph.links = { { 0, 1, 10, 1 }, { 1, 0, 10, 1 } }; // 10 us + 1 KB/us
    graph.ops = { { "a", "", { 5, 100 }, {}, 1000 }, { "b", "", { 100, 7 }, {}, 0 }, { "c", "", { 3, 100 }, {}, 0 } };
    graph.edges = { { 0, 1, 2000 }, { 0, 2, 0 } };
    Timeline t = simulate(graph, { 0, 1, 0 }, { 0, 1, 2 });
    EXPECT_DOUBLE_EQ(t.sumUs, 5 + 7 + 3 + 12);
    EXPECT_DOUBLE_EQ(t.makespanUs, 5 + 12 + 7); // c overlaps with the transfer and b
    EXPECT_EQ(t.transferredBytes, 2000);
    EXPECT_EQ(t.peakMemoryBytes[0], 1000);
}

TEST(PlannerTest, BadGraphsGiveOneLineErrors)
{
    auto cycle = parsePlacementProblem(R"({"devices":[{"name":"cpu"},{"name":"gpu","kind":"gpu"}],
        "ops":[{"id":"a","cost_us":{"cpu":1,"gpu":1}},{"id":"b","cost_us":{"cpu":1,"gpu":1}}],
        "edges":[{"from":"a","to":"b"},{"from":"b","to":"a"}]})");
    ASSERT_TRUE(cycle.isOk());
    auto planned = plan(*cycle, {});
    ASSERT_FALSE(planned.isOk());
    EXPECT_NE(planned.status().message().find("cycle"), std::string::npos);

    auto pin = parsePlacementProblem(R"({"devices":[{"name":"cpu"}],
        "ops":[{"id":"a","cost_us":{"cpu":1},"pin":"tpu"}]})");
    ASSERT_FALSE(pin.isOk());
    EXPECT_NE(pin.status().message().find("missing device 'tpu'"), std::string::npos);

    auto truncated = parsePlacementProblem(R"({"devices":[{"name":"cpu"}],"ops":[{"id")");
    ASSERT_FALSE(truncated.isOk());
    EXPECT_EQ(truncated.status().message().find('\n'), std::string::npos);

    auto memory = parsePlacementProblem(R"({"devices":[{"name":"cpu","memory_bytes":10}],
        "ops":[{"id":"a","cost_us":{"cpu":1},"memory_bytes":100}]})");
    ASSERT_TRUE(memory.isOk());
    auto overMemory = plan(*memory, {});
    ASSERT_FALSE(overMemory.isOk());
    EXPECT_NE(overMemory.status().message().find("memory limit"), std::string::npos);
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

int runCli(const std::vector<std::string>& args)
{
    std::vector<std::string> argv { "place" };
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::runPlacescope(argv).exitCode;
}

TEST(PlaceCommandTest, GoodAndBadProblemFiles)
{
    const testing::TempDir temp("planner_cli");
    const std::string dir = temp.path().string();
    auto write = [&](const std::string& name, const std::string& text) {
        std::string path = dir + "/" + name;
        FILE* f = std::fopen(path.c_str(), "wb");
        std::fputs(text.c_str(), f);
        std::fclose(f);
        return path;
    };
    const std::string good = R"({"devices":[{"name":"cpu"},{"name":"gpu","kind":"gpu"}],
        "ops":[{"id":"a","cost_us":{"cpu":1,"gpu":5}},{"id":"b","cost_us":{"cpu":9,"gpu":1}}],
        "edges":[{"from":"a","to":"b","bytes":10}]})";
    EXPECT_EQ(runCli({ "--problem", write("good.json", good), "--objective", "sum", "--json" }), 0);
    EXPECT_NE(runCli({ "--problem", write("trunc.json", good.substr(0, 40)) }), 0);
    EXPECT_NE(runCli({ "--problem", dir + "/missing.json" }), 0);
    std::string cyclic = good;
    cyclic.replace(cyclic.find(R"("bytes":10})"), 11, R"("bytes":10},{"from":"b","to":"a"})");
    EXPECT_NE(runCli({ "--problem", write("cycle.json", cyclic) }), 0);
}

} // namespace
} // namespace placescope
