// SPDX-License-Identifier: MIT
#include "ui/timeline/timeline_view.h"

#include "ui/core/trace_loader.h"
#include "ui/timeline/row_painter.h"
#include "ui/timeline/timeline_format.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace placescope::ui {

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(400, 200);
    m_vbar = new QScrollBar(Qt::Vertical, this);
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    createActions();
}

void TimelineView::setPredicted(std::shared_ptr<const PredictedLanes> predicted)
{
    // A new plan keeps the user's zoom on the predicted lanes unless the step length changed a lot.
    const int64_t before = m_predicted ? m_predicted->lengthNs : -1;
    m_predicted = std::move(predicted);
    if (m_predicted && (before <= 0 || m_predicted->lengthNs > before * 1.1 || m_predicted->lengthNs < before * 0.5))
        fitPredictedAxis();
    updateScrollBar();
    update();
}

void TimelineView::fitPredictedAxis()
{
    // The whole predicted step and a little room after it (at least 1 us, for an empty plan).
    m_predictedAxis.fit(0, std::max<int64_t>(m_predicted->lengthNs * 102 / 100, 1000), plotWidth());
}

QColor TimelineView::predictedTint() const
{
    // Predicted lanes and their ruler are tinted so they never read as measured ones.
    return QColor::fromHsv(190, 60, palette().color(QPalette::Base).value() > 128 ? 240 : 80);
}

int TimelineView::predictedHeight() const
{
    if (!m_predicted)
        return 0;
    int h = kRowHeight; // its own ruler
    for (const auto& lane : m_predicted->lanes)
        h += static_cast<int>(lane.rows.size()) * kRowHeight + 6;
    return h;
}

void TimelineView::setTrace(std::shared_ptr<const LoadedTrace> trace)
{
    m_trace = std::move(trace);
    m_selected.reset();
    m_counterMark.reset();
    m_collapsed.clear();
    m_pinned.clear();
    m_flows.clear();
    m_linked.clear();
    m_highlightName.reset();
    m_hasRange = false;
    zoomToFit();
    updateScrollBar();
    emit selectionChanged();
}

double TimelineView::plotWidth() const { return std::max(1, width() - kHeaderWidth - m_vbar->width()); }

void TimelineView::clampView()
{
    if (m_trace)
        m_axis.clampTo(m_trace->firstNs, m_trace->lastNs, plotWidth());
}

void TimelineView::zoomToFit()
{
    if (m_trace)
        m_axis.fit(m_trace->firstNs, m_trace->lastNs, plotWidth());
    if (m_predicted)
        fitPredictedAxis();
    update();
}

void TimelineView::showRange(int64_t startNs, int64_t endNs, const QString& what)
{
    const int64_t margin = std::max<int64_t>((endNs - startNs) / 10, 1000);
    m_axis.fit(startNs - margin, endNs + margin, plotWidth());
    m_rangeStartNs = startNs;
    m_rangeEndNs = endNs;
    m_hasRange = true;
    m_rangeWhat = what;
    emit rangeSelected(rangeSummary()); // the Details panel says what ran in it (a finding's gap, a job's step)
    update();
}

int TimelineView::rowTop(const EventRef& ref) const
{
    return laneTop(ref.lane) + std::min(ref.row, laneRowsShown(ref.lane) - 1) * kRowHeight;
}

int TimelineView::contentHeight() const
{
    int h = kRulerHeight + predictedHeight();
    if (!m_trace)
        return h;
    for (size_t lane = 0; lane < m_trace->lanes.size(); ++lane)
        h += laneHeight(static_cast<int>(lane)); // pinned ones too: their band is not scrolled
    return h + static_cast<int>(m_trace->counters.size()) * (kCounterHeight + 6);
}

void TimelineView::updateScrollBar()
{
    m_vbar->setGeometry(width() - m_vbar->sizeHint().width(), 0, m_vbar->sizeHint().width(), height());
    m_vbar->setRange(0, std::max(0, contentHeight() - height()));
    m_vbar->setPageStep(height());
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    // Keep what each axis shows when the width changes (Perfetto keeps the visible window): a maximized window
    // shows the same time wider, not more time; the predicted step stays fitted.
    // The old plot width with the scroll bar's old width; the new one once the scroll bar has its new geometry.
    const double oldPlot = std::max(1, event->oldSize().width() - kHeaderWidth - m_vbar->width());
    updateScrollBar();
    if (m_trace && event->oldSize().width() > 0 && event->oldSize().width() != width())
        m_axis.fit(m_axis.viewStartNs(), m_axis.viewEndNs(oldPlot), plotWidth());
    else if (m_trace && !event->oldSize().isValid())
        zoomToFit(); // the first real size of a view given its trace before it was shown: fitted to a guess
    if (m_predicted && event->oldSize().width() > 0)
        fitPredictedAxis();
}

void TimelineView::drawRow(QPainter& painter, const LaneRow& row, const std::vector<std::string>& names, int rowY,
    const TimeAxis& axis, bool measured)
{
    RowPaintStyle style;
    style.left = kHeaderWidth;
    style.widthPx = plotWidth();
    style.rowHeight = kRowHeight;
    style.minEventPx = kMinEventPx;
    if (measured && m_highlightName) { // a table row's instances, outlined
        style.outline = m_highlightName;
        style.outlineColor = palette().color(QPalette::Highlight);
    }
    m_lastDrawItems += paintRow(painter, row, names, rowY, axis, style, m_items);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    m_lastDrawItems = 0;
    if (!m_trace && !m_predicted) {
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(rect(), Qt::AlignCenter, tr("Open a trace (File > Open) or record one (File > Record...)"));
        return;
    }
    const double widthPx = plotWidth();
    const QRectF plot(kHeaderWidth, kRulerHeight, widthPx, height() - kRulerHeight);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
    painter.setFont(small);
    const QFontMetrics metrics(small);
    int y = scrolledTop();
    const int scrolledFrom = kRulerHeight + pinnedHeight(); // scrolling content is hidden above this
    auto drawLane = [&](const Lane& lane, const std::vector<std::string>& names, const TimeAxis& axis) {
        const int laneHeight = static_cast<int>(lane.rows.size()) * kRowHeight;
        if (y + laneHeight >= scrolledFrom && y < height()) {
            painter.setClipRect(plot);
            for (size_t r = 0; r < lane.rows.size(); ++r) {
                const int rowY = y + static_cast<int>(r) * kRowHeight;
                if (rowY + kRowHeight >= kRulerHeight && rowY <= height())
                    drawRow(painter, lane.rows[r], names, rowY, axis, false);
            }
            painter.setClipping(false);
            painter.fillRect(QRect(0, y, kHeaderWidth, std::max(laneHeight, kRowHeight)), predictedTint());
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QRect(4, y, kHeaderWidth - 8, std::max(laneHeight, kRowHeight)),
                Qt::AlignTop | Qt::AlignLeft,
                metrics.elidedText(QString::fromStdString(lane.title), Qt::ElideRight, kHeaderWidth - 8));
        }
        y += laneHeight + 6;
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawLine(0, y - 3, width(), y - 3);
    };
    if (m_predicted) {
        drawPredictedRuler(painter, y);
        y += kRowHeight;
        for (const Lane& lane : m_predicted->lanes)
            drawLane(lane, m_predicted->names, m_predictedAxis);
    }
    if (m_trace) {
        for (size_t laneIndex = 0; laneIndex < m_trace->lanes.size(); ++laneIndex)
            if (!lanePinned(static_cast<int>(laneIndex)))
                drawTraceLane(painter, static_cast<int>(laneIndex), laneTop(static_cast<int>(laneIndex)));
        int counterY = laneTop(static_cast<int>(m_trace->lanes.size()));
        drawCounters(painter, counterY);
        // The pinned band over whatever scrolled under it.
        if (!m_pinned.empty()) {
            painter.fillRect(QRect(0, kRulerHeight, width(), scrolledFrom - kRulerHeight), pal.color(QPalette::Base));
            for (int lane : m_pinned)
                drawTraceLane(painter, lane, laneTop(lane));
            painter.setPen(QPen(pal.color(QPalette::Dark), 2));
            painter.drawLine(0, scrolledFrom - 1, width(), scrolledFrom - 1);
        }
        drawFlow(painter);
    }
    if (m_hasRange) {
        const double x0 = kHeaderWidth + m_axis.xForTime(m_rangeStartNs);
        const double x1 = kHeaderWidth + m_axis.xForTime(m_rangeEndNs);
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(50);
        painter.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height()).intersected(plot), shade);
    }
    drawRuler(painter);
}

void TimelineView::drawTraceLane(QPainter& painter, int laneIndex, int y)
{
    const Lane& lane = m_trace->lanes[static_cast<size_t>(laneIndex)];
    const int rows = laneRowsShown(laneIndex);
    const int laneHeight = rows * kRowHeight;
    const bool pinned = lanePinned(laneIndex);
    const int visibleFrom = pinned ? kRulerHeight : kRulerHeight + pinnedHeight();
    if (y + laneHeight < visibleFrom || y >= height())
        return;
    const QPalette& pal = palette();
    painter.setClipRect(QRectF(kHeaderWidth, visibleFrom, plotWidth(), height() - visibleFrom));
    for (int r = 0; r < rows; ++r) {
        const int rowY = y + r * kRowHeight;
        if (rowY + kRowHeight >= visibleFrom && rowY <= height())
            drawRow(painter, lane.rows[static_cast<size_t>(r)], m_trace->names, rowY, m_axis, true);
    }
    if (m_selected && m_selected->lane == laneIndex && m_selected->row < rows) {
        const LaneRow& row = lane.rows[static_cast<size_t>(m_selected->row)];
        const double x0 = kHeaderWidth + m_axis.xForTime(row.startNs[m_selected->index]);
        const double x1 = kHeaderWidth + m_axis.xForTime(row.endNs[m_selected->index]);
        painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
        painter.drawRect(QRectF(x0, y + m_selected->row * kRowHeight, std::max(2.0, x1 - x0), kRowHeight));
    }
    painter.setClipRect(QRect(0, visibleFrom, width(), height() - visibleFrom));
    drawLaneHeader(painter, lane, y, std::max(laneHeight, kRowHeight), laneIndex);
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(0, y + laneHeight + 3, width(), y + laneHeight + 3);
    painter.setClipping(false);
}

void TimelineView::drawLaneHeader(QPainter& painter, const Lane& lane, int y, int height, int laneIndex)
{
    const QPalette& pal = palette();
    painter.fillRect(QRect(0, y, kHeaderWidth, height), pal.color(QPalette::AlternateBase));
    painter.setPen(pal.color(QPalette::Text));
    int textX = 4;
    if (lane.rows.size() > 1) {
        // A triangle: pointing down when expanded, right when collapsed (a click on it toggles).
        const QPointF c(9, y + kRowHeight / 2.0);
        QPolygonF triangle = laneCollapsed(laneIndex)
            ? QPolygonF({ c + QPointF(-3, -4), c + QPointF(3, 0), c + QPointF(-3, 4) })
            : QPolygonF({ c + QPointF(-4, -2), c + QPointF(4, -2), c + QPointF(0, 3) });
        painter.setBrush(pal.color(QPalette::Text));
        painter.drawPolygon(triangle);
        painter.setBrush(Qt::NoBrush);
        textX = 18;
    }
    int textRight = kHeaderWidth - 4;
    if (lanePinned(laneIndex)) {
        // A pin: a head and its needle, right of the name.
        painter.setBrush(pal.color(QPalette::Highlight));
        painter.drawEllipse(QPointF(kHeaderWidth - 10, y + 6), 3, 3);
        painter.drawLine(QPointF(kHeaderWidth - 10, y + 9), QPointF(kHeaderWidth - 10, y + 14));
        painter.setBrush(Qt::NoBrush);
        textRight -= 14;
    }
    // Cut at the end: the start of a name (thread, GPU and stream) tells lanes apart.
    const QFontMetrics metrics(painter.font());
    painter.drawText(QRect(textX, y, textRight - textX, height), Qt::AlignTop | Qt::AlignLeft,
        metrics.elidedText(QString::fromStdString(lane.title), Qt::ElideRight, textRight - textX));
}

void TimelineView::drawPredictedRuler(QPainter& painter, int y)
{
    if (y + kRowHeight < kRulerHeight || y > height())
        return;
    const QPalette& pal = palette();
    painter.fillRect(QRect(0, y, width(), kRowHeight), predictedTint());
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRect(4, y, kHeaderWidth - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
        tr("Predicted step (own time base)"));
    const double widthPx = plotWidth();
    const double tickNs = niceTickNs(m_predictedAxis.nsPerPixel() * 100.0);
    painter.setClipRect(QRectF(kHeaderWidth, y, widthPx, kRowHeight));
    for (double t = std::ceil(static_cast<double>(m_predictedAxis.viewStartNs()) / tickNs) * tickNs;; t += tickNs) {
        const double x = kHeaderWidth + m_predictedAxis.xForTime(static_cast<int64_t>(t));
        if (x > kHeaderWidth + widthPx)
            break;
        painter.drawLine(QPointF(x, y + kRowHeight - 4), QPointF(x, y + kRowHeight));
        painter.drawText(QPointF(x + 2, y + kRowHeight - 4), formatTick(t, tickNs));
    }
    // The predicted step's end, so its length reads at a glance.
    const double end = kHeaderWidth + m_predictedAxis.xForTime(m_predicted->lengthNs);
    painter.setPen(QPen(QColor(60, 130, 220), 2));
    painter.drawLine(QPointF(end, y), QPointF(end, y + kRowHeight));
    painter.setClipping(false);
}

std::vector<std::pair<double, QString>> TimelineView::rulerTicks() const
{
    // About one tick per 100 px, labelled through the one units formatter ("346.5 ms", not "346500 us").
    std::vector<std::pair<double, QString>> ticks;
    const double widthPx = plotWidth();
    const double tickNs = niceTickNs(m_axis.nsPerPixel() * 100.0);
    const int64_t origin = originNs();
    const double firstTick = std::ceil(static_cast<double>(m_axis.viewStartNs() - origin) / tickNs) * tickNs;
    for (double t = firstTick;; t += tickNs) {
        const double x = kHeaderWidth + m_axis.xForTime(origin + static_cast<int64_t>(t));
        if (x > kHeaderWidth + widthPx)
            break;
        ticks.emplace_back(x, formatTick(t, tickNs));
    }
    return ticks;
}

void TimelineView::drawRuler(QPainter& painter)
{
    const QPalette& pal = palette();
    painter.fillRect(QRect(0, 0, width(), kRulerHeight), pal.color(QPalette::Window));
    painter.setPen(pal.color(QPalette::WindowText));
    for (const auto& [x, label] : rulerTicks()) {
        painter.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        painter.drawText(QPointF(x + 2, kRulerHeight - 8), label);
    }
    painter.drawText(QRect(4, 0, kHeaderWidth - 8, kRulerHeight), Qt::AlignVCenter,
        m_trace ? tr("%1 events").arg(m_trace->eventCount) : tr("predicted"));
    drawCriticalPath(painter);
}

void TimelineView::drawCounters(QPainter& painter, int& y)
{
    const QPalette& pal = palette();
    const double widthPx = plotWidth();
    for (const CounterSeries& series : m_trace->counters) {
        if (y + kCounterHeight >= kRulerHeight && y < height() && series.maxBytes > 0) {
            painter.setPen(pal.color(QPalette::Text));
            // The title clipped short of the scale's top value, which is drawn at the header's right edge.
            const QString title = painter.fontMetrics().elidedText(
                QString::fromStdString(series.title), Qt::ElideRight, kHeaderWidth - 84);
            painter.drawText(QRect(4, y, kHeaderWidth - 8, kCounterHeight), Qt::AlignTop | Qt::AlignLeft,
                title + "\n" + tr("max %1").arg(formatCounterValue(series, series.maxBytes)));
            // Legend (line colours) and a y axis: the scale's top and zero at the plot's left edge.
            const int legendY = y + kCounterHeight - 4;
            painter.fillRect(QRect(4, legendY - 6, 10, 3), QColor(60, 130, 220));
            painter.drawText(QPoint(18, legendY), QString::fromStdString(series.primaryLabel));
            if (!series.secondaryLabel.empty()) {
                painter.fillRect(QRect(80, legendY - 6, 10, 3), QColor(230, 150, 60));
                painter.drawText(QPoint(94, legendY), QString::fromStdString(series.secondaryLabel));
            }
            painter.setPen(pal.color(QPalette::Mid));
            painter.drawLine(kHeaderWidth, y + 2, kHeaderWidth, y + kCounterHeight - 2);
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QRect(kHeaderWidth - 70, y, 66, 12), Qt::AlignRight | Qt::AlignTop,
                formatCounterValue(series, series.maxBytes));
            painter.drawText(
                QRect(kHeaderWidth - 70, y + kCounterHeight - 14, 66, 12), Qt::AlignRight | Qt::AlignBottom, "0");
            painter.setClipRect(QRectF(kHeaderWidth, kRulerHeight, widthPx, height()));
            // One sample per pixel column: the maximum of the samples in it (binary search per column).
            const double scale = (kCounterHeight - 4) / static_cast<double>(series.maxBytes);
            for (int pass = series.secondaryLabel.empty() ? 1 : 0; pass < 2; ++pass) {
                const auto& values = pass == 0 ? series.reservedBytes : series.allocatedBytes;
                painter.setPen(pass == 0 ? QColor(230, 150, 60) : QColor(60, 130, 220));
                QPolygonF line;
                for (int px = 0; px < static_cast<int>(widthPx); ++px) {
                    const int64_t t0 = m_axis.timeForX(px), t1 = m_axis.timeForX(px + 1);
                    auto begin = std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t0);
                    auto end = std::upper_bound(begin, series.timeNs.end(), t1);
                    size_t from
                        = begin == series.timeNs.begin() ? 0 : static_cast<size_t>(begin - series.timeNs.begin()) - 1;
                    if (begin == series.timeNs.begin() && end == begin)
                        continue;
                    int64_t value = values[from];
                    for (auto it = begin; it != end; ++it)
                        value = std::max(value, values[static_cast<size_t>(it - series.timeNs.begin())]);
                    if (value < 0)
                        continue;
                    line << QPointF(kHeaderWidth + px, y + kCounterHeight - 2 - value * scale);
                }
                painter.drawPolyline(line);
            }
            if (m_counterMark && &m_trace->counters[static_cast<size_t>(m_counterMark->series)] == &series)
                drawCounterMark(painter, series, y);
            painter.setClipping(false);
        }
        y += kCounterHeight + 6;
    }
}

void TimelineView::drawFlow(QPainter& painter)
{
    m_lastFlowLines = 0;
    if (!m_selected)
        return;
    const LaneRow& row
        = m_trace->lanes[static_cast<size_t>(m_selected->lane)].rows[static_cast<size_t>(m_selected->row)];
    const uint32_t correlation = row.correlationId[m_selected->index];
    const EventKind kind = row.kind[m_selected->index];
    if (kind == EventKind::FrameworkOp) {
        // Every launch of the op: a flow from the runtime call to its device event, which is outlined too.
        auto centre = [&](const EventRef& ref) {
            const LaneRow& of = m_trace->lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)];
            return QPointF(kHeaderWidth + m_axis.xForTime(of.startNs[ref.index]), rowTop(ref) + kRowHeight / 2);
        };
        painter.setClipRect(QRectF(kHeaderWidth, kRulerHeight, plotWidth(), height() - kRulerHeight));
        painter.setBrush(Qt::NoBrush);
        for (const EventRef& linked : m_linked) {
            const LaneRow& of = m_trace->lanes[static_cast<size_t>(linked.lane)].rows[static_cast<size_t>(linked.row)];
            const double x0 = kHeaderWidth + m_axis.xForTime(of.startNs[linked.index]);
            const double x1 = kHeaderWidth + m_axis.xForTime(of.endNs[linked.index]);
            painter.setPen(QPen(QColor(220, 60, 60), 2));
            painter.drawRect(QRectF(x0, rowTop(linked), std::max(2.0, x1 - x0), kRowHeight));
        }
        // A large op (a whole step) launches thousands of kernels: a line each paints a solid red block. Past
        // kMaxFlowLines, one flow per launched name (its first launch) stands for the rest, as the Details panel
        // lists them by name; every device event stays outlined.
        std::unordered_set<uint32_t> namesDrawn;
        painter.setPen(QPen(QColor(220, 60, 60), 1.5));
        for (const auto& [call, launched] : m_flows) {
            if (m_flows.size() > kMaxFlowLines && !namesDrawn.insert(rowOf(launched).nameIndex[launched.index]).second)
                continue;
            painter.drawLine(centre(call), centre(launched));
            ++m_lastFlowLines;
        }
        painter.setClipping(false);
        return;
    }
    // A launch and its device event (either selected): a line from the call to the device event's start.
    const auto other = correlation != 0 ? correlatedEvent(*m_selected) : std::nullopt;
    if (!other)
        return;
    const EventRef call = kind == EventKind::Runtime ? *m_selected : *other;
    const EventRef work = kind == EventKind::Runtime ? *other : *m_selected;
    auto startPoint = [&](const EventRef& ref) {
        return QPointF(kHeaderWidth + m_axis.xForTime(rowOf(ref).startNs[ref.index]), rowTop(ref) + kRowHeight / 2);
    };
    // The other end may be off screen: the line stays in the plot, never over the lane names or the ruler.
    painter.setClipRect(QRectF(kHeaderWidth, kRulerHeight, plotWidth(), height() - kRulerHeight));
    painter.setPen(QPen(QColor(220, 60, 60), 2));
    painter.drawLine(startPoint(call), startPoint(work));
    ++m_lastFlowLines;
    painter.setBrush(QColor(220, 60, 60));
    painter.drawEllipse(startPoint(work), 3, 3);
    painter.setClipping(false);
}

} // namespace placescope::ui
