// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/finding.h"

#include <QString>

#include <cstdint>
#include <string>

namespace placescope::ui {

// The findings' detail pane (under the list): what was found, the saving and how it was estimated (and replayed),
// the fix for the user's framework ("torch", "tf", "ort", "jax": the trace's own, or the placement panel's choice; the
// others follow), and every evidence group with its examples as links "range:START:END#WHAT" (trace ns; WHAT,
// percent-encoded, names the evidence and the example's GPU or op) that zoom the timeline to them and fill the
// Details panel. Each example reads with its start after originNs (the trace's first event, the Details panel's
// origin) and its duration.
QString findingDetailsHtml(const Finding& finding, const std::string& framework, int64_t originNs = 0);

} // namespace placescope::ui
