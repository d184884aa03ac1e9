// SPDX-License-Identifier: MIT
// Which GPU the costs are for when the user names none: the GPU the trace ran on, so that a proposal for a
// measured run is priced on the hardware that measured it, in the CLI and the GUI alike.
#pragma once

#include <string>

namespace placescope {

// The GPU without a trace (or with one that records no GPU the cost model can price).
inline constexpr const char* kDefaultGpuKey = "h100";

// "from-trace" when `tracePath` records its GPU in TARGET_INFO_GPU and the device table can price it (what
// gpuSpecFromTrace accepts), else kDefaultGpuKey. Reads the trace; no trace path gives kDefaultGpuKey.
std::string defaultGpuKey(const std::string& tracePath);

} // namespace placescope
