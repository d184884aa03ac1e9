// SPDX-License-Identifier: MIT
#pragma once

#include "ui/core/lane_folding.h"
#include "ui/core/time_axis.h"
#include "ui/core/trace_data.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QAction;
class QMenu;
class QScrollBar;

namespace placescope::ui {

// The timeline: a custom-painted QWidget with a time ruler, one lane per host thread kind or device stream
// (rows = nesting levels), memory counter lanes, and folding of narrow events into counted blocks.
// Perfetto's habits: W/S zoom at the mouse and A/D pan whenever its window is active (window shortcuts, so typing
// in a line edit never moves it), Ctrl+wheel zooms and the wheel scrolls lanes (or the wheel zooms, as an option),
// drag pans, Shift+drag selects a range, F frames the selection, Esc clears it, M marks its span as the range.
// Owns a shared, immutable LoadedTrace; UI thread only.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const LoadedTrace> trace);
    const LoadedTrace* trace() const { return m_trace.get(); }
    // The placement engine's predicted timeline: extra lanes above the trace's, on their own time base that
    // starts at 0 with its own ruler and zoom (a predicted step is usually far shorter than a whole trace, so
    // sharing the trace's scale would draw it as a sliver). Wheel and drag over them move their axis only.
    // Null removes them.
    void setPredicted(std::shared_ptr<const PredictedLanes> predicted);
    const PredictedLanes* predicted() const { return m_predicted.get(); }
    const TimeAxis& axis() const { return m_axis; }
    const TimeAxis& predictedAxis() const { return m_predictedAxis; }
    // Zooms to [startNs, endNs] and makes it the range, which the Details panel then describes; `what` names it there
    // (a finding's evidence: "idle gaps mostly caused by host-bound: rank 1 GPU 1"), empty for a plain range.
    void showRange(int64_t startNs, int64_t endNs, const QString& what = {});
    void zoomToFit();

    struct EventRef
    {
        int lane = -1;
        int row = -1;
        uint32_t index = 0;
        bool operator==(const EventRef&) const = default;
    };
    std::optional<EventRef> selectedEvent() const { return m_selected; }
    // Selects an event; reveal scrolls its lane into view and centres it, keeping the zoom.
    void selectEvent(const EventRef& ref, bool reveal);
    const LaneRow& rowOf(const EventRef& ref) const
    {
        return m_trace->lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)];
    }
    // Search by name (case-insensitive substring of the short or the full name) from the selection; forward or
    // back. False when none. matchCount: how many events such a search can visit.
    bool findNext(const QString& text, bool forward);
    size_t matchCount(const QString& text) const;
    // Every event whose full or short name is exactly `name`, in time order (the instances of a table's row).
    std::vector<EventRef> eventsNamed(const QString& name) const;
    // A table's row on the timeline: selects the first instance of `name` after the selection (the first when
    // the selection is not one of them), frames it and outlines every other instance. False when none.
    bool selectNamed(const QString& name);
    // The flow's other end: a runtime call's device event, or a device event's launching call (correlation id).
    std::optional<EventRef> correlatedEvent(const EventRef& ref) const;
    QString rangeSummary() const;
    bool hasRange() const { return m_hasRange; }
    int64_t rangeStartNs() const { return m_rangeStartNs; }
    int64_t rangeEndNs() const { return m_rangeEndNs; }
    QString rangeWhat() const { return m_rangeWhat; } // what showRange named the range; empty for a drawn one

    // Navigation (ui/timeline/timeline_actions.cpp). The actions carry the keys, live on this widget with window
    // scope, and are what the Help menu and the '?' list show.
    const QList<QAction*>& navigationActions() const { return m_actions; }
    void zoomAtMouse(double factor);
    void frameSelection(); // F: the selection (or the marked range) fills the view
    void clearSelection(); // Esc
    void markSelection(); // M: the selected event's span becomes the range
    void showShortcuts(); // ?: a window listing keys and mouse
    // Perfetto's wheel (Ctrl+wheel zooms, the wheel scrolls lanes, Shift+wheel pans) or the wheel zooming.
    void setWheelZooms(bool zooms) { m_wheelZooms = zooms; }
    bool wheelZooms() const { return m_wheelZooms; }

    // Links between a framework op and the GPU work it launched (ui/timeline/timeline_links.cpp).
    // The event of a host thread's lane of the given kind that starts at startNs; none when absent.
    std::optional<EventRef> findHostEvent(int64_t globalTid, EventKind kind, int64_t startNs) const;
    // The framework ops around an event, outermost first: for a framework op, itself and the ops around it;
    // for a runtime call, the ops on its thread around its start; for a kernel, memcpy or memset, those of the
    // runtime call that launched it (same correlation id).
    std::vector<EventRef> enclosingFrameworkOps(const EventRef& ref) const;
    // What a framework op launched: pairs of (runtime call inside the op on its thread, device event with that
    // call's correlation id). Empty for other kinds.
    std::vector<std::pair<EventRef, EventRef>> launchedWork(const EventRef& op) const;
    // The device events marked with the selection: the kernels a selected framework op launched.
    const std::vector<EventRef>& linkedEvents() const { return m_linked; }
    // The what-if replay's critical path of the open trace (trace time), drawn as a strip of category colours under
    // the ruler (ui/timeline/timeline_critical_path.cpp). Empty hides it.
    struct CriticalSpan
    {
        int64_t startNs = 0;
        int64_t endNs = 0;
        QString category; // pathCategoryName: cpu, launch, kernel, copy, sync, communication, wait
    };
    void setCriticalPath(std::vector<CriticalSpan> spans);
    const std::vector<CriticalSpan>& criticalPath() const { return m_criticalPath; }
    // Tracks (ui/timeline/timeline_tracks.cpp), as in Perfetto: a collapsed lane shows its top row only (the
    // outermost ops); pinned lanes stay under the ruler, in the order they were pinned, while the rest scroll
    // under them. A click on a lane's triangle collapses or expands it; its header's context menu pins it.
    void setLaneCollapsed(int lane, bool collapsed);
    bool laneCollapsed(int lane) const;
    void setLanePinned(int lane, bool pinned);
    bool lanePinned(int lane) const;
    const std::vector<int>& pinnedLanes() const { return m_pinned; }
    void setAllCollapsed(bool collapsed);
    int laneAt(QPoint pos) const; // the trace lane whose header or rows are under pos; -1 when none
    QMenu* createLaneMenu(int lane, QWidget* parent); // collapse, pin, collapse all (caller owns it)
    int laneTop(int lane) const; // widget y of a trace lane's top, pinned or scrolled
    int laneRowsShown(int lane) const; // its rows, or 1 when collapsed
    QScrollBar* verticalScrollBar() const { return m_vbar; } // scrolls the lanes that are not pinned
    // Memory counter tracks (ui/timeline/timeline_counters.cpp). A finding about memory selects its peak: the track
    // scrolls into view, the view zooms around the sample and a marker with its value is drawn on it.
    struct CounterRef
    {
        int series = -1; // index into trace()->counters
        size_t sample = 0; // index into its samples
        bool operator==(const CounterRef&) const = default;
    };
    std::optional<CounterRef> selectedCounter() const { return m_counterMark; }
    void selectCounterSample(const CounterRef& ref);
    // The sample where a series peaks (the larger of allocated and reserved; the first such sample).
    static size_t counterPeak(const CounterSeries& series);
    // Selects the peak of the track whose peak is nearest in time to nearNs (the time a finding names); false
    // when the trace has no memory counters.
    bool selectCounterPeak(int64_t nearNs);
    int counterTop(int series) const; // widget y of a counter track's top (after scrolling)
    // The main ruler's ticks: x in the view's pixels and the label, time after the trace's first event.
    std::vector<std::pair<double, QString>> rulerTicks() const;
    // Stats of the last paint, for the bench and tests.
    size_t lastDrawItemCount() const { return m_lastDrawItems; }
    // Flow lines of the last paint: a framework op with many launches draws one per launched name, not one per launch.
    size_t lastFlowLineCount() const { return m_lastFlowLines; }
    static constexpr size_t kMaxFlowLines = 32; // above this many launches, one flow per launched name
    static constexpr int kHeaderWidth = 220;
    static constexpr int kRulerHeight = 24;
    static constexpr int kRowHeight = 16;
    static constexpr int kCounterHeight = 48;
    static constexpr double kMinEventPx = 3.0;

signals:
    void eventSelected(QString description);
    void selectionChanged(); // selected, cleared, or a new trace
    void rangeSelected(QString summary);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void createActions();
    void clampView(); // after a pan or zoom: the view stays within the trace
    double plotWidth() const;
    int contentHeight() const;
    std::optional<EventRef> hitTest(QPoint pos) const;
    void drawRuler(QPainter& painter);
    void drawCounters(QPainter& painter, int& y);
    void drawCounterMark(QPainter& painter, const CounterSeries& series, int y);
    void drawFlow(QPainter& painter);
    int predictedHeight() const;
    int laneHeight(int lane) const { return laneRowsShown(lane) * kRowHeight + 6; }
    int pinnedHeight() const; // the band of pinned lanes under the ruler
    int scrolledTop() const;
    int rowTop(const EventRef& ref) const; // a collapsed lane draws every row's events on its one row       // widget y
                                           // where the scrolling content (predicted lanes, other lanes) starts
    void drawTraceLane(QPainter& painter, int laneIndex, int y);
    void drawLaneHeader(QPainter& painter, const Lane& lane, int y, int height, int laneIndex);
    void fitPredictedAxis();
    QColor predictedTint() const;
    QString predictedTooltip(QPoint pos) const; // empty when pos is not on a predicted span
    int64_t originNs() const { return m_trace ? m_trace->firstNs : 0; }
    bool overPredicted(QPoint pos) const;
    void drawRow(QPainter& painter, const LaneRow& row, const std::vector<std::string>& names, int rowY,
        const TimeAxis& axis, bool measured);
    void drawPredictedRuler(QPainter& painter, int y);
    void drawCriticalPath(QPainter& painter);
    QString criticalPathTooltip(QPoint pos) const; // empty when pos is not on the strip
    static QString criticalPathLabel(); // the strip's name in the header column
public:
    // A memory counter's values at the time under pos (allocated, reserved); empty when pos is not on a counter.
    QString counterTooltip(QPoint pos) const;

private:
    QString describe(const EventRef& ref) const;
    void updateScrollBar();

    std::shared_ptr<const LoadedTrace> m_trace;
    std::shared_ptr<const PredictedLanes> m_predicted;
    TimeAxis m_axis;
    TimeAxis m_predictedAxis;
    QScrollBar* m_vbar = nullptr;
    std::vector<DrawItem> m_items; // reused between paints
    size_t m_lastDrawItems = 0;
    size_t m_lastFlowLines = 0;
    std::optional<EventRef> m_selected;
    std::optional<CounterRef> m_counterMark; // a memory sample marked on its counter track
    std::vector<uint8_t> m_collapsed; // per trace lane
    std::vector<int> m_pinned; // trace lanes pinned to the top, in pinning order
    std::vector<std::pair<EventRef, EventRef>> m_flows; // launches of the selected framework op, drawn as flows
    std::vector<EventRef> m_linked; // their device events, outlined
    std::vector<CriticalSpan> m_criticalPath; // sorted by start, disjoint
    std::optional<uint32_t> m_highlightName; // instances of a table's row, outlined (full or short)
    QList<QAction*> m_actions;
    std::optional<double> m_mouseX; // over the plot, for W/S zoom at the mouse
    bool m_wheelZooms = false;
    std::optional<QPoint> m_dragFrom; // the pan's anchor: where the mouse was at the last move
    QPoint m_pressPos; // where the button went down: a release near it without a drag between is a click
    bool m_dragMoved = false; // the mouse left the click slack since the press
    static constexpr int kClickSlackPx = 4;
    bool m_rangeDrag = false;
    bool m_dragPredicted = false; // the drag pans the predicted lanes' axis
    int64_t m_rangeStartNs = 0, m_rangeEndNs = 0;
    bool m_hasRange = false;
    QString m_rangeWhat;
};

} // namespace placescope::ui
