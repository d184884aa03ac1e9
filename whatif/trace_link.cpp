// SPDX-License-Identifier: MIT
#include "whatif/trace_link.h"

#include "placement/cost/device_table.h"

#include <vector>

namespace placescope {

LinkFit pinnedLinkOfTrace(const ReplayGraph& graph, bool hostToDevice, std::string* how)
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
    *how = "the builtin PCIe 4 x16 link (too few pinned copies in the trace to fit)";
    auto table = DeviceTable::builtin();
    if (table.isOk())
        if (auto spec = table.value().link("gen4_x16"); spec.isOk())
            return PcieModel::fromSpec(spec.value()).link(hostToDevice, true);
    return LinkFit {};
}

} // namespace placescope
