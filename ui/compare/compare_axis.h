// SPDX-License-Identifier: MIT
// The one time axis the two runs' timelines share: aligned time, 0 at the step both runs are aligned on (each
// side maps its own trace time to it by subtracting that step's start). Zooming or panning either timeline moves
// this axis, and both repaint from it, so the runs stay aligned at every zoom. UI thread only.
#pragma once

#include "ui/core/time_axis.h"

#include <QObject>

namespace placescope::ui {

class CompareAxis : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    const TimeAxis& axis() const { return m_axis; }
    void setAxis(const TimeAxis& axis)
    {
        m_axis = axis;
        emit changed();
    }

signals:
    void changed();

private:
    TimeAxis m_axis;
};

} // namespace placescope::ui
