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

// The figure a finding is ranked by, in the same words and short enough for a list column: the replay's
// "simulated 4.59 ms per step" (or "simulated: no saving") where it ranks by it, else the estimate
// ("up to 5.68 ms per step", "up to 3.00 GiB of device memory"). Always a part of savingText.
std::string savingFigureText(const Saving& saving);

} // namespace placescope
