// SPDX-License-Identifier: MIT
// ReplaySavingSimulator: the findings' SavingSimulator, backed by the what-if replay. Each finding whose fix is
// an edit (pageable copies -> pinned, layout conversions -> drop the conversion kernels, ...) gets the saving the
// replay predicts for that edit alone, and the report gets the prediction with every such edit applied. Nothing
// is simulated unless the unedited replay reproduces the measured step within kReplayAccuracyLimit (5 %).
#pragma once

#include "analysis/findings/saving_simulator.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

// The edits that are the fix of a finding's rule, the most specific first: the simulation takes the first that
// matches something in the trace (an input-bound step's fix is worker processes for a PyTorch DataLoader that
// loads on the training thread, else faster loading). Empty where no edit expresses it.
std::vector<std::string> editsForRule(const std::string& ruleId);

class ReplaySavingSimulator : public SavingSimulator
{
public:
    std::optional<AllFixesPrediction> simulate(
        const TraceData& trace, const StepSet& steps, std::vector<Finding>& findings) const override;
};

} // namespace placescope
