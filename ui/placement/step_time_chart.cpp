// SPDX-License-Identifier: MIT
#include "ui/placement/step_time_chart.h"

#include "placement/proposal/model_proposal.h"
#include "profiler/base/units.h"
#include "ui/timeline/timeline_format.h"

#include <QPainter>

#include <algorithm>

namespace placescope::ui {

namespace {
constexpr int kBarHeight = 16;
constexpr int kGap = 3;
} // namespace

StepTimeChart::StepTimeChart(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StepTimeChart::setEntries(std::vector<Entry> entries)
{
    m_entries = std::move(entries);
    updateGeometry();
    update();
}

QSize StepTimeChart::sizeHint() const
{
    return { 320, static_cast<int>(std::max<size_t>(m_entries.size(), 1)) * (kBarHeight + kGap) + kGap };
}

void StepTimeChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    const QFontMetrics metrics(font());
    QFont boldFont = font();
    boldFont.setBold(true);
    const QFontMetrics boldMetrics(boldFont); // emphasised labels are drawn bold: measure them so
    int labelWidth = 0;
    for (const Entry& entry : m_entries)
        labelWidth = std::max(labelWidth, (entry.emphasised ? boldMetrics : metrics).horizontalAdvance(entry.label));
    labelWidth += 8;
    const int valueWidth = metrics.horizontalAdvance("0000.00 ms") + 8;
    const double barSpace = std::max(20, width() - labelWidth - valueWidth);
    double longest = 0;
    for (const Entry& entry : m_entries)
        longest = std::max(longest, entry.us);
    int y = kGap;
    for (const Entry& entry : m_entries) {
        QFont f = font();
        f.setBold(entry.emphasised);
        painter.setFont(f);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(QRect(0, y, labelWidth - 6, kBarHeight), Qt::AlignVCenter | Qt::AlignRight, entry.label);
        if (entry.us >= 0 && longest > 0) {
            const double w = std::max(1.0, barSpace * entry.us / longest);
            painter.fillRect(QRectF(labelWidth, y + 2, w, kBarHeight - 4), entry.color);
            painter.drawText(QRectF(labelWidth + w + 4, y, valueWidth, kBarHeight), Qt::AlignVCenter | Qt::AlignLeft,
                QString::fromStdString(formatNanoseconds(entry.us * 1e3))); // the CLI's figure, digit for digit
        } else {
            painter.setPen(pal.color(QPalette::PlaceholderText));
            painter.drawText(QRect(labelWidth, y, static_cast<int>(barSpace), kBarHeight),
                Qt::AlignVCenter | Qt::AlignLeft, tr("n/a"));
        }
        y += kBarHeight + kGap;
    }
}

} // namespace placescope::ui
