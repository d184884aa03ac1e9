// SPDX-License-Identifier: MIT
// TimelineView: input (wheel, drag, range selection), hit testing, tooltips, search, table rows -> events.
#include "profiler/base/units.h"
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>

namespace placescope::ui {

bool TimelineView::overPredicted(QPoint pos) const
{
    const int top = scrolledTop();
    return m_predicted && pos.y() >= std::max(top, kRulerHeight + pinnedHeight()) && pos.y() < top + predictedHeight();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    // Perfetto: Ctrl+wheel zooms at the cursor, the wheel scrolls lanes, Shift+wheel pans (a horizontal wheel
    // too). With wheelZooms, the plain wheel zooms and Shift+wheel scrolls lanes.
    const QPoint delta = event->angleDelta();
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    TimeAxis& axis = overPredicted(event->position().toPoint()) ? m_predictedAxis : m_axis;
    if (ctrl || (m_wheelZooms && !shift)) {
        axis.zoomAround(event->position().x() - kHeaderWidth, std::pow(1.25, delta.y() / 120.0));
    } else if (m_wheelZooms || !shift) {
        m_vbar->setValue(m_vbar->value() - delta.y());
        if (delta.x() != 0)
            axis.panPixels(-delta.x() / 2.0);
    } else {
        // Shift+wheel: some platforms turn it into a horizontal delta.
        axis.panPixels(-(delta.y() != 0 ? delta.y() : delta.x()) / 2.0);
    }
    clampView();
    update();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    // The triangle left of a lane's name collapses or expands it.
    if (event->button() == Qt::LeftButton && event->pos().x() < 18) {
        const int lane = laneAt(event->pos());
        if (lane >= 0 && m_trace->lanes[static_cast<size_t>(lane)].rows.size() > 1
            && event->pos().y() < laneTop(lane) + kRowHeight) {
            setLaneCollapsed(lane, !laneCollapsed(lane));
            return;
        }
    }
    if (event->button() != Qt::LeftButton)
        return;
    m_dragFrom = event->pos();
    m_pressPos = event->pos();
    m_dragMoved = false;
    m_dragPredicted = overPredicted(event->pos());
    m_rangeDrag = (event->modifiers() & Qt::ShiftModifier) && !m_dragPredicted;
    if (m_rangeDrag) {
        m_rangeStartNs = m_rangeEndNs = m_axis.timeForX(event->position().x() - kHeaderWidth);
        m_hasRange = true;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (event->position().x() >= kHeaderWidth)
        m_mouseX = event->position().x() - kHeaderWidth;
    else
        m_mouseX.reset();
    if (!m_dragFrom || !(event->buttons() & Qt::LeftButton))
        return;
    // Once the mouse has moved past the click slack this press is a drag, even if it ends where it began.
    if ((event->pos() - m_pressPos).manhattanLength() >= kClickSlackPx)
        m_dragMoved = true;
    if (m_rangeDrag) {
        m_rangeEndNs = m_axis.timeForX(event->position().x() - kHeaderWidth);
    } else {
        (m_dragPredicted ? m_predictedAxis : m_axis).panPixels(m_dragFrom->x() - event->pos().x());
        m_vbar->setValue(m_vbar->value() + m_dragFrom->y() - event->pos().y());
        m_dragFrom = event->pos(); // the pan's anchor moves with the mouse; the press position stays
        clampView();
    }
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_rangeDrag) {
        if (m_rangeEndNs < m_rangeStartNs)
            std::swap(m_rangeStartNs, m_rangeEndNs);
        m_rangeWhat.clear();
        emit rangeSelected(rangeSummary());
    } else if (m_dragFrom && !m_dragMoved && (event->pos() - m_pressPos).manhattanLength() < kClickSlackPx) {
        // Perfetto and Nsight Systems: only a click without movement selects; a drag pans and keeps the selection.
        if (auto hit = hitTest(event->pos()))
            selectEvent(*hit, false);
    }
    m_dragFrom.reset();
    m_rangeDrag = false;
    update();
}

void TimelineView::leaveEvent(QEvent* event)
{
    m_mouseX.reset(); // W/S zoom at the centre again
    QWidget::leaveEvent(event);
}

std::optional<TimelineView::EventRef> TimelineView::hitTest(QPoint pos) const
{
    if (!m_trace || pos.x() < kHeaderWidth || pos.y() < kRulerHeight)
        return std::nullopt;
    const int64_t t = m_axis.timeForX(pos.x() - kHeaderWidth);
    const int64_t slack = static_cast<int64_t>(kMinEventPx * m_axis.nsPerPixel());
    const int l = laneAt(pos);
    if (l < 0)
        return std::nullopt;
    const int r = (pos.y() - laneTop(l)) / kRowHeight;
    if (r >= laneRowsShown(l))
        return std::nullopt;
    const LaneRow& row = m_trace->lanes[static_cast<size_t>(l)].rows[static_cast<size_t>(r)];
    size_t i = firstVisibleEvent(row, t - slack);
    if (i < row.size() && row.startNs[i] <= t + slack)
        return EventRef { l, r, static_cast<uint32_t>(i) };
    return std::nullopt;
}

QString TimelineView::describe(const EventRef& ref) const
{
    const LaneRow& row = m_trace->lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)];
    QString text = QString::fromStdString(m_trace->names[row.nameIndex[ref.index]]) + "  ("
        + formatDuration(static_cast<double>(row.durationNs(ref.index))) + ")";
    return text;
}

void TimelineView::selectEvent(const EventRef& ref, bool reveal)
{
    m_selected = ref;
    m_counterMark.reset();
    if (ref.row >= laneRowsShown(ref.lane))
        setLaneCollapsed(ref.lane, false); // an event inside a collapsed lane: show its rows
    // A framework op's launches are found once here, not on every paint.
    m_flows = launchedWork(ref);
    m_linked.clear();
    for (const auto& flow : m_flows)
        m_linked.push_back(flow.second);
    if (reveal) {
        const LaneRow& row = m_trace->lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)];
        const int64_t center = (row.startNs[ref.index] + row.endNs[ref.index]) / 2;
        m_axis.panPixels(m_axis.xForTime(center) - plotWidth() / 2);
        // A pinned lane is always in view; a scrolled one is scrolled to, below the pinned band.
        if (!lanePinned(ref.lane)) {
            const int top = laneTop(ref.lane) + m_vbar->value() + ref.row * kRowHeight;
            if (top < m_vbar->value() + kRulerHeight + pinnedHeight()
                || top > m_vbar->value() + height() - 2 * kRowHeight)
                m_vbar->setValue(top - pinnedHeight() - height() / 3);
        }
    }
    emit eventSelected(describe(ref));
    emit selectionChanged();
    update();
}

namespace {

// Names (indexes into LoadedTrace::names) whose lower-cased text holds the needle.
std::vector<bool> namesContaining(const std::vector<std::string>& names, const QString& text)
{
    const std::string needle = text.toLower().toStdString();
    std::vector<bool> matches(names.size());
    for (size_t i = 0; i < matches.size(); ++i) {
        std::string name = names[i];
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        matches[i] = name.find(needle) != std::string::npos;
    }
    return matches;
}

} // namespace

size_t TimelineView::matchCount(const QString& text) const
{
    if (!m_trace || text.isEmpty())
        return 0;
    const std::vector<bool> matches = namesContaining(m_trace->names, text);
    size_t count = 0;
    for (const Lane& lane : m_trace->lanes)
        for (const LaneRow& row : lane.rows)
            for (size_t i = 0; i < row.size(); ++i)
                count += matches[row.nameIndex[i]] || matches[row.fullNameIndex[i]];
    return count;
}

std::vector<TimelineView::EventRef> TimelineView::eventsNamed(const QString& name) const
{
    std::vector<EventRef> found;
    if (!m_trace)
        return found;
    const std::string wanted = name.toStdString();
    std::vector<bool> matches(m_trace->names.size());
    for (size_t i = 0; i < matches.size(); ++i)
        matches[i] = m_trace->names[i] == wanted;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l)
        for (size_t r = 0; r < m_trace->lanes[l].rows.size(); ++r) {
            const LaneRow& row = m_trace->lanes[l].rows[r];
            for (size_t i = 0; i < row.size(); ++i)
                if (matches[row.nameIndex[i]] || matches[row.fullNameIndex[i]])
                    found.push_back({ static_cast<int>(l), static_cast<int>(r), static_cast<uint32_t>(i) });
        }
    std::sort(found.begin(), found.end(),
        [this](const EventRef& a, const EventRef& b) { return rowOf(a).startNs[a.index] < rowOf(b).startNs[b.index]; });
    return found;
}

bool TimelineView::selectNamed(const QString& name)
{
    const std::vector<EventRef> instances = eventsNamed(name);
    if (instances.empty())
        return false;
    // The next instance after the selected one, so activating the same row again walks through them.
    size_t next = 0;
    if (m_selected) {
        auto it = std::find(instances.begin(), instances.end(), *m_selected);
        if (it != instances.end())
            next = static_cast<size_t>(it - instances.begin() + 1) % instances.size();
    }
    const EventRef ref = instances[next];
    const LaneRow& row = rowOf(ref);
    const uint32_t full = row.fullNameIndex[ref.index];
    m_highlightName = m_trace->names[full] == name.toStdString() ? full : row.nameIndex[ref.index];
    selectEvent(ref, true);
    frameSelection();
    return true;
}

bool TimelineView::findNext(const QString& text, bool forward)
{
    if (!m_trace || text.isEmpty())
        return false;
    // Names matching once per search, then the nearest match in time after (or before) the selection.
    const std::vector<bool> matches = namesContaining(m_trace->names, text);
    int64_t from = m_axis.viewStartNs();
    std::optional<EventRef> current = m_selected;
    if (current) {
        const auto& row = m_trace->lanes[static_cast<size_t>(current->lane)].rows[static_cast<size_t>(current->row)];
        from = row.startNs[current->index];
    }
    std::optional<EventRef> best;
    int64_t bestTime = 0;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        for (size_t r = 0; r < m_trace->lanes[l].rows.size(); ++r) {
            const LaneRow& row = m_trace->lanes[l].rows[r];
            for (size_t i = 0; i < row.size(); ++i) {
                const int64_t t = row.startNs[i];
                const EventRef ref { static_cast<int>(l), static_cast<int>(r), static_cast<uint32_t>(i) };
                if (!(matches[row.nameIndex[i]] || matches[row.fullNameIndex[i]]) || (current && ref == *current))
                    continue;
                const bool after = forward ? (t > from || (t == from && !current)) : t < from;
                if (after && (!best || (forward ? t < bestTime : t > bestTime))) {
                    best = ref;
                    bestTime = t;
                }
            }
        }
    }
    if (!best)
        return false;
    selectEvent(*best, true);
    return true;
}

QString TimelineView::rangeSummary() const
{
    if (!m_trace || !m_hasRange)
        return {};
    // Events and busy time inside the range per kind (binary search of each row, clipped to the range).
    uint64_t count = 0;
    int64_t deviceNs = 0, hostNs = 0;
    for (const Lane& lane : m_trace->lanes) {
        for (const LaneRow& row : lane.rows) {
            for (size_t i = firstVisibleEvent(row, m_rangeStartNs); i < row.size() && row.startNs[i] < m_rangeEndNs;
                 ++i) {
                const int64_t ns = std::min(row.endNs[i], m_rangeEndNs) - std::max(row.startNs[i], m_rangeStartNs);
                ++count;
                (lane.group == Lane::Group::Device ? deviceNs : hostNs) += ns;
            }
        }
    }
    return tr("Range %1: %2 events, device busy %3, host %4")
        .arg(formatDuration(static_cast<double>(m_rangeEndNs - m_rangeStartNs)))
        .arg(count)
        .arg(formatDuration(static_cast<double>(deviceNs)))
        .arg(formatDuration(static_cast<double>(hostNs)));
}

QString TimelineView::counterTooltip(QPoint pos) const
{
    if (!m_trace || pos.x() < kHeaderWidth || m_trace->counters.empty())
        return {};
    const int top = laneTop(static_cast<int>(m_trace->lanes.size()));
    const int index = (pos.y() - top) / (kCounterHeight + 6);
    if (pos.y() < top || index >= static_cast<int>(m_trace->counters.size()))
        return {};
    const CounterSeries& series = m_trace->counters[static_cast<size_t>(index)];
    // A step function: the last sample at or before the time under the cursor.
    const int64_t t = m_axis.timeForX(pos.x() - kHeaderWidth);
    auto after = std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t);
    if (after == series.timeNs.begin())
        return {};
    const size_t i = static_cast<size_t>(after - series.timeNs.begin()) - 1;
    QString text = "<b>" + QString::fromStdString(series.title).toHtmlEscaped() + "</b><br>"
        + QString::fromStdString(series.primaryLabel) + " " + formatCounterValue(series, series.allocatedBytes[i]);
    if (!series.secondaryLabel.empty() && series.reservedBytes[i] >= 0)
        text += "<br>" + QString::fromStdString(series.secondaryLabel) + " "
            + formatCounterValue(series, series.reservedBytes[i]);
    return text + "<br>"
        + tr("at %1").arg(QString::fromStdString(formatNanoseconds(static_cast<double>(t - m_trace->firstNs))));
}

QString TimelineView::predictedTooltip(QPoint pos) const
{
    if (!m_predicted || pos.x() < kHeaderWidth || pos.y() < kRulerHeight)
        return {};
    const int64_t t = m_predictedAxis.timeForX(pos.x() - kHeaderWidth);
    const int64_t slack = static_cast<int64_t>(kMinEventPx * m_predictedAxis.nsPerPixel());
    int top = scrolledTop() + kRowHeight; // below its ruler
    for (const Lane& lane : m_predicted->lanes) {
        const int r = (pos.y() - top) / kRowHeight;
        if (pos.y() >= top && r < static_cast<int>(lane.rows.size())) {
            const LaneRow& row = lane.rows[static_cast<size_t>(r)];
            const size_t i = firstVisibleEvent(row, t - slack);
            if (i >= row.size() || row.startNs[i] > t + slack)
                return {};
            return "<b>" + QString::fromStdString(m_predicted->names[row.nameIndex[i]]).toHtmlEscaped() + "</b><br>"
                + tr("%1: predicted %2, from %3")
                      .arg(QString::fromStdString(lane.title).toHtmlEscaped(),
                          formatDuration(static_cast<double>(row.durationNs(i))),
                          formatDuration(static_cast<double>(row.startNs[i])));
        }
        top += static_cast<int>(lane.rows.size()) * kRowHeight + 6;
    }
    return {};
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_predicted && !m_dragFrom) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = predictedTooltip(help->pos());
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    if (event->type() == QEvent::ToolTip && m_trace) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const QString counter = counterTooltip(help->pos()); !counter.isEmpty()) {
            QToolTip::showText(help->globalPos(), counter, this);
            return true;
        }
        if (const QString critical = criticalPathTooltip(help->pos()); !critical.isEmpty()) {
            QToolTip::showText(help->globalPos(), critical, this);
            return true;
        }
        if (auto hit = hitTest(help->pos())) {
            // Perfetto's hover: name, duration, where and when; the source table's columns (ids, raw globalPid
            // numbers) belong to the Details panel a click fills, not to a tooltip.
            const Lane& lane = m_trace->lanes[static_cast<size_t>(hit->lane)];
            const LaneRow& row = lane.rows[static_cast<size_t>(hit->row)];
            const QString text = "<b>" + describe(*hit).toHtmlEscaped() + "</b><br>"
                + QString::fromStdString(lane.title).toHtmlEscaped() + "<br>"
                + tr("at %1").arg(QString::fromStdString(
                    formatNanoseconds(static_cast<double>(row.startNs[hit->index] - m_trace->firstNs))))
                + "<br><i>" + tr("Click for its details") + "</i>";
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace placescope::ui
