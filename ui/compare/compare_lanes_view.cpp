// SPDX-License-Identifier: MIT
#include "ui/compare/compare_lanes_view.h"

#include "profiler/base/units.h"
#include "ui/compare/compare_axis.h"
#include "ui/timeline/row_painter.h"
#include "ui/timeline/timeline_format.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace placescope::ui {

namespace {
constexpr double kMinEventPx = 3.0; // the main timeline's folding width
constexpr double kMinHighlightPx = 2.0; // a highlighted instance never vanishes
} // namespace

CompareLanesView::CompareLanesView(CompareAxis* axis, QWidget* parent)
    : QWidget(parent)
    , m_axis(axis)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    connect(m_axis, &CompareAxis::changed, this, qOverload<>(&QWidget::update));
}

void CompareLanesView::setSide(std::shared_ptr<const CompareSide> side, int64_t originNs)
{
    m_side = std::move(side);
    m_originNs = originNs;
    m_highlight.clear();
    m_highlightCount = 0;
    orderLanes();
    setMinimumHeight(contentHeight());
    updateGeometry();
    update();
}

void CompareLanesView::setOrigin(int64_t originNs)
{
    m_originNs = originNs;
    update();
}

void CompareLanesView::orderLanes()
{
    m_order.clear();
    if (!m_side || !m_side->opened.trace)
        return;
    const auto& lanes = m_side->opened.trace->lanes;
    for (size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].group == Lane::Group::Device)
            m_order.push_back(i);
    for (size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].group != Lane::Group::Device)
            m_order.push_back(i);
}

std::pair<int64_t, int64_t> CompareLanesView::alignedExtent() const
{
    if (!m_side || !m_side->opened.trace)
        return { 0, 0 };
    return { m_side->opened.trace->firstNs - m_originNs, m_side->opened.trace->lastNs - m_originNs };
}

size_t CompareLanesView::highlightKernel(const std::string& name)
{
    m_highlight.clear();
    m_highlightCount = 0;
    if (m_side && m_side->opened.trace && !name.empty())
        if (auto it = m_side->kernelRowsByName.find(name); it != m_side->kernelRowsByName.end()) {
            const std::vector<uint32_t>& rows = it->second; // sorted rowids of this name's kernels
            const auto& lanes = m_side->opened.trace->lanes;
            m_highlight.resize(lanes.size());
            for (size_t l = 0; l < lanes.size(); ++l) {
                if (lanes[l].group != Lane::Group::Device)
                    continue;
                m_highlight[l].resize(lanes[l].rows.size());
                for (size_t r = 0; r < lanes[l].rows.size(); ++r) {
                    const LaneRow& row = lanes[l].rows[r];
                    for (size_t i = 0; i < row.size(); ++i)
                        if (row.kind[i] == EventKind::Kernel
                            && std::binary_search(rows.begin(), rows.end(), row.sourceRow[i])) {
                            m_highlight[l][r].push_back(static_cast<uint32_t>(i));
                            ++m_highlightCount;
                        }
                }
            }
        }
    update();
    return m_highlightCount;
}

std::optional<int64_t> CompareLanesView::firstHighlightedNs() const
{
    std::optional<int64_t> first;
    for (size_t l = 0; l < m_highlight.size(); ++l)
        for (size_t r = 0; r < m_highlight[l].size(); ++r)
            if (!m_highlight[l][r].empty()) {
                const int64_t start
                    = m_side->opened.trace->lanes[l].rows[r].startNs[m_highlight[l][r].front()] - m_originNs;
                first = first ? std::min(*first, start) : start;
            }
    return first;
}

double CompareLanesView::plotWidth() const { return std::max(1, width() - kLabelWidth - 4); }

int CompareLanesView::laneTop(size_t orderIndex) const
{
    int y = kRulerHeight + 2;
    const auto& lanes = m_side->opened.trace->lanes;
    for (size_t i = 0; i < orderIndex; ++i)
        y += static_cast<int>(lanes[m_order[i]].rows.size()) * kRowHeight + kLaneGap;
    return y;
}

int CompareLanesView::contentHeight() const
{
    if (!m_side || !m_side->opened.trace)
        return kRulerHeight + 3 * kRowHeight;
    return laneTop(m_order.size()) + 2;
}

QSize CompareLanesView::sizeHint() const { return { 800, std::min(contentHeight(), 400) }; }
QSize CompareLanesView::minimumSizeHint() const { return { kLabelWidth + 100, kRulerHeight + 2 * kRowHeight }; }

TimeAxis CompareLanesView::traceAxis() const
{
    const TimeAxis& shared = m_axis->axis();
    return TimeAxis(shared.viewStartNs() + m_originNs, shared.nsPerPixel());
}

void CompareLanesView::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    m_lastDrawCount = 0;
    m_lastHighlightDrawCount = 0;
    if (!m_side || !m_side->opened.trace)
        return;
    const LoadedTrace& trace = *m_side->opened.trace;
    const TimeAxis axis = traceAxis();
    const double widthPx = plotWidth();
    const QFontMetrics metrics(font());
    const QRect dirty = event->rect();
    const bool highlighting = !m_highlight.empty();

    // Ruler in aligned time: 0 is the start of the step both runs are aligned on.
    painter.fillRect(QRect(0, 0, width(), kRulerHeight), pal.color(QPalette::Window));
    painter.setPen(pal.color(QPalette::WindowText));
    const TimeAxis& shared = m_axis->axis();
    const double tickNs = niceTickNs(shared.nsPerPixel() * 100.0);
    const double firstTick = std::ceil(static_cast<double>(shared.viewStartNs()) / tickNs) * tickNs;
    for (double t = firstTick; shared.xForTime(static_cast<int64_t>(t)) <= widthPx; t += tickNs) {
        const double x = kLabelWidth + shared.xForTime(static_cast<int64_t>(t));
        painter.drawLine(QPointF(x, kRulerHeight - 6), QPointF(x, kRulerHeight));
        painter.drawText(QPointF(x + 2, kRulerHeight - 8), formatTick(t, tickNs));
    }

    RowPaintStyle rowStyle;
    rowStyle.left = kLabelWidth;
    rowStyle.widthPx = widthPx;
    rowStyle.rowHeight = kRowHeight;
    rowStyle.minEventPx = kMinEventPx;
    rowStyle.foldCounts = false; // rows are short here: a count would hide the block's colour
    rowStyle.labels = !highlighting;
    rowStyle.alpha = highlighting ? 60 : 255;
    painter.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
    for (size_t o = 0; o < m_order.size(); ++o) {
        const size_t laneIndex = m_order[o];
        const Lane& lane = trace.lanes[laneIndex];
        const int top = laneTop(o);
        const int laneHeight = static_cast<int>(lane.rows.size()) * kRowHeight;
        if (top > dirty.bottom() || top + laneHeight < dirty.top())
            continue;
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(4, top, kLabelWidth - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
            metrics.elidedText(QString::fromStdString(lane.title), Qt::ElideRight, kLabelWidth - 8));
        painter.setPen(pal.color(QPalette::Midlight));
        painter.drawLine(0, top + laneHeight + kLaneGap / 2, width(), top + laneHeight + kLaneGap / 2);
        painter.save();
        painter.setClipRect(QRectF(kLabelWidth, top, widthPx, laneHeight));
        for (size_t r = 0; r < lane.rows.size(); ++r) {
            const LaneRow& row = lane.rows[r];
            const int y = top + static_cast<int>(r) * kRowHeight;
            // The timeline's drawing loop; while a kernel is highlighted everything else is dimmed and unnamed.
            m_lastDrawCount += paintRow(painter, row, trace.names, y, axis, rowStyle, m_items);
            // The highlighted instances on top. A row's events do not overlap, so their ends are sorted as their
            // starts are: the visible ones are found by binary search on either.
            if (laneIndex < m_highlight.size() && r < m_highlight[laneIndex].size()) {
                const std::vector<uint32_t>& marked = m_highlight[laneIndex][r];
                const int64_t viewStart = axis.viewStartNs(), viewEnd = axis.viewEndNs(widthPx);
                auto first = std::lower_bound(
                    marked.begin(), marked.end(), viewStart, [&](uint32_t i, int64_t t) { return row.endNs[i] < t; });
                const QColor mark = pal.color(QPalette::Highlight);
                for (auto it = first; it != marked.end() && row.startNs[*it] <= viewEnd; ++it) {
                    const double x0 = kLabelWidth + axis.xForTime(row.startNs[*it]);
                    const double x1 = kLabelWidth + axis.xForTime(row.endNs[*it]);
                    const QRectF box(x0, y, std::max(kMinHighlightPx, x1 - x0), kRowHeight);
                    painter.fillRect(box, eventColor(EventKind::Kernel, row.nameIndex[*it]));
                    painter.setPen(QPen(mark, 1.5));
                    painter.drawRect(box);
                    ++m_lastHighlightDrawCount;
                }
            }
        }
        painter.restore();
    }

    // Step boundaries over everything, in this run's own steps (aligned ones coincide with the other run's).
    painter.setClipRect(QRectF(kLabelWidth, 0, widthPx, height()));
    QPen dashed(pal.color(QPalette::WindowText), 1, Qt::DashLine);
    double lastLabelX = -1e9;
    for (size_t s = 0; s < m_side->stepStartNs.size(); ++s) {
        const double x = kLabelWidth + axis.xForTime(m_side->stepStartNs[s]);
        if (x < kLabelWidth || x > kLabelWidth + widthPx)
            continue;
        painter.setPen(dashed);
        painter.drawLine(QPointF(x, kRulerHeight), QPointF(x, height()));
        const QString label = tr("step %1").arg(s + 1);
        if (x - lastLabelX > metrics.horizontalAdvance(label) + 6) { // zoomed out, steps crowd: label some
            // On a plate of the view's background: over a lane's own labels ("ProfilerStep#2") the two texts ran
            // into each other.
            painter.fillRect(QRectF(x + 1, kRulerHeight + 1, metrics.horizontalAdvance(label) + 4, metrics.height()),
                pal.color(QPalette::Base));
            painter.drawText(QPointF(x + 3, kRulerHeight + 11), label);
            lastLabelX = x;
        }
    }
}

void CompareLanesView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    TimeAxis axis = m_axis->axis();
    axis.zoomAround(event->position().x() - kLabelWidth, std::pow(1.25, steps));
    m_axis->setAxis(axis);
    event->accept();
}

void CompareLanesView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        m_dragFrom = event->position().toPoint();
}

void CompareLanesView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragFrom)
        return;
    const QPoint now = event->position().toPoint();
    TimeAxis axis = m_axis->axis();
    axis.panPixels(m_dragFrom->x() - now.x());
    m_dragFrom = now;
    m_axis->setAxis(axis);
}

void CompareLanesView::mouseReleaseEvent(QMouseEvent*) { m_dragFrom.reset(); }

void CompareLanesView::mouseDoubleClickEvent(QMouseEvent*) { emit fitRequested(); }

QString CompareLanesView::tooltipAt(QPoint pos) const
{
    if (!m_side || !m_side->opened.trace || pos.x() < kLabelWidth || pos.y() < kRulerHeight)
        return {};
    const LoadedTrace& trace = *m_side->opened.trace;
    const TimeAxis axis = traceAxis();
    for (size_t o = 0; o < m_order.size(); ++o) {
        const Lane& lane = trace.lanes[m_order[o]];
        const int top = laneTop(o);
        const int r = (pos.y() - top) / kRowHeight;
        if (pos.y() < top || r >= static_cast<int>(lane.rows.size()))
            continue;
        const LaneRow& row = lane.rows[static_cast<size_t>(r)];
        // The event under the cursor, with a pixel of slack either side for narrow ones.
        const int64_t t0 = axis.timeForX(pos.x() - kLabelWidth - 1), t1 = axis.timeForX(pos.x() - kLabelWidth + 1);
        const size_t i = firstVisibleEvent(row, t0);
        if (i >= row.size() || row.startNs[i] > t1)
            return {};
        return tr("%1\n%2, starts %3 after the aligned step")
            .arg(QString::fromStdString(trace.names[row.nameIndex[i]]),
                QString::fromStdString(formatNanoseconds(static_cast<double>(row.durationNs(i)))),
                QString::fromStdString(formatNanoseconds(static_cast<double>(row.startNs[i] - m_originNs))));
    }
    return {};
}

bool CompareLanesView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace placescope::ui
