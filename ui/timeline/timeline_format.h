// SPDX-License-Identifier: MIT
#pragma once

#include "profiler/base/units.h"
#include "ui/core/trace_data.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <algorithm>
#include <cmath>

namespace placescope::ui {

// Colours and labels shared by the timeline's painting and tooltips. Free functions, thread-safe.
inline QColor eventColor(EventKind kind, uint32_t nameIndex)
{
    switch (kind) {
    case EventKind::Memcpy:
        return QColor(240, 160, 70);
    case EventKind::Memset:
        return QColor(170, 170, 170);
    case EventKind::Runtime:
        return QColor(120, 190, 120);
    case EventKind::Nvtx:
        return QColor(180, 140, 220);
    case EventKind::GpuAnnotation:
        return QColor(200, 170, 230);
    default:
        break;
    }
    // Hue from the name so the same kernel or op keeps its colour everywhere.
    const int hue = static_cast<int>((nameIndex * 2654435761u) % 360u);
    // Predicted spans: a hue per op, a little stronger than framework ops so they read as a different source.
    return QColor::fromHsv(hue, kind == EventKind::Kernel ? 110 : kind == EventKind::Predicted ? 95 : 70, 235);
}

inline QColor foldedColor(const QPalette& palette)
{
    QColor c = palette.color(QPalette::Text);
    c.setAlpha(130);
    return c;
}

// A 1-2-5 step at least minNs long.
inline double niceTickNs(double minNs)
{
    double step = 1.0;
    while (step * 10 <= minNs)
        step *= 10;
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (step * m >= minNs)
            return step * m;
    return step * 10;
}

// The CLI's and the reports' duration formatter (profiler/base/units.h), so a time reads the same everywhere.
inline QString formatDuration(double ns) { return QString::fromStdString(::placescope::formatNanoseconds(ns)); }

// A ruler label: t in the tick's unit, with as many decimals as the tick step needs to tell ticks apart.
inline QString formatTick(double ns, double tickNs)
{
    return QString::fromStdString(::placescope::formatAxisNanoseconds(ns, tickNs));
}

// The CLI's and the reports' formatter (binary units), so a size reads the same everywhere.
inline QString formatBytes(int64_t bytes) { return QString::fromStdString(::placescope::formatBytes(bytes)); }

// The CLI's rate formatter (decimal units, from bytes per second), so a bandwidth reads the same everywhere.
inline QString formatRate(double bytesPerSecond)
{
    return QString::fromStdString(::placescope::formatRate(bytesPerSecond));
}

// A counter track's value in its unit: bytes, a count, or GB/s (ui/timeline/timeline_counters.cpp).
QString formatCounterValue(const CounterSeries& series, int64_t value);

} // namespace placescope::ui
