// SPDX-License-Identifier: MIT
// Where the GUI keeps its temporary copies of imported traces (a Kineto JSON or an nsys export becomes a Placescope
// trace there), and the clean-up at start of copies left behind by a GUI that did not exit normally (killed, crashed).
#pragma once

#include <QString>

#include <memory>

class QTemporaryDir;

namespace placescope::ui {

// A new folder <temp>/placescope-gui-<pid>-XXXXXX, removed with its contents when the object is destroyed. The pid
// in the name tells a later GUI whether the folder's owner still runs.
std::unique_ptr<QTemporaryDir> createTempCopiesDir();

// Removes the folders createTempCopiesDir made for GUI processes that no longer run (their pid is gone), and
// folders of the older unnamed form (placescope-gui-XXXXXX) untouched for a day. Only the user's own folders;
// another running GUI's folder is kept. Returns how many were removed.
int removeStaleTempCopies();

} // namespace placescope::ui
