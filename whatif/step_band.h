// SPDX-License-Identifier: MIT
// The words for a prediction's band (analysis/trace/step_band.h), one wording for whatif, the GUI and analyze.
#pragma once

#include "analysis/trace/step_band.h"

#include <string>

namespace placescope {

// "steps of this run vary +-6.0 % (coefficient of variation of 9 steady-state steps)", or why there is no band.
std::string stepBandText(const StepBand& band);

} // namespace placescope
