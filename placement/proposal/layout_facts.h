// SPDX-License-Identifier: MIT
// The device and dtype facts the layout pass takes, from the cost model's device specs.
#pragma once

#include "placement/cost/device_table.h"
#include "placement/layout/layout_pass.h"

namespace placescope {

// Compute capability comes from the GPU's name through the one table of GPU facts (analysis/trace/gpu_facts.h):
// H100/H200 9.0, A100/A10/A30/A40/L4/L40 8.x, V100/T4 7.x; anything else 0 (no tensor-core rule, noted by the pass).
double computeCapabilityFromName(const std::string& gpuName);

LayoutFacts layoutFactsFor(const DeviceSpec& cpu, const DeviceSpec& gpu);

} // namespace placescope
