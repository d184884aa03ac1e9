// SPDX-License-Identifier: MIT
// EnginePlacementEstimator: the placement engine behind the findings' PlacementEstimator seam
// (analysis/findings/placement_estimator.h). For `placescope analyze run.sqlite --model m.onnx` it loads the
// model, costs it for the trace's GPU, plans it, and answers the two questions the rules ask:
// - layout: the layout pass over the planned model says which regions would run NHWC and which transposes
//   would remain; the saving is the trace's measured conversion time minus those remaining transposes;
// - CPU fallback: the model ops named like the trace's host ops, and the predicted step time of the
//   framework's default placement (those ops on the CPU, copies around them) against the engine's proposal.
// The model is loaded, costed and planned once per (model, GPU) and shared by both questions.
// Thread-safe: the planned model is read-only once built; the cache is behind a mutex.
#pragma once

#include "analysis/findings/placement_estimator.h"

#include <memory>
#include <mutex>
#include <string>

namespace placescope {

class EnginePlacementEstimator : public PlacementEstimator
{
public:
    // `framework`: which capability table applies ("torch", "tf", "ort").
    explicit EnginePlacementEstimator(std::string framework = "torch")
        : m_framework(std::move(framework))
    { }

    std::string name() const override { return "placement engine"; }
    std::optional<EngineEstimate> estimateLayout(const LayoutQuery& query) const override;
    std::optional<EngineEstimate> estimateFallback(const FallbackQuery& query) const override;

private:
    struct PlannedModel;
    // The planned model for this query, built on the first call for its (model, GPU) pair.
    std::shared_ptr<const PlannedModel> planned(const std::string& modelPath, const std::string& deviceName) const;

    std::string m_framework;
    mutable std::mutex m_mutex;
    mutable std::string m_plannedKey; // model path and GPU name of m_planned
    mutable std::shared_ptr<const PlannedModel> m_planned;
};

} // namespace placescope
