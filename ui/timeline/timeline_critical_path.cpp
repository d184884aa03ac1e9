// SPDX-License-Identifier: MIT
// The critical path strip: the what-if replay's critical path of the open trace (what set its step time), drawn as
// a band of category colours along the bottom of the ruler, with a tooltip naming the category under the cursor.
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"

#include <QPainter>

#include <algorithm>

namespace placescope::ui {

namespace {

constexpr int kStripHeight = 4;

QColor categoryColor(const QString& category)
{
    // Warm for GPU work and waits on it, cool for the host: where the step's time goes at a glance.
    if (category == "kernel")
        return QColor(214, 39, 40);
    if (category == "communication")
        return QColor(148, 103, 189);
    if (category == "copy")
        return QColor(44, 160, 44);
    if (category == "sync")
        return QColor(255, 127, 14);
    if (category == "launch")
        return QColor(23, 190, 207);
    if (category == "wait")
        return QColor(188, 189, 34);
    return QColor(31, 119, 180); // cpu
}

} // namespace

void TimelineView::setCriticalPath(std::vector<CriticalSpan> spans)
{
    std::sort(
        spans.begin(), spans.end(), [](const CriticalSpan& a, const CriticalSpan& b) { return a.startNs < b.startNs; });
    m_criticalPath = std::move(spans);
    update();
}

void TimelineView::drawCriticalPath(QPainter& painter)
{
    if (m_criticalPath.empty())
        return;
    // The strip's name, at the end of the header column beside it (a coloured line alone says nothing).
    QFont small = painter.font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.save();
    painter.setFont(small);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRectF(4, kRulerHeight - kStripHeight - 10, kHeaderWidth - 8, kStripHeight + 10),
        Qt::AlignRight | Qt::AlignVCenter, criticalPathLabel());
    painter.restore();
    const double left = kHeaderWidth, right = kHeaderWidth + plotWidth();
    for (const CriticalSpan& span : m_criticalPath) {
        const double x0 = std::max(left, left + m_axis.xForTime(span.startNs));
        const double x1 = std::min(right, left + m_axis.xForTime(span.endNs));
        if (x1 < left || x0 > right)
            continue;
        painter.fillRect(QRectF(x0, kRulerHeight - kStripHeight, std::max(1.0, x1 - x0), kStripHeight),
            categoryColor(span.category));
    }
}

QString TimelineView::criticalPathLabel() { return tr("critical path \u25B8"); }

QString TimelineView::criticalPathTooltip(QPoint pos) const
{
    if (m_criticalPath.empty() || pos.y() < kRulerHeight - kStripHeight - 10 || pos.y() > kRulerHeight)
        return {};
    if (pos.x() < kHeaderWidth)
        return tr("The what-if replay's critical path: what set the step's time, coloured by what it was doing "
                  "(CPU, launch, kernel, copy, sync, communication, wait)");
    if (pos.y() < kRulerHeight - kStripHeight - 2)
        return {};
    const int64_t t = m_axis.timeForX(pos.x() - kHeaderWidth);
    const int64_t slack = static_cast<int64_t>(m_axis.nsPerPixel() * 2);
    auto it = std::upper_bound(m_criticalPath.begin(), m_criticalPath.end(), t + slack,
        [](int64_t time, const CriticalSpan& s) { return time < s.startNs; });
    while (it != m_criticalPath.begin()) {
        --it;
        if (it->endNs + slack >= t)
            return tr("Critical path: %1, %2")
                .arg(it->category, formatDuration(static_cast<double>(it->endNs - it->startNs)));
        if (it->endNs < t - slack)
            break;
    }
    return {};
}

} // namespace placescope::ui
