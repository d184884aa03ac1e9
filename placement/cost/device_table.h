// SPDX-License-Identifier: MIT
// DeviceTable: the device specs the roofline and the link model price with (resources/placement/devices.json,
// embedded at build time), and a GPU spec derived from a trace's TARGET_INFO_GPU row for `--gpu from-trace`.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace placescope {

struct DeviceSpec
{
    std::string key; // the table key ("h100", "host") or "from-trace"
    std::string name; // what users read ("NVIDIA H100 SXM5 80GB")
    bool isGpu = false;
    double fp32FlopsPerSecond = 0;
    double tensorFp16FlopsPerSecond = 0; // FP16/BF16 matrix peak (tensor cores); == FP32 peak where none
    double memoryBytesPerSecond = 0;
    int64_t memoryBytes = 0; // 0 = not a limit
    double launchOverheadUs = 0; // fixed cost of one op (kernel launch or framework dispatch)
    std::string pcie; // key into DeviceTable::links() ("gen4_x16"); GPUs only
    std::vector<std::string> match; // substrings of a driver-reported name that mean this device
};

// One direction-agnostic PCIe figure set: latency + bytes / bandwidth, pinned and pageable separately.
struct LinkSpec
{
    std::string key;
    double pinnedGBps = 0;
    double pageableGBps = 0;
    double pinnedLatencyUs = 0;
    double pageableLatencyUs = 0;
};

class DeviceTable
{
public:
    // The table embedded from resources/placement/devices.json.
    static Result<DeviceTable> builtin();
    static Result<DeviceTable> fromJson(const std::string& jsonText);

    // Looks a device up by key; an unknown key is a one-line error listing the known ones.
    Result<DeviceSpec> device(const std::string& key) const;
    Result<LinkSpec> link(const std::string& key) const;
    // The first GPU entry whose `match` substrings occur in a driver-reported name ("NVIDIA A100-SXM4-80GB").
    const DeviceSpec* matchGpuName(const std::string& reportedName) const;
    std::vector<std::string> deviceKeys() const;

private:
    std::map<std::string, DeviceSpec> m_devices;
    std::map<std::string, LinkSpec> m_links;
};

// `--gpu from-trace`: the GPU of the trace's TARGET_INFO_GPU row (the first one, by id). Peak FLOP/s come from
// SM count x clock x per-SM throughput of the compute capability; memory and bandwidth from the row. Fields
// the row lacks are taken from the table entry whose name matches, else the call fails. `notes` gets one
// line saying where each figure came from.
Result<DeviceSpec> gpuSpecFromTrace(
    const std::string& tracePath, const DeviceTable& table, std::vector<std::string>* notes);

} // namespace placescope
