// SPDX-License-Identifier: MIT
// Counter tracks: selecting a sample (a memory finding's peak) and drawing its marker; values in the track's unit.
#include "ui/timeline/timeline_view.h"

#include "ui/timeline/timeline_format.h"

#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cstdlib>

namespace placescope::ui {

QString formatCounterValue(const CounterSeries& series, int64_t value)
{
    switch (series.unit) {
    case CounterUnit::Bytes:
        return formatBytes(value);
    case CounterUnit::Count:
        return QString::number(value);
    case CounterUnit::BytesPerSecond:
        return formatRate(static_cast<double>(value));
    }
    return QString::number(value);
}

size_t TimelineView::counterPeak(const CounterSeries& series)
{
    size_t peak = 0;
    int64_t best = INT64_MIN;
    for (size_t i = 0; i < series.timeNs.size(); ++i) {
        const int64_t value
            = std::max(series.allocatedBytes[i], series.reservedBytes.empty() ? -1 : series.reservedBytes[i]);
        if (value > best) {
            best = value;
            peak = i;
        }
    }
    return peak;
}

int TimelineView::counterTop(int series) const
{
    return laneTop(static_cast<int>(m_trace->lanes.size())) + series * (kCounterHeight + 6);
}

bool TimelineView::selectCounterPeak(int64_t nearNs)
{
    if (!m_trace)
        return false;
    std::optional<CounterRef> best;
    int64_t bestDistance = INT64_MAX;
    for (size_t s = 0; s < m_trace->counters.size(); ++s) {
        const CounterSeries& series = m_trace->counters[s];
        if (series.timeNs.empty() || series.unit != CounterUnit::Bytes) // memory peaks only
            continue;
        const size_t peak = counterPeak(series);
        const int64_t distance = std::llabs(series.timeNs[peak] - nearNs);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = CounterRef { static_cast<int>(s), peak };
        }
    }
    if (!best)
        return false;
    selectCounterSample(*best);
    return true;
}

void TimelineView::selectCounterSample(const CounterRef& ref)
{
    const CounterSeries& series = m_trace->counters[static_cast<size_t>(ref.series)];
    m_selected.reset();
    m_flows.clear();
    m_linked.clear();
    m_counterMark = ref;
    // A twentieth of the trace around the sample: enough to see the climb to the peak and the fall after it.
    const int64_t t = series.timeNs[ref.sample];
    const int64_t half = std::max<int64_t>((m_trace->lastNs - m_trace->firstNs) / 40, 10'000);
    m_axis.fit(t - half, t + half, plotWidth());
    const int top = counterTop(ref.series) + m_vbar->value();
    if (top < m_vbar->value() + kRulerHeight || top + kCounterHeight > m_vbar->value() + height())
        m_vbar->setValue(top - height() / 2);
    QString text = tr("%1 at %2: allocated %3")
                       .arg(QString::fromStdString(series.title),
                           QString::fromStdString(formatNanoseconds(static_cast<double>(t - m_trace->firstNs))),
                           formatBytes(series.allocatedBytes[ref.sample]));
    if (!series.reservedBytes.empty() && series.reservedBytes[ref.sample] >= 0)
        text += tr(", reserved %1").arg(formatBytes(series.reservedBytes[ref.sample]));
    emit eventSelected(text);
    emit selectionChanged();
    update();
}

void TimelineView::drawCounterMark(QPainter& painter, const CounterSeries& series, int y)
{
    const size_t i = m_counterMark->sample;
    const double x = kHeaderWidth + m_axis.xForTime(series.timeNs[i]);
    const int64_t value
        = std::max(series.allocatedBytes[i], series.reservedBytes.empty() ? -1 : series.reservedBytes[i]);
    const double scale = (kCounterHeight - 4) / static_cast<double>(std::max<int64_t>(series.maxBytes, 1));
    const QPointF point(x, y + kCounterHeight - 2 - value * scale);
    const QColor highlight = palette().color(QPalette::Highlight);
    painter.setPen(QPen(highlight, 1, Qt::DashLine));
    painter.drawLine(QPointF(x, y), QPointF(x, y + kCounterHeight));
    painter.setPen(QPen(highlight, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(kHeaderWidth, y, plotWidth(), kCounterHeight)); // the selected track
    painter.setBrush(highlight);
    painter.drawEllipse(point, 4, 4);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(point + QPointF(6, std::max(12.0, 12.0 - (point.y() - y))), formatBytes(value));
}

} // namespace placescope::ui
