// SPDX-License-Identifier: MIT
// SavingSimulator: the seam through which the what-if replay (whatif) gives findings a simulated
// saving: the rules estimate an upper bound from the trace's events; a simulator replays the run with the
// finding's fix applied as an edit and reports what the step would become. The findings never call the
// replay directly (they depend on no other placement folder); `placescope analyze` passes one.
#pragma once

#include "analysis/findings/finding.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

// Every simulated fix applied together.
struct AllFixesPrediction
{
    std::vector<std::string> edits;
    int64_t measuredStepNs = 0;
    int64_t replayStepNs = 0; // the unedited replay (what the prediction is compared with)
    int64_t predictedStepNs = 0;
};

class SavingSimulator
{
public:
    virtual ~SavingSimulator() = default;
    // Fills saving.simulatedMs / simulatedEdit of each finding whose fix maps to an edit and returns the
    // prediction with all of them; nullopt when the run cannot be replayed.
    virtual std::optional<AllFixesPrediction> simulate(
        const TraceData& trace, const StepSet& steps, std::vector<Finding>& findings) const = 0;
};

} // namespace placescope
