// SPDX-License-Identifier: MIT
// placement_bench: plan() for both objectives on random layered graphs of 10k and 100k ops, timed against a
// baseline measured in the same run (topological sort + one all-GPU simulation of the same graph), with the
// issue's targets (10k ops < 1 s, 100k ops < 10 s). For the makespan it also prints plain HEFT and the
// search without local improvement (searchEffort 0), so the improvement's cost and gain are visible; then
// both objectives again with the GPU memory capped at half of what the proposals needed.
// Exit status 1 when a target is missed or a plan fails.
#include "placement/engine/planner.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

using namespace placescope;

namespace {

OpGraph layeredGraph(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> cost(1, 200), coin(0, 1);
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    graph.links = { { 0, 1, 10, 12 }, { 1, 0, 10, 12 } };
    for (int i = 0; i < n; ++i) {
        PlacementOp op { "op" + std::to_string(i), "", { cost(rng), cost(rng) / 10 }, {}, 4096 };
        if (coin(rng) < 0.05)
            op.costUs[1] = kNoKernel;
        graph.ops.push_back(op);
    }
    std::uniform_int_distribution<int> back(1, 50);
    for (int to = 1; to < n; ++to)
        for (int k = 0; k < 2; ++k)
            graph.edges.push_back({ std::max(0, to - back(rng)), to, 100000 });
    return graph;
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string secs(double seconds) { return formatNanoseconds(seconds * 1e9); }
std::string us(double microseconds) { return formatNanoseconds(microseconds * 1e3); }

} // namespace

int main()
{
    bool ok = true;
    for (int n : { 10000, 100000 }) {
        const double target = n <= 10000 ? 1.0 : 10.0;
        OpGraph graph = layeredGraph(n, 1);
        auto t0 = std::chrono::steady_clock::now();
        auto order = topologicalOrder(graph);
        std::vector<int> allGpu(n, 1);
        for (int i = 0; i < n; ++i)
            if (!std::isfinite(graph.ops[i].costUs[1]))
                allGpu[i] = 0;
        Timeline baseline = simulate(graph, allGpu, *order);
        const double baseS = secondsSince(t0);

        t0 = std::chrono::steady_clock::now();
        auto sum = plan(graph, {});
        const double sumS = secondsSince(t0);

        PlanOptions makespanOptions;
        makespanOptions.objective = Objective::Makespan;
        t0 = std::chrono::steady_clock::now();
        auto makespan = plan(graph, makespanOptions);
        const double makespanS = secondsSince(t0);

        makespanOptions.searchEffort = 0;
        t0 = std::chrono::steady_clock::now();
        auto startsOnly = plan(graph, makespanOptions);
        const double startsS = secondsSince(t0);

        auto pins = effectivePins(graph, {});
        t0 = std::chrono::steady_clock::now();
        Schedule heft = heftSchedule(graph, *pins, *order);
        const double heftUs = simulate(graph, heft.assignment, heft.order).makespanUs;
        const double heftS = secondsSince(t0);

        if (!sum.isOk() || !makespan.isOk() || !startsOnly.isOk()) {
            std::printf("n=%d plan failed\n", n);
            return 1;
        }
        const bool sumOk = sumS < target;
        const bool makespanOk = makespanS < target;
        ok = ok && sumOk && makespanOk;
        std::printf("ops=%d edges=%zu baseline(topo sort + all-GPU simulation)=%s\n", n, graph.edges.size(),
            secs(baseS).c_str());
        std::printf("  sum:      plan %s (%.1fx baseline, target < %s: %s)  total %s vs GPU-where-possible %s\n",
            secs(sumS).c_str(), sumS / baseS, secs(target).c_str(), sumOk ? "ok" : "MISSED",
            us(sum->objectiveUs).c_str(), us(baseline.sumUs).c_str());
        std::printf("  makespan: plan %s (%.1fx baseline, target < %s: %s)  %s; without local improvement "
                    "%s in %s; plain HEFT %s in %s; GPU-where-possible %s; lower bound %s\n",
            secs(makespanS).c_str(), makespanS / baseS, secs(target).c_str(), makespanOk ? "ok" : "MISSED",
            us(makespan->objectiveUs).c_str(), us(startsOnly->objectiveUs).c_str(), secs(startsS).c_str(),
            us(heftUs).c_str(), secs(heftS).c_str(), us(baseline.makespanUs).c_str(),
            us(makespan->lowerBoundUs).c_str());

        // Memory-aware: the GPU capped at half of what the unconstrained proposals peak at.
        OpGraph capped = graph;
        capped.devices[1].memoryBytes = std::max<int64_t>(
            4096, std::min(sum->timeline.peakMemoryBytes[1], makespan->timeline.peakMemoryBytes[1]) / 2);
        for (Objective objective : { Objective::Sum, Objective::Makespan }) {
            PlanOptions options;
            options.objective = objective;
            t0 = std::chrono::steady_clock::now();
            auto limited = plan(capped, options);
            const double limitedS = secondsSince(t0);
            const bool inTime = limitedS < target;
            ok = ok && inTime && limited.isOk();
            std::printf("  %-8s with GPU memory capped at %s: plan %s (target < %s: %s)  ",
                objective == Objective::Sum ? "sum" : "makespan", formatBytes(capped.devices[1].memoryBytes).c_str(),
                secs(limitedS).c_str(), secs(target).c_str(), inTime ? "ok" : "MISSED");
            if (limited.isOk())
                std::printf("%s, GPU peak %s%s\n", us(limited->objectiveUs).c_str(),
                    formatBytes(limited->timeline.peakMemoryBytes[1]).c_str(),
                    limited->notes.empty() ? "" : (" (" + limited->notes.front() + ")").c_str());
            else
                std::printf("%s\n", limited.status().message().c_str());
        }
    }
    return ok ? 0 : 1;
}
