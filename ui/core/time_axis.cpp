// SPDX-License-Identifier: MIT
#include "ui/core/time_axis.h"

#include <algorithm>
#include <cmath>

namespace placescope::ui {

void TimeAxis::fit(int64_t startNs, int64_t endNs, double widthPx)
{
    m_viewStartNs = startNs;
    const double span = static_cast<double>(std::max<int64_t>(endNs - startNs, 1));
    m_nsPerPixel = std::clamp(span / std::max(widthPx, 1.0), kMinNsPerPixel, kMaxNsPerPixel);
}

void TimeAxis::zoomAround(double anchorX, double factor)
{
    if (!(factor > 0.0))
        return;
    // The anchor's exact time (fractional ns) stays under the cursor.
    const double anchorTime = static_cast<double>(m_viewStartNs) + anchorX * m_nsPerPixel;
    m_nsPerPixel = std::clamp(m_nsPerPixel / factor, kMinNsPerPixel, kMaxNsPerPixel);
    m_viewStartNs = static_cast<int64_t>(std::llround(anchorTime - anchorX * m_nsPerPixel));
}

void TimeAxis::panPixels(double dx) { m_viewStartNs += static_cast<int64_t>(std::llround(dx * m_nsPerPixel)); }

void TimeAxis::clampTo(int64_t minNs, int64_t maxNs, double widthPx)
{
    const auto span = static_cast<int64_t>(widthPx * m_nsPerPixel);
    if (span >= maxNs - minNs)
        m_viewStartNs = minNs;
    else
        m_viewStartNs = std::clamp(m_viewStartNs, minNs, maxNs - span);
}

} // namespace placescope::ui
