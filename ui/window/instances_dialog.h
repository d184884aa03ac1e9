// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QDialog;
class QWidget;

namespace placescope::ui {

class TimelineView;

// The instances of one name (a double-clicked kernel, copy or op), one row each: start, duration, lane; sorted by
// duration, longest first (find the slow one), sortable by any column. Selecting a row selects and frames that
// instance on the timeline. Not modal; one per name (a second call raises it). Null when the name has no event.
QDialog* showInstancesDialog(TimelineView* timeline, const QString& name, QWidget* parent);

} // namespace placescope::ui
