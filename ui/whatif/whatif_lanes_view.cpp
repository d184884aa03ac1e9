// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_lanes_view.h"

#include "ui/core/lane_folding.h"
#include "ui/timeline/row_painter.h"
#include "ui/timeline/timeline_format.h"
#include "ui/whatif/whatif_session.h"
#include "whatif/replay_graph.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace placescope::ui {

namespace {
constexpr int kRuler = 22;
constexpr int kLabelWidth = 200;
constexpr int kRowHeight = 15;
constexpr double kMinEventPx = 3.0; // narrower spans fold (the timeline's rule)
constexpr int kCriticalStrip = 4; // red strip along the bottom of a critical span
constexpr int kRowGap = 2;
constexpr int kLaneGap = 8;
constexpr int kLaneHeight = 2 * kRowHeight + kRowGap + kLaneGap;
const QColor kCritical(215, 48, 39);

int laneTop(size_t lane) { return kRuler + 4 + static_cast<int>(lane) * kLaneHeight; }
} // namespace

WhatIfLanesView::WhatIfLanesView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void WhatIfLanesView::setRun(std::shared_ptr<const WhatIfRun> run)
{
    // A new run of the same trace keeps the zoom, so the user can watch spans move as the edits change.
    const bool sameTrace = m_run && run && m_run->trace == run->trace;
    m_run = std::move(run);
    if (!sameTrace)
        showAll();
    updateGeometry();
    update();
}

void WhatIfLanesView::showAll()
{
    if (m_run && m_run->rows.endNs > m_run->rows.startNs) {
        const int64_t pad = (m_run->rows.endNs - m_run->rows.startNs) / 100;
        m_fromNs = m_run->rows.startNs - pad;
        m_toNs = m_run->rows.endNs + pad;
    } else {
        m_fromNs = 0;
        m_toNs = 1;
    }
    update();
}

void WhatIfLanesView::setPlaceholder(const QString& text)
{
    if (text != m_placeholder) {
        m_placeholder = text;
        update();
    }
}

QSize WhatIfLanesView::sizeHint() const
{
    const size_t lanes = m_run ? m_run->rows.lanes.size() : 3;
    return { 600, laneTop(lanes) };
}

QSize WhatIfLanesView::minimumSizeHint() const { return { kLabelWidth + 100, laneTop(1) }; }

double WhatIfLanesView::xOf(int64_t ns) const
{
    const double plot = std::max(1, width() - kLabelWidth - 4);
    return kLabelWidth + plot * static_cast<double>(ns - m_fromNs) / static_cast<double>(m_toNs - m_fromNs);
}

int64_t WhatIfLanesView::nsAt(double x) const
{
    const double plot = std::max(1, width() - kLabelWidth - 4);
    return m_fromNs
        + static_cast<int64_t>(std::llround((x - kLabelWidth) / plot * static_cast<double>(m_toNs - m_fromNs)));
}

void WhatIfLanesView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    m_lastDrawCount = 0;
    m_lastCriticalCount = 0;
    if (!m_run || m_run->rows.lanes.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(
            rect(), Qt::AlignCenter, m_run ? tr("The trace has no CUDA calls or GPU work to replay") : m_placeholder);
        return;
    }
    const QFontMetrics metrics(font());
    // Ruler: ticks at least ~90 px apart, times from the start of what the view can show.
    const double nsPerPixel = static_cast<double>(m_toNs - m_fromNs) / std::max(1, width() - kLabelWidth - 4);
    const double tick = niceTickNs(nsPerPixel * 90);
    const int64_t origin = m_run->rows.startNs;
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(kLabelWidth, kRuler, width(), kRuler);
    const double firstTick = std::ceil(static_cast<double>(m_fromNs - origin) / tick) * tick;
    for (double t = firstTick; origin + t <= m_toNs; t += tick) {
        const double x = xOf(origin + static_cast<int64_t>(t));
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawLine(QPointF(x, kRuler - 4), QPointF(x, height()));
        const QString label = formatTick(t, tick);
        if (x + 3 + metrics.horizontalAdvance(label) > width())
            continue; // a label cut at the edge reads as another number
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(QPointF(x + 3, kRuler - 6), label);
    }
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(QRect(4, 0, kLabelWidth - 8, kRuler), Qt::AlignVCenter | Qt::AlignLeft,
        metrics.elidedText(tr("red: critical path"), Qt::ElideRight, kLabelWidth - 8));
    // Each band's rows are tagged in a small font at the right of the label column.
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.75));
    const QFontMetrics smallMetrics(small);
    const QString tags[2] = { tr("measured"), tr("predicted") };
    const int tagWidth = std::max(smallMetrics.horizontalAdvance(tags[0]), smallMetrics.horizontalAdvance(tags[1])) + 6;

    // The rows go through the timeline's row painter: the same folding, colours and labels as the timeline.
    const double plot = std::max(1, width() - kLabelWidth - 4);
    const TimeAxis axis(m_fromNs, static_cast<double>(m_toNs - m_fromNs) / plot);
    RowPaintStyle style;
    style.left = kLabelWidth;
    style.widthPx = plot;
    style.rowHeight = kRowHeight;
    style.minEventPx = kMinEventPx;
    style.foldCounts = false; // short rows: a count would hide the block's colour
    painter.save();
    painter.setClipRect(QRect(kLabelWidth, kRuler, width() - kLabelWidth, height() - kRuler));
    for (size_t l = 0; l < m_run->rows.lanes.size(); ++l) {
        const WhatIfLaneRow& lane = m_run->rows.lanes[l];
        const int top = laneTop(l);
        if (top > height())
            break;
        painter.setClipping(false);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.setFont(font());
        painter.drawText(QRect(4, top, kLabelWidth - tagWidth - 8, 2 * kRowHeight + kRowGap),
            Qt::AlignVCenter | Qt::AlignLeft,
            metrics.elidedText(QString::fromStdString(lane.label), Qt::ElideMiddle, kLabelWidth - tagWidth - 8));
        painter.setFont(small);
        painter.setPen(pal.color(QPalette::PlaceholderText));
        for (int which = 0; which < 2; ++which)
            painter.drawText(
                QRect(kLabelWidth - tagWidth, top + which * (kRowHeight + kRowGap), tagWidth - 4, kRowHeight),
                Qt::AlignVCenter | Qt::AlignRight, tags[which]);
        painter.setFont(font());
        painter.setClipping(true);
        for (int which = 0; which < 2; ++which) {
            const WhatIfSpanRow& row = which == 0 ? lane.measured : lane.predicted;
            const int y = top + which * (kRowHeight + kRowGap);
            painter.fillRect(
                QRectF(kLabelWidth, y, width() - kLabelWidth, kRowHeight), pal.color(QPalette::AlternateBase));
            m_lastDrawCount
                += static_cast<int>(paintRow(painter, row.events, m_run->rows.names, y, axis, style, m_items));
            const int64_t viewEnd = axis.viewEndNs(plot);
            // Dropped tasks: dashed outlines where they ran.
            painter.setPen(QPen(pal.color(QPalette::PlaceholderText), 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            for (size_t i = firstVisibleEvent(row.dropped, m_fromNs); i < row.dropped.size(); ++i) {
                if (row.dropped.startNs[i] > viewEnd)
                    break;
                const double x0 = xOf(row.dropped.startNs[i]), x1 = xOf(row.dropped.endNs[i]);
                painter.drawRect(
                    QRectF(x0, y + 1, std::max(1.0, x1 - x0), kRowHeight - 2).adjusted(0.5, 0.5, -0.5, -0.5));
                ++m_lastDrawCount;
            }
            // The critical path on top, as a strip along the span's bottom (its colour stays readable), at least a
            // pixel wide, so folding never hides it.
            for (size_t i = firstVisibleEvent(row.events, m_fromNs); i < row.events.size(); ++i) {
                if (row.events.startNs[i] > viewEnd)
                    break;
                if (!row.critical[i])
                    continue;
                const double x0 = xOf(row.events.startNs[i]), x1 = xOf(row.events.endNs[i]);
                painter.fillRect(
                    QRectF(x0, y + kRowHeight - 1 - kCriticalStrip, std::max(1.0, x1 - x0), kCriticalStrip), kCritical);
                ++m_lastCriticalCount;
            }
        }
    }
    painter.restore();
}

WhatIfLanesView::Hit WhatIfLanesView::taskAt(QPoint pos) const
{
    Hit hit;
    if (!m_run || pos.x() < kLabelWidth || pos.y() < laneTop(0))
        return hit;
    const auto lane = static_cast<size_t>((pos.y() - laneTop(0)) / kLaneHeight);
    if (lane >= m_run->rows.lanes.size())
        return hit;
    const int inLane = (pos.y() - laneTop(0)) % kLaneHeight;
    if (inLane >= 2 * kRowHeight + kRowGap)
        return hit;
    hit.predicted = inLane >= kRowHeight + kRowGap;
    const WhatIfSpanRow& row = hit.predicted ? m_run->rows.lanes[lane].predicted : m_run->rows.lanes[lane].measured;
    // Two pixels of slack: thin spans are hard to hit. The widest span there wins.
    const int64_t from = nsAt(pos.x() - 2), to = nsAt(pos.x() + 2);
    int64_t widest = -1;
    for (const LaneRow* events : { &row.events, &row.dropped })
        for (size_t i = firstVisibleEvent(*events, from); i < events->size() && events->startNs[i] <= to; ++i)
            if (events->durationNs(i) > widest) {
                widest = events->durationNs(i);
                hit.task = static_cast<int32_t>(events->sourceRow[i]);
                hit.critical = events == &row.events && row.critical[i];
            }
    return hit;
}

bool WhatIfLanesView::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const Hit hit = taskAt(help->pos());
    if (hit.task < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const ReplayGraph& graph = m_run->result.predictedGraph;
    const ReplayTask& task = graph.tasks[static_cast<size_t>(hit.task)];
    const ReplaySchedule& schedule = m_run->result.predictedSchedule;
    const auto id = static_cast<size_t>(hit.task);
    QString text = QString::fromStdString(taskName(m_run->trace->data, task)) + "\n";
    text += tr("measured %1 at %2")
                .arg(formatDuration(static_cast<double>(task.measuredEnd - task.measuredStart)),
                    formatDuration(static_cast<double>(task.measuredStart - m_run->rows.startNs)));
    if (task.dropped)
        text += "\n" + tr("dropped by an edit");
    else if (id < schedule.start.size())
        text += "\n"
            + tr("predicted %1 at %2")
                  .arg(formatDuration(static_cast<double>(schedule.end[id] - schedule.start[id])),
                      formatDuration(static_cast<double>(schedule.start[id] - m_run->rows.startNs)));
    if (hit.critical)
        text += "\n" + (hit.predicted ? tr("on the predicted critical path") : tr("on the replay's critical path"));
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void WhatIfLanesView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    const double factor = std::pow(0.8, steps);
    const int64_t at = nsAt(event->position().x());
    const auto span = static_cast<double>(m_toNs - m_fromNs);
    const double newSpan = std::max(1000.0, span * factor); // 1 us at most zoomed in
    const double share = static_cast<double>(at - m_fromNs) / span;
    m_fromNs = at - static_cast<int64_t>(newSpan * share);
    m_toNs = m_fromNs + static_cast<int64_t>(newSpan);
    update();
    event->accept();
}

void WhatIfLanesView::mousePressEvent(QMouseEvent* event)
{
    m_dragFrom = event->position().toPoint();
    m_dragStartNs = m_fromNs;
}

void WhatIfLanesView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const int64_t range = m_toNs - m_fromNs;
    const double nsPerPixel = static_cast<double>(range) / std::max(1, width() - kLabelWidth - 4);
    const double dx = event->position().x() - m_dragFrom.x();
    m_fromNs = m_dragStartNs - static_cast<int64_t>(std::llround(dx * nsPerPixel));
    m_toNs = m_fromNs + range;
    update();
}

void WhatIfLanesView::mouseDoubleClickEvent(QMouseEvent*) { showAll(); }

} // namespace placescope::ui
