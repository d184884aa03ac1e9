// SPDX-License-Identifier: MIT
// The makespan solver against brute force (random_graphs.h defines it), plain HEFT and the single-device
// placements; the simulator and the solver agreeing on one time model; memory limits for both objectives;
// and the one-line errors for inputs no placement can satisfy.
#include "placement/engine/list_scheduler.h"
#include "placement/engine/planner.h"
#include "placement/engine/problem_file.h"
#include "random_graphs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace placescope {
namespace {

using test::bruteForceMakespan;
using test::feasibleDevice;
using test::randomGraph;

PlanOptions makespanOptions()
{
    PlanOptions options;
    options.objective = Objective::Makespan;
    return options;
}

bool allowedEverywhere(const OpGraph& graph, int device)
{
    for (int op = 0; op < static_cast<int>(graph.ops.size()); ++op)
        if (!feasibleDevice(graph, op, device))
            return false;
    return true;
}

// The best makespan of "everything on one device", in the topological and bottom-level orders.
double bestSingleDevice(const OpGraph& graph)
{
    const std::vector<int> topo = *topologicalOrder(graph);
    double best = kNoKernel;
    ListScheduler scheduler(graph);
    for (int d = 0; d < static_cast<int>(graph.devices.size()); ++d) {
        if (!allowedEverywhere(graph, d))
            continue;
        std::vector<int> single(graph.ops.size(), d);
        best = std::min(best, simulate(graph, single, topo).makespanUs);
        best = std::min(best, simulate(graph, single, scheduler.bottomLevelOrder(single, topo)).makespanUs);
    }
    return best;
}

TEST(MakespanTest, WithinFivePercentOfBruteForceUpToTenOps)
{
    std::mt19937 rng(2024);
    double worst = 0;
    int compared = 0;
    for (int seed = 0; seed < 240; ++seed) {
        const int n = 2 + seed % 9; // 2..10 ops
        OpGraph graph = randomGraph(rng, n, seed % 3);
        auto proposal = plan(graph, makespanOptions());
        const double reference = bruteForceMakespan(graph, 20);
        if (!std::isfinite(reference)) {
            EXPECT_FALSE(proposal.isOk()) << "seed " << seed;
            continue;
        }
        ASSERT_TRUE(proposal.isOk()) << proposal.status().message();
        const double ratio = proposal->objectiveUs / reference;
        worst = std::max(worst, ratio);
        ++compared;
        EXPECT_LE(ratio, 1.05) << "seed " << seed << " n " << n << " solver " << proposal->objectiveUs
                               << " brute force " << reference;
        EXPECT_GE(proposal->objectiveUs + 1e-6, proposal->lowerBoundUs) << "seed " << seed;
        EXPECT_LE(proposal->lowerBoundUs, reference + 1e-6) << "the lower bound must hold, seed " << seed;
    }
    EXPECT_GT(compared, 150);
    std::printf("makespan / brute force: worst %.4f over %d graphs\n", worst, compared);
}

// Up to about 11 free ops the solver tries every assignment (each in four list orders), so the test above
// mostly checks its list-order search; at 12-13 ops it relies on local moves and restarts.
TEST(MakespanTest, LocalSearchWithinFivePercentOfBruteForceAtTwelveOps)
{
    std::mt19937 rng(77);
    double worst = 0;
    int compared = 0;
    for (int seed = 0; seed < 24; ++seed) {
        const int n = 12 + seed % 2;
        OpGraph graph = randomGraph(rng, n, seed % 3);
        for (PlacementOp& op : graph.ops)
            op.pin.reset(); // keep every op free, so the enumeration is out of budget
        auto proposal = plan(graph, makespanOptions());
        const double reference = bruteForceMakespan(graph, 6);
        if (!std::isfinite(reference))
            continue;
        ASSERT_TRUE(proposal.isOk()) << proposal.status().message();
        worst = std::max(worst, proposal->objectiveUs / reference);
        ++compared;
        EXPECT_LE(proposal->objectiveUs, 1.05 * reference) << "seed " << seed << " n " << n;
    }
    EXPECT_GT(compared, 20);
    std::printf("makespan / brute force at 12-13 ops: worst %.4f over %d graphs\n", worst, compared);
}

TEST(MakespanTest, NeverWorseThanPlainHeftOrBestSingleDevice)
{
    std::mt19937 rng(99);
    for (int seed = 0; seed < 90; ++seed) {
        const int n = seed < 80 ? 5 + seed % 60 : 400 + seed;
        OpGraph graph = randomGraph(rng, n, seed % 3);
        auto proposal = plan(graph, makespanOptions());
        if (!proposal.isOk())
            continue; // no feasible placement at all: the brute-force tests cover that
        const std::vector<int> topo = *topologicalOrder(graph);
        auto pins = effectivePins(graph, {});
        ASSERT_TRUE(pins.isOk());
        Schedule heft = heftSchedule(graph, *pins, topo);
        const double heftMakespan = simulate(graph, heft.assignment, heft.order).makespanUs;
        EXPECT_LE(proposal->objectiveUs, heftMakespan + 1e-6) << "seed " << seed << " n " << n;
        EXPECT_LE(proposal->objectiveUs, bestSingleDevice(graph) + 1e-6) << "seed " << seed << " n " << n;
        for (int op = 0; op < n; ++op)
            EXPECT_TRUE(feasibleDevice(graph, op, proposal->assignment[op])) << "seed " << seed << " op " << op;
    }
}

TEST(MakespanTest, ProposalTimelineIsTheSimulatorsTimeline)
{
    std::mt19937 rng(3);
    for (int seed = 0; seed < 30; ++seed) {
        OpGraph graph = randomGraph(rng, 30, seed % 3);
        auto proposal = plan(graph, makespanOptions());
        if (!proposal.isOk())
            continue;
        Timeline replay = simulate(graph, proposal->assignment, proposal->order);
        EXPECT_DOUBLE_EQ(replay.makespanUs, proposal->objectiveUs);
        EXPECT_DOUBLE_EQ(replay.makespanUs, proposal->timeline.makespanUs);
        // The order is a topological order of every op.
        std::vector<int> position(graph.ops.size(), -1);
        for (size_t i = 0; i < proposal->order.size(); ++i)
            position[proposal->order[i]] = static_cast<int>(i);
        for (const PlacementEdge& edge : graph.edges)
            EXPECT_LT(position[edge.from], position[edge.to]);
        // Ops on one device never overlap; a transfer never starts before its producer ends.
        std::vector<double> opEnd(graph.ops.size(), 0);
        for (const TimelineSpan& span : proposal->timeline.spans)
            if (span.op >= 0)
                opEnd[span.op] = span.endUs;
        for (const TimelineSpan& a : proposal->timeline.spans) {
            if (a.op < 0) {
                EXPECT_GE(a.startUs + 1e-9, opEnd[graph.edges[a.edge].from]);
                continue;
            }
            for (const TimelineSpan& b : proposal->timeline.spans) {
                if (b.op > a.op && a.device == b.device) {
                    EXPECT_TRUE(a.endUs <= b.startUs + 1e-9 || b.endUs <= a.startUs + 1e-9);
                }
            }
        }
    }
}

TEST(MakespanTest, TransfersOnOneLinkRunOneAtATime)
{
    // a and b on the CPU feed c on the GPU: both copies use the CPU->GPU link, so the second waits.
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    graph.links = { { 0, 1, 0, 1 }, { 1, 0, 0, 1 } }; // 1 KB/us
    graph.ops = { { "a", "", { 10, 10 }, {}, 0 }, { "b", "", { 10, 10 }, {}, 0 }, { "c", "", { 5, 5 }, {}, 0 } };
    graph.edges = { { 0, 2, 20000 }, { 1, 2, 20000 } }; // 20 us each
    Timeline t = simulate(graph, { 0, 0, 1 }, { 0, 1, 2 });
    // a ends at 10 and its copy runs 10-30; b ends at 20, its copy waits for the link: 30-50; c runs 50-55.
    EXPECT_DOUBLE_EQ(t.makespanUs, 55);
    EXPECT_EQ(t.transferCount, 2);
}

TEST(MakespanTest, HeftBeatsBothSingleDevicesWhenWorkSplits)
{
    // Two independent chains, each twice as fast on its own device: the overlap halves the makespan.
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    graph.links = { { 0, 1, 10, 10 } };
    graph.ops = { { "c1", "", { 100, 200 }, {}, 0 }, { "c2", "", { 100, 200 }, {}, 0 },
        { "g1", "", { 200, 100 }, {}, 0 }, { "g2", "", { 200, 100 }, {}, 0 } };
    graph.edges = { { 0, 1, 1000 }, { 2, 3, 1000 } };
    auto proposal = plan(graph, makespanOptions());
    ASSERT_TRUE(proposal.isOk());
    EXPECT_DOUBLE_EQ(proposal->objectiveUs, 200);
    EXPECT_EQ(proposal->assignment, (std::vector<int> { 0, 0, 1, 1 }));
    EXPECT_DOUBLE_EQ(proposal->lowerBoundUs, 200); // total cheapest work 400 over 2 devices
}

// Memory: GPU limit set below what the unconstrained plan needs.
TEST(MemoryTest, BothObjectivesStayWithinLimitsWhenAPlacementFits)
{
    std::mt19937 rng(17);
    int constrained = 0;
    for (int seed = 0; seed < 80; ++seed) {
        const int n = 3 + seed % 8;
        OpGraph graph = randomGraph(rng, n, 1);
        for (const Objective objective : { Objective::Sum, Objective::Makespan }) {
            PlanOptions options;
            options.objective = objective;
            auto free = plan(graph, options);
            if (!free.isOk())
                continue;
            OpGraph limited = graph;
            const int64_t gpuPeak = free->timeline.peakMemoryBytes[1];
            if (gpuPeak <= 1)
                continue;
            limited.devices[1].memoryBytes = gpuPeak * (4 + seed % 5) / 10; // 40-80% of what it used
            const double reference = bruteForceMakespan(limited, 4, true);
            auto proposal = plan(limited, options);
            if (proposal.isOk()) {
                EXPECT_LE(proposal->timeline.peakMemoryBytes[1], limited.devices[1].memoryBytes) << "seed " << seed;
                if (objective == Objective::Sum) {
                    // Either the min cut still fits (in another list order) or the repair says it moved ops.
                    if (proposal->exact)
                        EXPECT_NEAR(proposal->objectiveUs, free->objectiveUs, 1e-6 * free->objectiveUs);
                    else
                        EXPECT_FALSE(proposal->notes.empty());
                    EXPECT_GE(proposal->objectiveUs + 1e-6, free->objectiveUs); // the min cut is a lower bound
                    EXPECT_LE(proposal->lowerBoundUs, proposal->objectiveUs + 1e-6);
                }
                ++constrained;
            } else {
                EXPECT_FALSE(std::isfinite(reference))
                    << "seed " << seed
                    << ": brute force fits the limit but plan failed: " << proposal.status().message();
                EXPECT_NE(proposal.status().message().find("'gpu'"), std::string::npos);
            }
        }
    }
    EXPECT_GT(constrained, 35);
}

TEST(MemoryTest, ImpossibleLimitsNameTheDeviceAndBytes)
{
    const std::string devices
        = R"("devices":[{"name":"cpu","memory_bytes":1000},{"name":"gpu","kind":"gpu","memory_bytes":500}])";
    // A pinned op alone is larger than its device.
    auto pinned = parsePlacementProblem("{" + devices + R"(,
        "ops":[{"id":"big","cost_us":{"cpu":1,"gpu":1},"pin":"gpu","memory_bytes":800}]})");
    ASSERT_TRUE(pinned.isOk());
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto result = plan(*pinned, options);
        ASSERT_FALSE(result.isOk());
        const std::string& message = result.status().message();
        EXPECT_NE(message.find("'gpu'"), std::string::npos) << message;
        EXPECT_NE(message.find("800 B,"), std::string::npos) << message;
        EXPECT_NE(message.find("limit of 500 B"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
    // Three 600-byte outputs live at once (c reads a and b): fits neither device, nor any split of them.
    auto crowded = parsePlacementProblem("{" + devices + R"(,
        "ops":[{"id":"a","cost_us":{"cpu":1,"gpu":1},"memory_bytes":600},
               {"id":"b","cost_us":{"cpu":1,"gpu":1},"memory_bytes":600},
               {"id":"c","cost_us":{"cpu":1,"gpu":1},"memory_bytes":600}],
        "edges":[{"from":"a","to":"c"},{"from":"b","to":"c"}]})");
    ASSERT_TRUE(crowded.isOk());
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto result = plan(*crowded, options);
        ASSERT_FALSE(result.isOk());
        EXPECT_NE(result.status().message().find("memory limit of"), std::string::npos) << result.status().message();
        EXPECT_NE(result.status().message().find(" B"), std::string::npos) << result.status().message();
    }
}

TEST(BadInputTest, CyclesAndBadPinsAreErrorsForBothObjectives)
{
    auto cycle = parsePlacementProblem(R"({"devices":[{"name":"cpu"},{"name":"gpu","kind":"gpu"}],
        "ops":[{"id":"a","cost_us":{"cpu":1,"gpu":1}},{"id":"b","cost_us":{"cpu":1,"gpu":1}},{"id":"c","cost_us":{"cpu":1,"gpu":1}}],
        "edges":[{"from":"a","to":"b"},{"from":"b","to":"c"},{"from":"c","to":"b"}]})");
    ASSERT_TRUE(cycle.isOk());
    auto noKernel = parsePlacementProblem(R"({"devices":[{"name":"cpu"},{"name":"gpu","kind":"gpu"}],
        "ops":[{"id":"decode","cost_us":{"cpu":1,"gpu":null},"pin":"gpu"}]})");
    ASSERT_TRUE(noKernel.isOk());
    auto missingDevice = parsePlacementProblem(R"({"devices":[{"name":"cpu"}],
        "ops":[{"id":"a","cost_us":{"cpu":1},"pin":"gpu"}]})");
    ASSERT_FALSE(missingDevice.isOk());
    EXPECT_NE(missingDevice.status().message().find("missing device 'gpu'"), std::string::npos);
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto cyclic = plan(*cycle, options);
        ASSERT_FALSE(cyclic.isOk());
        EXPECT_NE(cyclic.status().message().find("cycle"), std::string::npos);
        auto pinned = plan(*noKernel, options);
        ASSERT_FALSE(pinned.isOk());
        EXPECT_NE(pinned.status().message().find("no kernel"), std::string::npos) << pinned.status().message();
        // The same through PlanOptions::pins (the GUI's pins): a missing device and a device without a kernel.
        OpGraph free = *noKernel;
        free.ops[0].pin.reset();
        options.pins = { { 0, 7 } };
        auto missing = plan(free, options);
        ASSERT_FALSE(missing.isOk());
        EXPECT_NE(missing.status().message().find("missing device"), std::string::npos) << missing.status().message();
        options.pins = { { 0, 1 } };
        auto noGpuKernel = plan(free, options);
        ASSERT_FALSE(noGpuKernel.isOk());
        EXPECT_NE(noGpuKernel.status().message().find("'gpu' which has no kernel"), std::string::npos);
    }
}

TEST(MakespanTest, ThreeDevicesAndEmptyGraphs)
{
    std::mt19937 rng(31);
    for (int seed = 0; seed < 20; ++seed) {
        OpGraph graph = randomGraph(rng, 8 + seed, seed % 3);
        graph.devices.push_back({ "gpu1", DeviceKind::Gpu, 0 });
        graph.links.push_back({ 1, 2, 5, 50 });
        std::uniform_real_distribution<double> cost(1, 200);
        for (PlacementOp& op : graph.ops)
            op.costUs.push_back(cost(rng));
        auto proposal = plan(graph, makespanOptions());
        if (!proposal.isOk())
            continue;
        auto pins = effectivePins(graph, {});
        const std::vector<int> topo = *topologicalOrder(graph);
        Schedule heft = heftSchedule(graph, *pins, topo);
        EXPECT_LE(proposal->objectiveUs, simulate(graph, heft.assignment, heft.order).makespanUs + 1e-6);
        EXPECT_LE(proposal->objectiveUs, bestSingleDevice(graph) + 1e-6);
        EXPECT_FALSE(plan(graph, {}).isOk()) << "the sum objective is exact for two devices only";
    }
    OpGraph empty;
    empty.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        PlanOptions options;
        options.objective = objective;
        auto proposal = plan(empty, options);
        ASSERT_TRUE(proposal.isOk());
        EXPECT_EQ(proposal->objectiveUs, 0);
    }
}

TEST(MakespanTest, PinsFromOptionsAreRespected)
{
    std::mt19937 rng(8);
    for (int seed = 0; seed < 40; ++seed) {
        OpGraph graph = randomGraph(rng, 12, seed % 3);
        PlanOptions options = makespanOptions();
        for (int op = 0; op < 12; op += 3)
            if (!graph.ops[op].pin && std::isfinite(graph.ops[op].costUs[1]))
                options.pins.push_back({ op, seed % 2 });
        auto proposal = plan(graph, options);
        if (!proposal.isOk())
            continue;
        for (auto [op, device] : options.pins)
            EXPECT_EQ(proposal->assignment[op], device) << "seed " << seed;
    }
}

} // namespace
} // namespace placescope
