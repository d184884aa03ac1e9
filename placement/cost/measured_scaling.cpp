// SPDX-License-Identifier: MIT
#include "placement/cost/measured_scaling.h"

#include "placement/cost/roofline.h"

namespace placescope {
namespace {

bool sameDevice(const DeviceSpec& a, const DeviceSpec& b)
{
    return a.name == b.name && a.fp32FlopsPerSecond == b.fp32FlopsPerSecond
        && a.tensorFp16FlopsPerSecond == b.tensorFp16FlopsPerSecond && a.memoryBytesPerSecond == b.memoryBytesPerSecond
        && a.launchOverheadUs == b.launchOverheadUs;
}

double boundingPeak(const OpWork& work, const DeviceSpec& device)
{
    if (work.kind == WorkKind::Compute)
        return work.tensorCoreEligible && device.tensorFp16FlopsPerSecond > 0 ? device.tensorFp16FlopsPerSecond
                                                                              : device.fp32FlopsPerSecond;
    return device.memoryBytesPerSecond;
}

} // namespace

double deviceTimeRatio(const OpWork& work, const DeviceSpec& from, const DeviceSpec& to)
{
    if (sameDevice(from, to))
        return 1.0;
    if (work.shapesKnown && work.kind != WorkKind::Unknown && work.kind != WorkKind::View) {
        const double onFrom = rooflineUs(work, from), onTo = rooflineUs(work, to);
        if (onFrom > 0 && onTo > 0)
            return onTo / onFrom;
    }
    const double peakFrom = boundingPeak(work, from), peakTo = boundingPeak(work, to);
    return peakFrom > 0 && peakTo > 0 ? peakFrom / peakTo : 1.0;
}

Result<DeviceSpec> measuringGpu(const ModelGraph& model, const std::string& tracePath, const DeviceTable& table)
{
    // The graph's own trace first: its ops were measured there, whatever other trace gives the link fit.
    const std::string& source = model.source == "trace-ops" && !model.path.empty() ? model.path : tracePath;
    if (source.empty())
        return Status::error("no trace says which GPU measured the ops");
    return gpuSpecFromTrace(source, table, nullptr);
}

} // namespace placescope
