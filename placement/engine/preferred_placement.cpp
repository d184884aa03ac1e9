// SPDX-License-Identifier: MIT
#include "placement/engine/preferred_placement.h"

#include <cmath>

namespace placescope {

std::vector<int> preferDevice(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, int device, int* elsewhere)
{
    std::vector<int> assignment(graph.ops.size(), device);
    int moved = 0;
    for (size_t op = 0; op < graph.ops.size(); ++op) {
        const std::vector<double>& cost = graph.ops[op].costUs;
        if (op < pins.size() && pins[op]) {
            assignment[op] = *pins[op];
        } else if (static_cast<size_t>(device) >= cost.size() || !std::isfinite(cost[static_cast<size_t>(device)])) {
            int cheapest = device;
            for (size_t d = 0; d < cost.size(); ++d)
                if (std::isfinite(cost[d]) && (cheapest == device || cost[d] < cost[static_cast<size_t>(cheapest)]))
                    cheapest = static_cast<int>(d);
            assignment[op] = cheapest;
        }
        const std::string& type = graph.ops[op].type;
        moved += assignment[op] != device && type != "Input" && type != "Output";
    }
    if (elsewhere)
        *elsewhere = moved;
    return assignment;
}

} // namespace placescope
