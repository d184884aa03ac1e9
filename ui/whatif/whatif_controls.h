// SPDX-License-Identifier: MIT
// The state of the What-if panel's controls, and the edit strings it stands for. The panel never builds an edit
// itself: it turns these controls into the same `--edit` texts the CLI takes, and parseEdit reads them, so the
// GUI and `placescope whatif` go through one parser and one runWhatIf. Plain values; any thread.
#pragma once

#include <QString>

#include <string>
#include <vector>

namespace placescope::ui {

struct WhatIfControls
{
    bool noSync = false;
    QString noSyncRegex; // empty: every host wait
    QString kernelsRegex; // empty: no kernel scaling
    double kernelsFactor = 0.5;
    QString dropRegex; // empty: nothing dropped
    bool pinned = false;
    double launchFactor = 1.0; // 1: launch cost unchanged (no edit)
    double inputFactor = 1.0; // 1: input pipeline unchanged (no edit)
    int loaderWorkers = 0; // 0: the DataLoader as measured (no edit); N: workers=N
    bool overlapComm = false;
    QString extraEdit; // any edit text the CLI accepts

    bool operator==(const WhatIfControls&) const = default;
};

// The edit texts, in the order the controls are laid out (edits apply in order). Empty fields add nothing.
std::vector<std::string> editTexts(const WhatIfControls& controls);

// The controls that stand for `edits` (CLI texts, e.g. from a command line): each edit the controls have a field for
// goes there, anything else to the extra edit (the last one wins). editTexts() of the result gives them back in
// the panel's order.
WhatIfControls controlsFor(const std::vector<std::string>& edits);

// "kernels:gemm=x0.5, pinned" or "none": undo entries and the panel's summary line.
QString editSummary(const WhatIfControls& controls);

} // namespace placescope::ui
