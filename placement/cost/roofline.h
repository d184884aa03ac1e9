// SPDX-License-Identifier: MIT
// Roofline: an op's time on one device = max(FLOPs / peak, bytes / bandwidth) + launch overhead. GPUs use the
// tensor-core peak for fp16/bf16 Conv/MatMul/Gemm and the FP32 peak otherwise. Calibration: where a trace
// measured some ops, the others' estimates are scaled by the median measured/estimated ratio per device.
#pragma once

#include "placement/cost/device_table.h"
#include "placement/cost/op_work.h"

#include <string>
#include <vector>

namespace placescope {

// Estimated microseconds of `work` on `device`. View ops (no kernel) cost nothing.
double rooflineUs(const OpWork& work, const DeviceSpec& device);
// True when the op's time is set by its FLOPs (compute-bound) rather than its bytes on `device`.
bool isComputeBound(const OpWork& work, const DeviceSpec& device);
// A layout conversion of `bytes` (a Transpose: read + write, no math), priced like any op.
double transposeUs(int64_t bytes, const DeviceSpec& device);

// Per-device scale for estimates, from ops that have both a measurement and an estimate.
struct Calibration
{
    static constexpr double kMinScale = 0.1;
    static constexpr double kMaxScale = 10.0;

    double scale = 1.0; // median of measured / estimated, clamped to [kMinScale, kMaxScale]
    int samples = 0; // ops that contributed
    bool clamped = false; // the median fell outside the clamp range

    // Pairs (measured us, estimated us); pairs with a non-positive side are skipped.
    static Calibration fromPairs(const std::vector<std::pair<double, double>>& measuredAndEstimated);
    // An op's cost: the measurement when there is one (>= 0), else the estimate times the scale.
    double costUs(double measuredUs, double estimatedUs) const
    {
        return measuredUs >= 0 ? measuredUs : estimatedUs * scale;
    }
};

} // namespace placescope
