// SPDX-License-Identifier: MIT
#include "whatif/step_band.h"

#include "profiler/base/units.h" // formatPercent

namespace placescope {

std::string stepBandText(const StepBand& band)
{
    if (!band.known())
        return band.steadySteps <= 1 ? "one step: no step-to-step variation to measure a band from"
                                     : "no band (steps of no length)";
    return "steps of this run vary +-" + formatPercent(100.0 * band.spread) + " (coefficient of variation of "
        + std::to_string(band.steadySteps) + " steady-state steps)";
}

} // namespace placescope
