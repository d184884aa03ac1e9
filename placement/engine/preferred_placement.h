// SPDX-License-Identifier: MIT
// The single-device placements users compare a proposal with ("all on the GPU", "all on the CPU"). A model
// always has ops that cannot follow: the host ends of its inputs and outputs are pinned to the CPU, some ops
// have no GPU kernel, the user pins others. So "all on device d" means every op on d where it may run there,
// the rest on their cheapest allowed device. The makespan solver starts from these very placements and the
// comparisons simulate them, which is what makes "never worse than all-GPU" hold (the solver only improves).
#pragma once

#include "placement/engine/op_graph.h"

#include <optional>
#include <vector>

namespace placescope {

// Every op on `device` where its kernel exists and no pin says otherwise; a pinned op on its pin; any other op
// on its cheapest device with a kernel. `elsewhere` (optional) counts the ops not on `device`, leaving out the
// host ends ("Input"/"Output" ops), which always live on the CPU and are not worth a note.
std::vector<int> preferDevice(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, int device, int* elsewhere = nullptr);

} // namespace placescope
