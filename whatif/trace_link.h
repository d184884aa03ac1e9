// SPDX-License-Identifier: MIT
// The pinned PCIe link of a measured run, for edits that add or re-time copies (pinned, op:NAME=cpu|gpu): fitted to
// the trace's own pinned copies of that direction (latency + bytes / bandwidth, placement/cost/link_model.h),
// else the pinned figures of the host link of the trace's GPU (analysis/trace/gpu_facts.h; PCIe 4 x16 for a GPU
// the table does not know). `how` says which, for the edit's explanation.
#pragma once

#include "analysis/trace/trace_data.h"
#include "placement/cost/link_model.h"
#include "whatif/replay_graph.h"

#include <string>

namespace placescope {

LinkFit pinnedLinkOfTrace(const TraceData& trace, const ReplayGraph& graph, bool hostToDevice, std::string* how);

} // namespace placescope
