// SPDX-License-Identifier: MIT
// PlacementEstimator: the seam through which the placement engine (op graph, cost model, layout pass) gives
// the findings rules better savings than the trace alone can. The analyzer runs without one (estimates come
// from the trace's own events, flagged as such); `placescope analyze --model m.onnx` passes one when the
// engine is built in. Implementations must be safe to call from the analyzer's thread; they own nothing of
// the trace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placescope {

struct EngineEstimate
{
    double savingMsPerStep = 0.0;
    std::string explanation; // how the engine got the number (which ops, which cost model)
};

// Layout: the trace shows `conversionNsPerStep` in layout-conversion kernels; what would NHWC end to end save?
struct LayoutQuery
{
    std::string modelPath;
    int64_t conversionNsPerStep = 0;
    int64_t conversionKernelsPerStep = 0;
    std::string deviceName;
};

// CPU fallback: these ops ran on the host between GPU work; what would moving them (or neighbours) save?
struct FallbackQuery
{
    std::string modelPath;
    std::vector<std::string> opNames;
    int64_t hostNsPerStep = 0; // time the ops ran on the host
    int64_t copyNsPerStep = 0; // device<->host copies around them
    int64_t copyBytesPerStep = 0;
    std::string deviceName;
};

class PlacementEstimator
{
public:
    virtual ~PlacementEstimator() = default;
    virtual std::string name() const = 0;
    virtual std::optional<EngineEstimate> estimateLayout(const LayoutQuery& query) const = 0;
    virtual std::optional<EngineEstimate> estimateFallback(const FallbackQuery& query) const = 0;
};

} // namespace placescope
