// SPDX-License-Identifier: MIT
// A run's GPUs and kernel names, to tell whether a run measured after a change can judge a prediction made from
// it (analysis/trace/run_comparability.h says when it cannot). `whatif --compare` warns where they differ.
#pragma once

#include "analysis/trace/trace_data.h"
#include "whatif/replay_graph.h"

#include <string>
#include <vector>

namespace placescope {

struct RunSignature
{
    std::vector<std::string> gpus; // device names, sorted
    std::vector<std::string> kernels; // kernel names of the span's work, sorted, unique
};

RunSignature runSignature(const TraceData& trace, const ReplayGraph& graph);

// One line per way the two runs are not comparable; empty when they are.
std::vector<std::string> comparabilityWarnings(const RunSignature& before, const RunSignature& after);

} // namespace placescope
