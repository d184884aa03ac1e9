// SPDX-License-Identifier: MIT
#pragma once

#include "ui/timeline/timeline_view.h"

#include <QTextBrowser>

namespace placescope::ui {

// The Details panel (Perfetto's "Current Selection", nsys's event view) for a TimelineView's selection: name (short
// and full), start from the trace's first event, duration, lane (device and stream, or thread), correlation id, the
// recorded columns (grid, block, registers, shared memory; bytes and bandwidth; shapes), the framework ops around
// it, and links to the launching call, the work it launched and the flow's other end; a click on a link selects
// that event and brings it on screen. A range selection (drawn, or a finding's evidence, which names it) says what
// each host thread was doing in it and shows a table per name (count, total, self time).
// Plain selectable text, so it can be copied. UI thread only.
class EventDetailsView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit EventDetailsView(TimelineView* timeline, QWidget* parent = nullptr);

    // The link text that selects an event (also what the tests click).
    static QString linkFor(const TimelineView::EventRef& ref);

private:
    void showSelection();
    void showRange();
    QString eventLink(const TimelineView::EventRef& ref) const;
    static QString hostThreadsHtml(const LoadedTrace& trace, int64_t from, int64_t to);

    TimelineView* m_timeline;
};

} // namespace placescope::ui
