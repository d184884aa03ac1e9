// SPDX-License-Identifier: MIT
// One run's timeline in the compare window: its GPU stream lanes, then its host lanes, drawn on the shared
// CompareAxis after shifting the run's trace time by its alignment origin (the start of the step both runs are
// aligned on). Step boundaries are dashed lines, so paired steps line up visibly. Rows are drawn by the main
// timeline's drawing loop (ui/timeline/row_painter: narrow events fold into blocks, ui/core/lane_folding). A
// highlighted kernel name dims everything else and draws each of its instances on top, at least two pixels wide, so
// none is folded away. Wheel zooms around the cursor, drag pans, double-click fits both runs. UI thread only; the side
// it draws is immutable.
#pragma once

#include "ui/compare/compare_job.h"
#include "ui/core/lane_folding.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace placescope::ui {

class CompareAxis;

class CompareLanesView : public QWidget
{
    Q_OBJECT
public:
    CompareLanesView(CompareAxis* axis, QWidget* parent = nullptr);

    // `originNs`: the trace time drawn at aligned time 0.
    void setSide(std::shared_ptr<const CompareSide> side, int64_t originNs);
    const CompareSide* side() const { return m_side.get(); }
    int64_t originNs() const { return m_originNs; }
    void setOrigin(int64_t originNs);
    // Aligned time span of everything the run has: [first event, last event] - origin.
    std::pair<int64_t, int64_t> alignedExtent() const;

    // Highlights the kernels whose demangled name is `name` (empty: none). Returns how many instances it marked.
    size_t highlightKernel(const std::string& name);
    size_t highlightedCount() const { return m_highlightCount; }
    // Aligned start of the first highlighted instance; -1 when none.
    std::optional<int64_t> firstHighlightedNs() const;

    double plotWidth() const;
    int contentHeight() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Items the last paint drew (events and folded blocks), and highlighted instances among them.
    size_t lastDrawCount() const { return m_lastDrawCount; }
    size_t lastHighlightDrawCount() const { return m_lastHighlightDrawCount; }

    static constexpr int kLabelWidth = 200;
    static constexpr int kRulerHeight = 20;
    static constexpr int kRowHeight = 12;
    static constexpr int kLaneGap = 4;

signals:
    void fitRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override; // tooltips

private:
    // Lanes in drawing order: device lanes first (the diff is about GPU work), then host lanes.
    void orderLanes();
    TimeAxis traceAxis() const; // the shared axis in this run's trace time
    int laneTop(size_t orderIndex) const;
    QString tooltipAt(QPoint pos) const;

    CompareAxis* m_axis;
    std::shared_ptr<const CompareSide> m_side;
    int64_t m_originNs = 0;
    std::vector<size_t> m_order; // lane indices in drawing order
    // Highlighted instances: per lane and row, event indices (sorted) whose kernel has the highlighted name.
    std::vector<std::vector<std::vector<uint32_t>>> m_highlight;
    size_t m_highlightCount = 0;
    std::vector<DrawItem> m_items;
    size_t m_lastDrawCount = 0;
    size_t m_lastHighlightDrawCount = 0;
    std::optional<QPoint> m_dragFrom;
};

} // namespace placescope::ui
