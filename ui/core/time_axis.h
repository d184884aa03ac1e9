// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace placescope::ui {

// Maps trace time (ns) to horizontal pixels of the timeline's drawing area and back. Pure value type,
// no Qt, so zoom/pan arithmetic is unit-tested with plain numbers. Not thread-safe (a value; copy it).
class TimeAxis
{
public:
    TimeAxis() = default;
    TimeAxis(int64_t viewStartNs, double nsPerPixel)
        : m_viewStartNs(viewStartNs)
        , m_nsPerPixel(nsPerPixel)
    { }

    int64_t viewStartNs() const { return m_viewStartNs; }
    double nsPerPixel() const { return m_nsPerPixel; }
    int64_t viewEndNs(double widthPx) const { return m_viewStartNs + static_cast<int64_t>(widthPx * m_nsPerPixel); }

    double xForTime(int64_t timeNs) const { return static_cast<double>(timeNs - m_viewStartNs) / m_nsPerPixel; }
    int64_t timeForX(double x) const { return m_viewStartNs + static_cast<int64_t>(x * m_nsPerPixel); }

    // Shows [startNs, endNs] across widthPx pixels.
    void fit(int64_t startNs, int64_t endNs, double widthPx);
    // Zooms by `factor` (> 1 zooms in) keeping the time under anchorX at anchorX.
    void zoomAround(double anchorX, double factor);
    // Moves the view by dx pixels (positive: later times come into view).
    void panPixels(double dx);
    // Keeps the view inside [minNs, maxNs] (Perfetto's rule: no panning into time before the trace or after it).
    // A view wider than the bounds starts at minNs.
    void clampTo(int64_t minNs, int64_t maxNs, double widthPx);

    // Zoom limits: 1 ns per 100 px at most, one hour per pixel at least.
    static constexpr double kMinNsPerPixel = 0.01;
    static constexpr double kMaxNsPerPixel = 3.6e12;

private:
    int64_t m_viewStartNs = 0;
    double m_nsPerPixel = 1.0;
};

} // namespace placescope::ui
