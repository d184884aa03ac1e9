// SPDX-License-Identifier: MIT
#include "ui/timeline/row_painter.h"

#include "ui/timeline/timeline_format.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace placescope::ui {

double foldedBlockOpacity(const DrawItem& item)
{
    const int64_t extent = item.endNs - item.startNs;
    const double busy
        = extent > 0 ? std::clamp(static_cast<double>(item.totalNs) / static_cast<double>(extent), 0.0, 1.0) : 1.0;
    return kMinFoldedOpacity + (1.0 - kMinFoldedOpacity) * busy;
}

size_t paintRow(QPainter& painter, const LaneRow& row, const std::vector<std::string>& names, int rowY,
    const TimeAxis& axis, const RowPaintStyle& style, std::vector<DrawItem>& scratch)
{
    const QFontMetrics metrics(painter.font());
    scratch.clear();
    foldVisible(row, axis, style.widthPx, style.minEventPx, scratch);
    for (const DrawItem& item : scratch) {
        const double x0 = style.left + axis.xForTime(item.startNs);
        const double x1 = style.left + axis.xForTime(item.endNs);
        const QRectF box(x0, rowY + 1, std::max(1.0, x1 - x0), style.rowHeight - 2);
        const uint32_t name = row.nameIndex[item.firstIndex];
        QColor color = eventColor(row.kind[item.firstIndex], name);
        if (item.count > 1)
            color = color.darker(135);
        // A folded block as dense as its events are (Nsight's utilization row): 57 % busy must not read as 100 %.
        const double opacity = (style.alpha / 255.0) * (item.count > 1 ? foldedBlockOpacity(item) : 1.0);
        if (opacity < 1.0)
            color.setAlphaF(static_cast<float>(opacity));
        painter.fillRect(box, color);
        if (item.count > 1) {
            if (style.foldCounts && box.width() > 30) {
                painter.setPen(Qt::black);
                painter.drawText(box, Qt::AlignCenter, QString::number(item.count));
            }
            continue;
        }
        if (style.outline && (row.fullNameIndex[item.firstIndex] == *style.outline || name == *style.outline)) {
            painter.setPen(QPen(style.outlineColor, 1.5));
            painter.drawRect(box);
        }
        if (style.labels && box.width() > 24) {
            painter.setPen(Qt::black);
            painter.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                metrics.elidedText(
                    QString::fromStdString(names[name]), Qt::ElideRight, static_cast<int>(box.width()) - 4));
        }
    }
    return scratch.size();
}

} // namespace placescope::ui
