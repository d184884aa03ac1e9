// SPDX-License-Identifier: MIT
// The pinned PCIe link of a measured run, for edits that add or re-time copies (pinned, op:NAME=cpu|gpu): fitted to
// the trace's own pinned copies of that direction (latency + bytes / bandwidth, placement/cost/link_model.h),
// else the builtin PCIe 4 x16 link. `how` says which, for the edit's explanation.
#pragma once

#include "placement/cost/link_model.h"
#include "whatif/replay_graph.h"

#include <string>

namespace placescope {

LinkFit pinnedLinkOfTrace(const ReplayGraph& graph, bool hostToDevice, std::string* how);

} // namespace placescope
