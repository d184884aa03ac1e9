// SPDX-License-Identifier: MIT
#include "analysis/trace/gpu_facts.h"

#include "analysis/trace/gpu_facts_devices_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>

namespace placescope {
namespace {

struct Entry
{
    const char* marker;
    double computeCapability;
    const char* hostLink;
};

// Compute capability: NVIDIA's "CUDA GPUs - Compute Capability" table (developer.nvidia.com/cuda-gpus). Host link:
// the products' datasheets (PCIe generation of the board's host interface; GH200 reaches its host over NVLink-C2C,
// counted here as the PCIe 5 figures, a floor). Longer markers are tried first, so the order here does not matter.
constexpr Entry kGpus[] = {
    { "GB200", 10.0, "gen5_x16" },
    { "B200", 10.0, "gen5_x16" },
    { "B100", 10.0, "gen5_x16" },
    { "GH200", 9.0, "gen5_x16" },
    { "H200", 9.0, "gen5_x16" },
    { "H100", 9.0, "gen5_x16" },
    { "H800", 9.0, "gen5_x16" },
    { "H20", 9.0, "gen5_x16" },
    { "A100", 8.0, "gen4_x16" },
    { "A800", 8.0, "gen4_x16" },
    { "A30", 8.0, "gen4_x16" },
    { "A40", 8.6, "gen4_x16" },
    { "A10", 8.6, "gen4_x16" },
    { "L40", 8.9, "gen4_x16" },
    { "L4", 8.9, "gen4_x16" },
    { "RTX 40", 8.9, "gen4_x16" },
    { "RTX 30", 8.6, "gen4_x16" },
    { "V100", 7.0, "gen3_x16" },
    { "T4", 7.5, "gen3_x16" },
    { "RTX 20", 7.5, "gen3_x16" },
};

// A GPU the table does not know: the most common link of today's data-centre boards.
constexpr const char* kDefaultLink = "gen4_x16";

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

const std::map<std::string, HostLinkFacts>& links()
{
    static const std::map<std::string, HostLinkFacts> table = [] {
        std::map<std::string, HostLinkFacts> out;
        const auto doc = nlohmann::json::parse(kGpuFactsDevicesJson, nullptr, false);
        if (doc.is_discarded() || !doc.contains("links"))
            return out; // the build embeds the file; a test parses it (gpu_facts_test)
        for (const auto& [key, link] : doc["links"].items())
            out[key] = HostLinkFacts { key, link.value("theoretical_gbps", 0.0), link.value("pinned_gbps", 0.0),
                link.value("pageable_gbps", 0.0), link.value("pinned_latency_us", 0.0),
                link.value("pageable_latency_us", 0.0) };
        return out;
    }();
    return table;
}

} // namespace

Result<HostLinkFacts> hostLinkFacts(const std::string& key)
{
    const auto found = links().find(key);
    if (found == links().end())
        return Status::error("no host link '" + key + "' in resources/placement/devices.json");
    return found->second;
}

GpuFacts gpuFactsFor(const std::string& gpuName)
{
    const std::string name = upper(gpuName);
    const Entry* best = nullptr;
    for (const Entry& entry : kGpus)
        if (name.find(entry.marker) != std::string::npos
            && (!best || std::char_traits<char>::length(entry.marker) > std::char_traits<char>::length(best->marker)))
            best = &entry;
    GpuFacts facts;
    if (best) {
        facts.known = true;
        facts.marker = best->marker;
        facts.computeCapability = best->computeCapability;
    }
    if (auto link = hostLinkFacts(best ? best->hostLink : kDefaultLink); link.isOk())
        facts.hostLink = link.value();
    return facts;
}

} // namespace placescope
