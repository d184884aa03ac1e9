// SPDX-License-Identifier: MIT
#include "placement/cost/roofline.h"

#include <algorithm>

namespace placescope {
namespace {

double peakFlops(const OpWork& work, const DeviceSpec& device)
{
    if (work.tensorCoreEligible && device.tensorFp16FlopsPerSecond > 0)
        return device.tensorFp16FlopsPerSecond;
    return device.fp32FlopsPerSecond;
}

double computeSeconds(const OpWork& work, const DeviceSpec& device)
{
    double peak = peakFlops(work, device);
    return peak > 0 ? work.flops / peak : 0;
}

double memorySeconds(const OpWork& work, const DeviceSpec& device)
{
    return device.memoryBytesPerSecond > 0 ? work.bytes / device.memoryBytesPerSecond : 0;
}

} // namespace

double rooflineUs(const OpWork& work, const DeviceSpec& device)
{
    if (work.kind == WorkKind::View)
        return 0;
    return std::max(computeSeconds(work, device), memorySeconds(work, device)) * 1e6 + device.launchOverheadUs;
}

bool isComputeBound(const OpWork& work, const DeviceSpec& device)
{
    return computeSeconds(work, device) > memorySeconds(work, device);
}

double transposeUs(int64_t bytes, const DeviceSpec& device)
{
    OpWork work;
    work.kind = WorkKind::Memory;
    work.bytes = 2.0 * double(bytes);
    return rooflineUs(work, device);
}

Calibration Calibration::fromPairs(const std::vector<std::pair<double, double>>& measuredAndEstimated)
{
    std::vector<double> ratios;
    for (const auto& [measured, estimated] : measuredAndEstimated)
        if (measured > 0 && estimated > 0)
            ratios.push_back(measured / estimated);
    Calibration calibration;
    calibration.samples = static_cast<int>(ratios.size());
    if (ratios.empty())
        return calibration;
    std::sort(ratios.begin(), ratios.end());
    size_t mid = ratios.size() / 2;
    double median = ratios.size() % 2 ? ratios[mid] : 0.5 * (ratios[mid - 1] + ratios[mid]);
    calibration.scale = std::clamp(median, kMinScale, kMaxScale);
    calibration.clamped = calibration.scale != median;
    return calibration;
}

} // namespace placescope
