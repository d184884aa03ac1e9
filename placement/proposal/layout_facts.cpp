// SPDX-License-Identifier: MIT
#include "placement/proposal/layout_facts.h"

#include <algorithm>
#include <cctype>

namespace placescope {

double computeCapabilityFromName(const std::string& gpuName)
{
    std::string name = gpuName;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    struct Entry
    {
        const char* marker;
        double cc;
    };
    // Longer markers first so that "A100" is not read as "A10".
    static const Entry kEntries[] = { { "H200", 9.0 }, { "H100", 9.0 }, { "GH200", 9.0 }, { "A100", 8.0 },
        { "A30", 8.0 }, { "A40", 8.6 }, { "A10", 8.6 }, { "L40", 8.9 }, { "L4", 8.9 }, { "RTX 40", 8.9 },
        { "RTX 30", 8.6 }, { "V100", 7.0 }, { "T4", 7.5 }, { "RTX 20", 7.5 } };
    for (const Entry& entry : kEntries)
        if (name.find(entry.marker) != std::string::npos)
            return entry.cc;
    return 0;
}

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
