// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/finding.h"

#include <QString>

#include <string>

namespace placescope::ui {

// The findings' detail pane (under the list): what was found, the saving and how it was estimated (and replayed),
// the fix for the user's framework ("torch", "tf", "ort": the placement panel's choice; the others follow), and
// every evidence group with its examples as links: "range:START:END" (trace ns) zooms the timeline to them.
QString findingDetailsHtml(const Finding& finding, const std::string& framework);

} // namespace placescope::ui
