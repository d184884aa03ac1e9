// SPDX-License-Identifier: MIT
#include "whatif/run_signature.h"

#include "analysis/trace/run_comparability.h"

#include <algorithm>
#include <unordered_set>

namespace placescope {

RunSignature runSignature(const TraceData& trace, const ReplayGraph& graph)
{
    RunSignature s;
    for (const GpuDevice& d : trace.devices)
        s.gpus.push_back(d.name);
    std::sort(s.gpus.begin(), s.gpus.end());
    s.gpus.erase(std::unique(s.gpus.begin(), s.gpus.end()), s.gpus.end());
    std::unordered_set<int32_t> seen;
    for (size_t id = 0; id < graph.tasks.size(); ++id) {
        const ReplayTask& t = graph.tasks[id];
        if (t.kind == TaskKind::Kernel && graph.inSpan[id] && seen.insert(t.nameId).second)
            s.kernels.push_back(taskName(trace, t));
    }
    std::sort(s.kernels.begin(), s.kernels.end());
    s.kernels.erase(std::unique(s.kernels.begin(), s.kernels.end()), s.kernels.end());
    return s;
}

std::vector<std::string> comparabilityWarnings(const RunSignature& before, const RunSignature& after)
{
    std::vector<std::string> warnings;
    if (auto gpus = gpuMismatch(before.gpus, after.gpus))
        warnings.push_back(*gpus);
    if (auto kernels = kernelSetMismatch(before.kernels, after.kernels))
        warnings.push_back(*kernels);
    return warnings;
}

} // namespace placescope
