// SPDX-License-Identifier: MIT
// OpGraph: the placement problem as the solvers see it. Devices (with memory caps), links between them
// (latency + bandwidth), ops with a cost per device (infinity = no kernel there), optional pin and memory,
// and data edges carrying bytes. Plain value type: no globals, safe to copy to a worker thread and to read
// from several threads at once.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace placescope {

inline constexpr double kNoKernel = std::numeric_limits<double>::infinity();

enum class DeviceKind
{
    Cpu,
    Gpu
};

struct PlacementDevice
{
    std::string name;
    DeviceKind kind = DeviceKind::Cpu;
    int64_t memoryBytes = 0; // 0 = unlimited
};

struct PlacementLink
{
    int from = 0; // device indices
    int to = 0;
    double latencyUs = 0;
    double bandwidthGBps = 1; // GB/s = 1e3 bytes/us
};

struct PlacementOp
{
    std::string id;
    std::string type;
    std::vector<double> costUs; // one per device; kNoKernel where the device has no kernel
    std::optional<int> pin; // device index
    int64_t memoryBytes = 0; // output bytes resident on the device while live
};

struct PlacementEdge
{
    int from = 0; // op indices
    int to = 0;
    int64_t bytes = 0;
};

struct OpGraph
{
    std::vector<PlacementDevice> devices;
    std::vector<PlacementLink> links;
    std::vector<PlacementOp> ops;
    std::vector<PlacementEdge> edges;

    // Transfer time for `bytes` from device a to device b (0 on the same device). A missing link is
    // treated as the reverse link, then as 0 latency / 1 GB/s so that every pair is priced.
    double transferUs(int fromDevice, int toDevice, int64_t bytes) const;
};

} // namespace placescope
