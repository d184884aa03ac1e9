// SPDX-License-Identifier: MIT
// TimelineView: collapsing and pinning lanes, and where each lane sits once some are pinned or collapsed.
#include "ui/timeline/timeline_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QScrollBar>

#include <algorithm>

namespace placescope::ui {

bool TimelineView::laneCollapsed(int lane) const
{
    return lane >= 0 && static_cast<size_t>(lane) < m_collapsed.size() && m_collapsed[static_cast<size_t>(lane)];
}

void TimelineView::setLaneCollapsed(int lane, bool collapsed)
{
    if (!m_trace || lane < 0 || static_cast<size_t>(lane) >= m_trace->lanes.size())
        return;
    m_collapsed.resize(m_trace->lanes.size());
    m_collapsed[static_cast<size_t>(lane)] = collapsed;
    updateScrollBar();
    update();
}

void TimelineView::setAllCollapsed(bool collapsed)
{
    if (!m_trace)
        return;
    m_collapsed.assign(m_trace->lanes.size(), collapsed);
    updateScrollBar();
    update();
}

bool TimelineView::lanePinned(int lane) const
{
    return std::find(m_pinned.begin(), m_pinned.end(), lane) != m_pinned.end();
}

void TimelineView::setLanePinned(int lane, bool pinned)
{
    if (!m_trace || lane < 0 || static_cast<size_t>(lane) >= m_trace->lanes.size() || lanePinned(lane) == pinned)
        return;
    if (pinned)
        m_pinned.push_back(lane);
    else
        m_pinned.erase(std::find(m_pinned.begin(), m_pinned.end(), lane));
    updateScrollBar();
    update();
}

int TimelineView::laneRowsShown(int lane) const
{
    const int rows = static_cast<int>(m_trace->lanes[static_cast<size_t>(lane)].rows.size());
    return laneCollapsed(lane) ? std::min(rows, 1) : rows;
}

int TimelineView::pinnedHeight() const
{
    int h = 0;
    for (int lane : m_pinned)
        h += laneHeight(lane);
    return h;
}

int TimelineView::scrolledTop() const { return kRulerHeight + pinnedHeight() - m_vbar->value(); }

int TimelineView::laneTop(int lane) const
{
    if (lanePinned(lane)) {
        int y = kRulerHeight;
        for (int pinned : m_pinned) {
            if (pinned == lane)
                break;
            y += laneHeight(pinned);
        }
        return y;
    }
    int y = scrolledTop() + predictedHeight();
    for (int i = 0; i < lane; ++i)
        if (!lanePinned(i))
            y += laneHeight(i);
    return y;
}

int TimelineView::laneAt(QPoint pos) const
{
    if (!m_trace || pos.y() < kRulerHeight)
        return -1;
    const bool inPinnedBand = pos.y() < kRulerHeight + pinnedHeight();
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const int lane = static_cast<int>(l);
        if (lanePinned(lane) != inPinnedBand)
            continue; // a scrolled lane under the pinned band is hidden by it
        const int top = laneTop(lane);
        if (pos.y() >= top && pos.y() < top + laneHeight(lane))
            return lane;
    }
    return -1;
}

QMenu* TimelineView::createLaneMenu(int lane, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    if (lane >= 0) {
        const QString title = QString::fromStdString(m_trace->lanes[static_cast<size_t>(lane)].title);
        menu->addSection(title);
        const bool collapsed = laneCollapsed(lane);
        menu->addAction(collapsed ? tr("Expand") : tr("Collapse"), this,
            [this, lane, collapsed] { setLaneCollapsed(lane, !collapsed); });
        const bool pinned = lanePinned(lane);
        menu->addAction(
            pinned ? tr("Unpin") : tr("Pin to the top"), this, [this, lane, pinned] { setLanePinned(lane, !pinned); });
        menu->addSeparator();
    }
    menu->addAction(tr("Collapse all lanes"), this, [this] { setAllCollapsed(true); });
    menu->addAction(tr("Expand all lanes"), this, [this] { setAllCollapsed(false); });
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event)
{
    if (!m_trace || event->pos().x() >= kHeaderWidth)
        return;
    QMenu* menu = createLaneMenu(laneAt(event->pos()), this);
    menu->exec(event->globalPos());
    delete menu;
}

} // namespace placescope::ui
