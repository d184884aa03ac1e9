// SPDX-License-Identifier: MIT
#include "placement/proposal/layout_facts.h"

#include "analysis/trace/gpu_facts.h"

namespace placescope {

double computeCapabilityFromName(const std::string& gpuName) { return gpuFactsFor(gpuName).computeCapability; }

LayoutFacts layoutFactsFor(const DeviceSpec& cpu, const DeviceSpec& gpu)
{
    LayoutFacts facts;
    if (cpu.memoryBytesPerSecond > 0)
        facts.cpuMemoryBandwidthGBps = cpu.memoryBytesPerSecond / 1e9;
    if (gpu.memoryBytesPerSecond > 0)
        facts.gpuMemoryBandwidthGBps = gpu.memoryBytesPerSecond / 1e9;
    facts.gpuComputeCapability = computeCapabilityFromName(gpu.name + " " + gpu.key);
    facts.tf32Enabled = true;
    return facts;
}

} // namespace placescope
