// SPDX-License-Identifier: MIT
// A finding's saving in words: the one wording that the text and Markdown reports, the HTML report and the GUI's
// finding pane print. They only mark it up (escape it, make it bold); none words a saving of its own, so a figure
// reads the same wherever a person meets it.
#pragma once

#include "analysis/findings/finding.h"

#include <string>

namespace placescope {

// The rule's estimate: "up to 1.20 ms per step (3.4 % of the step)", "up to 1.50 MiB of device memory" (a memory
// finding saves bytes, not time), both joined by " and " where a finding saves both, else "no saving estimated".
// A time below half a nanosecond per step is no time saving (it would print as "0 ns").
std::string estimatedSavingText(const Saving& saving);

// The what-if replay's figure for the fix: "simulated 1.20 ms per step (replay with whatif --edit 'pinned')" or
// "simulated: no saving (replay ...)"; empty when the fix was not simulated.
std::string simulatedSavingText(const Saving& saving);

// Both: the estimate, then "; " and the simulation where there is one.
std::string savingText(const Saving& saving);

} // namespace placescope
