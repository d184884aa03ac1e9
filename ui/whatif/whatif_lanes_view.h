// SPDX-License-Identifier: MIT
#pragma once

#include "ui/core/lane_folding.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace placescope::ui {

struct WhatIfRun;

// The predicted lanes beside the measured ones: one band per lane of the predicted graph, its measured spans
// above and its predicted spans below, on one shared time axis (so a span that moved left got earlier), drawn
// by the timeline's row painter (narrow spans fold into blocks as on the timeline); tasks on the critical path (the
// replay's above, the prediction's below) are drawn red on top, never folded away. Wheel zooms around the cursor, drag
// pans, double-click shows everything. Deliberately small: the main timeline has the full machinery. UI thread only.
class WhatIfLanesView : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfLanesView(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const WhatIfRun> run);
    void showAll();
    // What the view says while it has no run (no trace, loading, an error).
    void setPlaceholder(const QString& text);
    int64_t viewStartNs() const { return m_fromNs; }
    int64_t viewEndNs() const { return m_toNs; }
    // Rectangles the last paint drew: spans, folded blocks and highlighted critical spans (tests, benchmarks).
    int lastDrawCount() const { return m_lastDrawCount; }
    int lastCriticalCount() const { return m_lastCriticalCount; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override; // tooltips

private:
    double xOf(int64_t ns) const;
    int64_t nsAt(double x) const;
    struct Hit
    {
        int32_t task = -1; // in the predicted graph; -1: none
        bool predicted = false; // on a predicted row (else a measured one)
        bool critical = false;
    };
    // The task whose span is under a point.
    Hit taskAt(QPoint pos) const;

    std::shared_ptr<const WhatIfRun> m_run;
    QString m_placeholder;
    int64_t m_fromNs = 0, m_toNs = 1;
    QPoint m_dragFrom;
    int64_t m_dragStartNs = 0;
    int m_lastDrawCount = 0;
    int m_lastCriticalCount = 0;
    std::vector<DrawItem> m_items; // the row painter's scratch, reused between paints
};

} // namespace placescope::ui
