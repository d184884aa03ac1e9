// SPDX-License-Identifier: MIT
#include "placement/engine/op_graph.h"

namespace placescope {

double OpGraph::transferUs(int fromDevice, int toDevice, int64_t bytes) const
{
    if (fromDevice == toDevice)
        return 0;
    const PlacementLink* reverse = nullptr;
    for (const PlacementLink& link : links) {
        if (link.from == fromDevice && link.to == toDevice)
            return link.latencyUs + static_cast<double>(bytes) / (link.bandwidthGBps * 1e3);
        if (link.from == toDevice && link.to == fromDevice)
            reverse = &link;
    }
    if (reverse)
        return reverse->latencyUs + static_cast<double>(bytes) / (reverse->bandwidthGBps * 1e3);
    return static_cast<double>(bytes) / 1e3;
}

} // namespace placescope
