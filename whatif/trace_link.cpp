// SPDX-License-Identifier: MIT
#include "whatif/trace_link.h"

#include "analysis/trace/gpu_facts.h"

#include <vector>

namespace placescope {

LinkFit pinnedLinkOfTrace(const TraceData& trace, const ReplayGraph& graph, bool hostToDevice, std::string* how)
{
    // Measured durations: an edit earlier in the list may have re-timed a copy, and the link is the hardware's.
    std::vector<MemcpySample> samples;
    for (const ReplayTask& t : graph.tasks)
        if (t.kind == TaskKind::Memcpy && !t.pageable && t.nameId != -2 && t.hostToDevice == hostToDevice
            && graph.linksOf(t).bytes > 0 && t.measuredEnd > t.measuredStart)
            samples.push_back({ graph.linksOf(t).bytes, static_cast<double>(t.measuredEnd - t.measuredStart) / 1e3 });
    if (auto fit = fitLink(samples); fit.isOk()) {
        *how = std::to_string(samples.size()) + " pinned copies of the trace";
        return fit.value();
    }
    const GpuFacts gpu = gpuFactsFor(trace.devices.empty() ? std::string() : trace.devices.front().name);
    *how = "the " + gpu.hostLink.key + " link of " + (gpu.known ? "the " + gpu.marker : std::string("a GPU"))
        + " (too few pinned copies in the trace to fit)";
    LinkFit link;
    link.latencyUs = gpu.hostLink.pinnedLatencyUs;
    link.bandwidthGBps = gpu.hostLink.pinnedGBps;
    return link;
}

} // namespace placescope
