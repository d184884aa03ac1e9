// SPDX-License-Identifier: MIT
// KernelIndex: kernels ordered by a time (their launch call's start, or their own start) with running sums of their
// durations, so "the kernels launched inside this range" is two binary searches. The annotations and sequences
// reports use one per launching thread.
#pragma once

#include "analysis/reports/report_context.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace placescope {

// Kernels in start order with running sums of their durations, so a range's count and time are two binary searches.
struct KernelIndex
{
    std::vector<int64_t> at; // launch call start (CPU index) or kernel start (GPU index)
    std::vector<int64_t> cumulative; // cumulative[i]: summed duration of the first i kernels
    std::vector<const GpuOp*> ops;

    void finish()
    {
        std::vector<size_t> order(at.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return at[a] < at[b]; });
        std::vector<int64_t> sortedAt;
        std::vector<const GpuOp*> sortedOps;
        cumulative.assign(1, 0);
        for (size_t i : order) {
            sortedAt.push_back(at[i]);
            sortedOps.push_back(ops[i]);
            cumulative.push_back(cumulative.back() + ops[i]->durationNs());
        }
        at = std::move(sortedAt);
        ops = std::move(sortedOps);
    }
    // [first, last) positions of the kernels with `at` in [from, to).
    std::pair<size_t, size_t> range(int64_t from, int64_t to) const
    {
        auto a = std::lower_bound(at.begin(), at.end(), from);
        auto b = std::lower_bound(a, at.end(), to);
        return { static_cast<size_t>(a - at.begin()), static_cast<size_t>(b - at.begin()) };
    }
};

// Every kernel with a launch call in the trace, indexed by the launching thread (globalTid) and the call's start.
inline std::unordered_map<int64_t, KernelIndex> kernelsByLaunchingThread(const ReportContext& ctx)
{
    std::unordered_map<int64_t, KernelIndex> byThread;
    for (const GpuOp& op : ctx.trace().gpuOps)
        if (op.kind == GpuOp::Kind::Kernel)
            if (const ApiCall* launch = ctx.launchOf(op)) {
                KernelIndex& index = byThread[launch->globalTid];
                index.at.push_back(launch->startNs);
                index.ops.push_back(&op);
            }
    for (auto& [tid, index] : byThread)
        index.finish();
    return byThread;
}

} // namespace placescope
