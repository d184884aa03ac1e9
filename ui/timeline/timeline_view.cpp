// SPDX-License-Identifier: MIT
#include "ui/timeline/timeline_view.h"

#include "ui/core/trace_loader.h"
#include "ui/timeline/timeline_format.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace placescope::ui {

TimelineView::TimelineView(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(400, 200);
    m_vbar = new QScrollBar(Qt::Vertical, this);
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
}

void TimelineView::setTrace(std::shared_ptr<const LoadedTrace> trace)
{
    m_trace = std::move(trace);
    m_selected.reset();
    m_hasRange = false;
    zoomToFit();
    updateScrollBar();
}

double TimelineView::plotWidth() const { return std::max(1, width() - kHeaderWidth - m_vbar->width()); }

void TimelineView::zoomToFit()
{
    if (m_trace)
        m_axis.fit(m_trace->firstNs, m_trace->lastNs, plotWidth());
    update();
}

void TimelineView::showRange(int64_t startNs, int64_t endNs)
{
    const int64_t margin = std::max<int64_t>((endNs - startNs) / 10, 1000);
    m_axis.fit(startNs - margin, endNs + margin, plotWidth());
    m_rangeStartNs = startNs;
    m_rangeEndNs = endNs;
    m_hasRange = true;
    update();
}

int TimelineView::laneTop(int lane) const
{
    int y = kRulerHeight - m_vbar->value();
    for (int i = 0; i < lane; ++i)
        y += static_cast<int>(m_trace->lanes[static_cast<size_t>(i)].rows.size()) * kRowHeight + 6;
    return y;
}

int TimelineView::contentHeight() const
{
    if (!m_trace)
        return 0;
    int h = kRulerHeight;
    for (const auto& lane : m_trace->lanes)
        h += static_cast<int>(lane.rows.size()) * kRowHeight + 6;
    return h + static_cast<int>(m_trace->counters.size()) * (kCounterHeight + 6);
}

void TimelineView::updateScrollBar()
{
    m_vbar->setGeometry(width() - m_vbar->sizeHint().width(), 0, m_vbar->sizeHint().width(), height());
    m_vbar->setRange(0, std::max(0, contentHeight() - height()));
    m_vbar->setPageStep(height());
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    updateScrollBar();
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    m_lastDrawItems = 0;
    if (!m_trace) {
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
    int y = kRulerHeight - m_vbar->value();
    for (size_t laneIndex = 0; laneIndex < m_trace->lanes.size(); ++laneIndex) {
        const Lane& lane = m_trace->lanes[laneIndex];
        const int laneHeight = static_cast<int>(lane.rows.size()) * kRowHeight;
        if (y + laneHeight >= kRulerHeight && y < height()) {
            painter.setClipRect(plot);
            for (size_t r = 0; r < lane.rows.size(); ++r) {
                const int rowY = y + static_cast<int>(r) * kRowHeight;
                if (rowY + kRowHeight < kRulerHeight || rowY > height())
                    continue;
                m_items.clear();
                foldVisible(lane.rows[r], m_axis, widthPx, kMinEventPx, m_items);
                m_lastDrawItems += m_items.size();
                for (const DrawItem& item : m_items) {
                    const double x0 = kHeaderWidth + m_axis.xForTime(item.startNs);
                    const double x1 = kHeaderWidth + m_axis.xForTime(item.endNs);
                    const QRectF box(x0, rowY + 1, std::max(1.0, x1 - x0), kRowHeight - 2);
                    const LaneRow& row = lane.rows[r];
                    if (item.count > 1) {
                        painter.fillRect(box, eventColor(row.kind[item.firstIndex], row.nameIndex[item.firstIndex]).darker(135));
                        if (box.width() > 30)
                            painter.setPen(Qt::black),
                                painter.drawText(box, Qt::AlignCenter, QString::number(item.count));
                        continue;
                    }
                    const uint32_t name = row.nameIndex[item.firstIndex];
                    painter.fillRect(box, eventColor(row.kind[item.firstIndex], name));
                    if (box.width() > 24) {
                        painter.setPen(Qt::black);
                        painter.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                                         metrics.elidedText(QString::fromStdString(m_trace->names[name]), Qt::ElideRight,
                                                            static_cast<int>(box.width()) - 4));
                    }
                }
            }
            if (m_selected && m_selected->lane == static_cast<int>(laneIndex)) {
                const LaneRow& row = lane.rows[static_cast<size_t>(m_selected->row)];
                const double x0 = kHeaderWidth + m_axis.xForTime(row.startNs[m_selected->index]);
                const double x1 = kHeaderWidth + m_axis.xForTime(row.endNs[m_selected->index]);
                painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
                painter.drawRect(QRectF(x0, y + m_selected->row * kRowHeight, std::max(2.0, x1 - x0), kRowHeight));
            }
            painter.setClipping(false);
            painter.fillRect(QRect(0, y, kHeaderWidth, laneHeight), pal.color(QPalette::AlternateBase));
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QRect(4, y, kHeaderWidth - 8, std::max(laneHeight, kRowHeight)), Qt::AlignTop | Qt::AlignLeft,
                             metrics.elidedText(QString::fromStdString(lane.title), Qt::ElideMiddle, kHeaderWidth - 8));
        }
        y += laneHeight + 6;
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawLine(0, y - 3, width(), y - 3);
    }
    drawCounters(painter, y);
    drawFlow(painter);
    if (m_hasRange) {
        const double x0 = kHeaderWidth + m_axis.xForTime(m_rangeStartNs);
        const double x1 = kHeaderWidth + m_axis.xForTime(m_rangeEndNs);
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(50);
        painter.fillRect(QRectF(x0, kRulerHeight, x1 - x0, height()).intersected(plot), shade);
    }
    drawRuler(painter);
}

void TimelineView::drawRuler(QPainter& painter)
{
    const QPalette& pal = palette();
    painter.fillRect(QRect(0, 0, width(), kRulerHeight), pal.color(QPalette::Window));
    painter.setPen(pal.color(QPalette::WindowText));
    const double widthPx = plotWidth();
    const double tickNs = niceTickNs(m_axis.nsPerPixel() * 100.0);
    const int64_t origin = m_trace->firstNs;
    const double firstTick = std::ceil(static_cast<double>(m_axis.viewStartNs() - origin) / tickNs) * tickNs;
    for (double t = firstTick; ; t += tickNs) {
        const double x = kHeaderWidth + m_axis.xForTime(origin + static_cast<int64_t>(t));
        if (x > kHeaderWidth + widthPx)
            break;
        painter.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        painter.drawText(QPointF(x + 2, kRulerHeight - 8), formatTick(t, tickNs));
    }
    painter.drawText(QRect(4, 0, kHeaderWidth - 8, kRulerHeight), Qt::AlignVCenter,
                     tr("%1 events").arg(m_trace->eventCount));
}

void TimelineView::drawCounters(QPainter& painter, int& y)
{
    const QPalette& pal = palette();
    const double widthPx = plotWidth();
    for (const CounterSeries& series : m_trace->counters) {
        if (y + kCounterHeight >= kRulerHeight && y < height() && series.maxBytes > 0) {
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QRect(4, y, kHeaderWidth - 8, kCounterHeight), Qt::AlignTop | Qt::AlignLeft,
                             QString::fromStdString(series.title) + "\n" + tr("max %1").arg(formatBytes(series.maxBytes)));
            painter.setClipRect(QRectF(kHeaderWidth, kRulerHeight, widthPx, height()));
            // One sample per pixel column: the maximum of the samples in it (binary search per column).
            const double scale = (kCounterHeight - 4) / static_cast<double>(series.maxBytes);
            for (int pass = 0; pass < 2; ++pass) {
                const auto& values = pass == 0 ? series.reservedBytes : series.allocatedBytes;
                painter.setPen(pass == 0 ? QColor(230, 150, 60) : QColor(60, 130, 220));
                QPolygonF line;
                for (int px = 0; px < static_cast<int>(widthPx); ++px) {
                    const int64_t t0 = m_axis.timeForX(px), t1 = m_axis.timeForX(px + 1);
                    auto begin = std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t0);
                    auto end = std::upper_bound(begin, series.timeNs.end(), t1);
                    size_t from = begin == series.timeNs.begin() ? 0 : static_cast<size_t>(begin - series.timeNs.begin()) - 1;
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
            painter.setClipping(false);
        }
        y += kCounterHeight + 6;
    }
}

void TimelineView::drawFlow(QPainter& painter)
{
    if (!m_selected)
        return;
    const LaneRow& row = m_trace->lanes[static_cast<size_t>(m_selected->lane)].rows[static_cast<size_t>(m_selected->row)];
    const uint32_t correlation = row.correlationId[m_selected->index];
    const EventKind kind = row.kind[m_selected->index];
    if (correlation == 0 || kind == EventKind::FrameworkOp)
        return;
    const bool fromHost = kind == EventKind::Runtime;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& lane = m_trace->lanes[l];
        if ((lane.group == Lane::Group::Device) != fromHost)
            continue;
        for (size_t r = 0; r < lane.rows.size(); ++r) {
            const LaneRow& other = lane.rows[r];
            for (size_t i = 0; i < other.size(); ++i) {
                if (other.correlationId[i] != correlation || other.kind[i] == EventKind::FrameworkOp)
                    continue;
                const QPointF a(kHeaderWidth + m_axis.xForTime(fromHost ? row.startNs[m_selected->index] : other.startNs[i]),
                                (fromHost ? laneTop(m_selected->lane) + m_selected->row * kRowHeight
                                          : laneTop(static_cast<int>(l)) + static_cast<int>(r) * kRowHeight) + kRowHeight / 2);
                const QPointF b(kHeaderWidth + m_axis.xForTime(fromHost ? other.startNs[i] : row.startNs[m_selected->index]),
                                (fromHost ? laneTop(static_cast<int>(l)) + static_cast<int>(r) * kRowHeight
                                          : laneTop(m_selected->lane) + m_selected->row * kRowHeight) + kRowHeight / 2);
                painter.setPen(QPen(QColor(220, 60, 60), 2));
                painter.drawLine(a, b);
                painter.setBrush(QColor(220, 60, 60));
                painter.drawEllipse(b, 3, 3);
                return;
            }
        }
    }
}

} // namespace placescope::ui
