// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

class QMenu;

namespace placescope::ui {

class PlacementSession;

// Adds "Pin to CPU", "Pin to GPU" and "Unpin" for graph ops to a context menu (the graph view's and the op
// table's). A device where none of the ops has a kernel gets a disabled action, the reason in its tooltip and
// status tip; where only some have one, the action pins those and its tip names the ops left as they are.
// Pins go through the session's undo stack as one step. Nothing is added without a costed model or ops.
void addPinActions(QMenu* menu, PlacementSession* session, const std::vector<int>& graphOps);

} // namespace placescope::ui
