// SPDX-License-Identifier: MIT
// PCIe link model: transfer time = latency + bytes / bandwidth, per direction (HtoD, DtoH) and host memory
// kind (pinned, pageable). The figures come from the device table, or are fitted by least squares from a
// trace's CUPTI_ACTIVITY_KIND_MEMCPY rows (bytes, duration) where it has enough of them.
// Caveat: CUPTI/nsys memcpy rows time the copy on the device; the host-side API call and, for pageable
// memory, the driver's staging copy are not in them, so a fitted pageable link is optimistic.
#pragma once

#include "placement/cost/device_table.h"
#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

struct LinkFit
{
    double latencyUs = 0;
    double bandwidthGBps = 1; // GB/s = 1e3 bytes per microsecond
    int samples = 0; // memcpys the fit used; 0 = a default from the table
    bool fitted = false;

    double transferUs(int64_t bytes) const { return latencyUs + double(bytes) / (bandwidthGBps * 1e3); }
};

struct PcieModel
{
    LinkFit htodPinned, htodPageable, dtohPinned, dtohPageable;

    // The table's figures, the same in both directions.
    static PcieModel fromSpec(const LinkSpec& spec);
    const LinkFit& link(bool hostToDevice, bool pinned) const;
};

struct MemcpySample
{
    int64_t bytes = 0;
    double durationUs = 0;
};

// Least squares (weighted by 1/duration^2: relative errors) of duration = latency + bytes / bandwidth. Needs two
// different sizes and a positive slope; a negative intercept (noise on small copies) is clamped to 0 latency with the
// slope refitted through 0.
Result<LinkFit> fitLink(const std::vector<MemcpySample>& samples);

// Refits each of the four links from the trace's HtoD/DtoH memcpys (host side pageable or pinned by the
// srcKind/dstKind columns, nsys ids); a link without enough rows keeps its default. One note per link.
Result<PcieModel> fitPcieFromTrace(
    const std::string& tracePath, const PcieModel& defaults, std::vector<std::string>* notes);

} // namespace placescope
