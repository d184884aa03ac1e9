// SPDX-License-Identifier: MIT
// The timeline under the mouse and keys as in Perfetto and Nsight Systems (issue 26), on the real main window,
// offscreen: a drag pans and keeps the selection (only a click without movement selects), panning stops at the
// trace's edges, a wider window shows the same time wider, no two actions share a key, and a step's thousands of
// launches draw one flow per launched name.
#include "profiler/base/units.h"
#include "ui/core/lane_folding.h"
#include "ui/jobs/wait_until.h"
#include "ui/timeline/row_painter.h"
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QAction>
#include <QMap>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QToolTip>
#include <QtTest>

#include <optional>
#include <set>

using namespace placescope::ui;

namespace {

const QString kNsysTrace = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
const QString kAlexNet = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";

// A mouse move with the left button held, as a drag delivers it.
void dragTo(QWidget* widget, QPoint to)
{
    QMouseEvent move(
        QEvent::MouseMove, QPointF(to), widget->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
}

// The middle of an event on screen.
QPoint pointOn(const TimelineView& timeline, const TimelineView::EventRef& ref)
{
    const LaneRow& row = timeline.rowOf(ref);
    const int64_t middle = (row.startNs[ref.index] + row.endNs[ref.index]) / 2;
    return { TimelineView::kHeaderWidth + static_cast<int>(timeline.axis().xForTime(middle)),
        timeline.laneTop(ref.lane) + ref.row * TimelineView::kRowHeight + TimelineView::kRowHeight / 2 };
}

double plotWidth(const TimelineView& timeline)
{
    return timeline.width() - TimelineView::kHeaderWidth - timeline.verticalScrollBar()->width();
}

} // namespace

class TimelineMouseTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_timeline_mouse_test");
    }

    void init()
    {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1200, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        const bool alexNet = QTest::currentTestFunction() == QString("aLargeOpDrawsOneFlowPerLaunchedName");
        m_window->openFile(alexNet ? kAlexNet : kNsysTrace);
        QVERIFY2(m_window->waitForOpen(120000), qPrintable(m_window->lastError()));
    }
    void cleanup() { m_window.reset(); }

    void aDragPansAndKeepsTheSelectionOnlyAClickSelects()
    {
        TimelineView* timeline = m_window->timeline();
        QVERIFY(timeline->findNext("cudaMemcpy", true));
        const TimelineView::EventRef selected = *timeline->selectedEvent();
        timeline->frameSelection(); // the event fills the middle of the view
        const LaneRow& row = timeline->rowOf(selected);
        const int64_t middle = (row.startNs[selected.index] + row.endNs[selected.index]) / 2;
        const QPoint onEvent(TimelineView::kHeaderWidth + static_cast<int>(timeline->axis().xForTime(middle)),
            timeline->laneTop(selected.lane) + selected.row * TimelineView::kRowHeight + TimelineView::kRowHeight / 2);
        QVERIFY(timeline->rect().contains(onEvent));

        // A drag in small steps (each below the click slack) that ends over an event: the view pans by the drag,
        // the selection stays and no selection signal fires.
        QSignalSpy selections(timeline, &TimelineView::selectionChanged);
        const int64_t start = timeline->axis().viewStartNs();
        const double nsPerPixel = timeline->axis().nsPerPixel();
        QTest::mousePress(timeline, Qt::LeftButton, {}, onEvent);
        QPoint at = onEvent;
        for (int step = 0; step < 20; ++step) {
            at += QPoint(3, 0);
            dragTo(timeline, at);
        }
        QTest::mouseRelease(timeline, Qt::LeftButton, {}, at);
        QCOMPARE(selections.count(), 0);
        QVERIFY(timeline->selectedEvent() && *timeline->selectedEvent() == selected);
        QVERIFY2(
            std::abs(static_cast<double>(start - timeline->axis().viewStartNs()) - 60 * nsPerPixel) <= nsPerPixel * 2,
            "dragged 60 px right: the view starts 60 px earlier");

        // A drag that comes back to where it began is still a drag.
        const int64_t panned = timeline->axis().viewStartNs();
        QTest::mousePress(timeline, Qt::LeftButton, {}, at);
        dragTo(timeline, at + QPoint(30, 0));
        dragTo(timeline, at);
        QTest::mouseRelease(timeline, Qt::LeftButton, {}, at);
        QCOMPARE(selections.count(), 0);
        QVERIFY(std::abs(timeline->axis().viewStartNs() - panned) <= nsPerPixel);

        // A click without movement selects the event under it; the view does not move.
        timeline->clearSelection();
        selections.clear();
        QVERIFY(!timeline->selectedEvent());
        const QPoint onIt(
            TimelineView::kHeaderWidth + static_cast<int>(timeline->axis().xForTime(middle)), onEvent.y());
        QTest::mouseClick(timeline, Qt::LeftButton, {}, onIt);
        QVERIFY(timeline->selectedEvent());
        QCOMPARE(*timeline->selectedEvent(), selected);
        QCOMPARE(selections.count(), 1);
        QCOMPARE(timeline->axis().viewStartNs(), panned);
    }

    void panningStopsAtTheTracesEdges()
    {
        TimelineView* timeline = m_window->timeline();
        const LoadedTrace* trace = timeline->trace();
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs); // fitted
        // Fitted, nothing to pan to: A, D, a drag and Shift+wheel leave it.
        QTest::keyClick(m_window.get(), Qt::Key_A);
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs);
        const QPoint mid(TimelineView::kHeaderWidth + 300, 200);
        QTest::mousePress(timeline, Qt::LeftButton, {}, mid);
        dragTo(timeline, mid + QPoint(200, 0));
        QTest::mouseRelease(timeline, Qt::LeftButton, {}, mid + QPoint(200, 0));
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs);
        // Zoomed in, D walks right until the view's end meets the trace's end, never past it.
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(m_window.get(), Qt::Key_W);
        for (int i = 0; i < 200; ++i)
            QTest::keyClick(m_window.get(), Qt::Key_D);
        const int64_t end = timeline->axis().viewEndNs(plotWidth(*timeline));
        QVERIFY2(end <= trace->lastNs && end >= trace->lastNs - 2 * timeline->axis().nsPerPixel(),
            qPrintable(QString("view ends at %1, trace at %2").arg(end).arg(trace->lastNs)));
        for (int i = 0; i < 200; ++i)
            QTest::keyClick(m_window.get(), Qt::Key_A);
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs);
        QWheelEvent shiftWheel(mid, timeline->mapToGlobal(mid), QPoint(), QPoint(0, 2400), Qt::NoButton,
            Qt::ShiftModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(timeline, &shiftWheel);
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs);
    }

    void aWiderWindowShowsTheSameTimeWider()
    {
        TimelineView* timeline = m_window->timeline();
        QTest::keyClick(m_window.get(), Qt::Key_W);
        QTest::keyClick(m_window.get(), Qt::Key_D);
        const int64_t start = timeline->axis().viewStartNs();
        const int64_t end = timeline->axis().viewEndNs(plotWidth(*timeline));
        const int oldWidth = timeline->width();
        m_window->resize(1800, 900);
        QVERIFY(waitUntil([&] { return timeline->width() > oldWidth; }, 10000));
        QCOMPARE(timeline->axis().viewStartNs(), start);
        const int64_t wideEnd = timeline->axis().viewEndNs(plotWidth(*timeline));
        QVERIFY2(std::abs(wideEnd - end) <= 2 * timeline->axis().nsPerPixel() + 1,
            qPrintable(QString("ended at %1, now %2").arg(end).arg(wideEnd)));
    }

    void rulerLabelsReadInTheValuesUnit()
    {
        // Zoomed to a few ms deep in the trace, ticks read "346.5 ms" (the one units formatter), never "346500 us".
        TimelineView* timeline = m_window->timeline();
        const LoadedTrace* trace = timeline->trace();
        const int64_t middle = trace->firstNs + (trace->lastNs - trace->firstNs) * 3 / 4;
        QVERIFY(middle - trace->firstNs > 10'000'000); // deep enough for a tick far past its step
        timeline->showRange(middle, middle + 2'000'000);
        const auto ticks = timeline->rulerTicks();
        QVERIFY(ticks.size() >= 3);
        const QRegularExpression label("^-?(\\d{1,3})(\\.\\d+)? (ns|us|ms|s)$");
        QSet<QString> seen;
        for (const auto& [x, text] : ticks) {
            QVERIFY2(label.match(text).hasMatch(), qPrintable(text)); // at most three digits before the point
            seen.insert(text);
        }
        QCOMPARE(seen.size(), static_cast<qsizetype>(ticks.size())); // ticks read apart
        // A maximized window keeps a fitted view fitted: the whole trace, wider.
        timeline->zoomToFit();
        const int oldWidth = timeline->width();
        m_window->showMaximized();
        m_window->resize(1900, 1000); // offscreen has no window manager to maximize: its size, as one would
        QVERIFY(waitUntil([&] { return timeline->width() > oldWidth; }, 10000));
        QCOMPARE(timeline->axis().viewStartNs(), trace->firstNs);
        QVERIFY(std::abs(timeline->axis().viewEndNs(plotWidth(*timeline)) - trace->lastNs)
            <= 2 * timeline->axis().nsPerPixel() + 1);
    }

    void foldedBlocksAreShadedByHowBusyTheyAre()
    {
        // At whole-trace zoom ('0') the GPU stream folds into blocks; each is drawn as opaque as its events cover it,
        // so a block its kernels cover 57 % of reads lighter than a solid one (Nsight's utilization row).
        TimelineView* timeline = m_window->timeline();
        QTest::keyClick(m_window.get(), Qt::Key_0);
        const LoadedTrace* trace = timeline->trace();
        int gpuLane = -1;
        for (size_t l = 0; l < trace->lanes.size() && gpuLane < 0; ++l)
            if (trace->lanes[l].group == Lane::Group::Device && !trace->lanes[l].rows.empty())
                gpuLane = static_cast<int>(l);
        QVERIFY(gpuLane >= 0);
        const LaneRow& row = trace->lanes[static_cast<size_t>(gpuLane)].rows.front();
        std::vector<DrawItem> items;
        foldVisible(row, timeline->axis(), plotWidth(*timeline), TimelineView::kMinEventPx, items);
        const QImage image = timeline->grab().toImage();
        const QColor background = timeline->palette().color(QPalette::Base);
        int partlyBusy = 0;
        for (const DrawItem& item : items) {
            const double x0 = TimelineView::kHeaderWidth + timeline->axis().xForTime(item.startNs);
            const double x1 = TimelineView::kHeaderWidth + timeline->axis().xForTime(item.endNs);
            if (item.count < 2 || x1 - x0 < 3)
                continue;
            const double opacity = foldedBlockOpacity(item);
            const QColor full = eventColor(row.kind[item.firstIndex], row.nameIndex[item.firstIndex]).darker(135);
            const QPoint at(static_cast<int>((x0 + x1) / 2), timeline->laneTop(gpuLane) + TimelineView::kRowHeight / 2);
            const QColor shown = image.pixelColor(at * image.devicePixelRatio());
            auto expected = [&](int c, int b) { return b + (c - b) * opacity; };
            QVERIFY2(std::abs(shown.red() - expected(full.red(), background.red())) <= 8
                    && std::abs(shown.green() - expected(full.green(), background.green())) <= 8
                    && std::abs(shown.blue() - expected(full.blue(), background.blue())) <= 8,
                qPrintable(
                    QString("block at x %1, %2 % busy: shown %3, full %4")
                        .arg(at.x())
                        .arg(100.0 * static_cast<double>(item.totalNs) / static_cast<double>(item.endNs - item.startNs))
                        .arg(shown.name(), full.name())));
            if (opacity < 0.2 + 0.8 * 0.7)
                ++partlyBusy;
        }
        QVERIFY2(partlyBusy > 0, "no folded block under 70 % busy at whole-trace zoom"); // one that once read as solid
    }

    void noTwoActionsShareAKeyAndQuestionMarkListsThem()
    {
        // Two actions (or two sequences of one) matching one key press make Qt drop it as ambiguous.
        QMap<QString, QString> owner;
        for (QAction* action : m_window->findChildren<QAction*>()) {
            if (!action->isEnabled())
                continue;
            for (const QKeySequence& keys : action->shortcuts()) {
                const QString name = keys.toString();
                QVERIFY2(!owner.contains(name),
                    qPrintable(name + " is on '" + owner.value(name) + "' and '" + action->text() + "'"));
                owner.insert(name, action->text());
            }
        }
        QVERIFY(!owner.contains(QKeySequence(Qt::SHIFT | Qt::Key_Slash).toString())); // '?' on X11 as well
        QTest::keyClick(m_window.get(), Qt::Key_Question);
        auto* list = m_window->timeline()->findChild<QWidget*>("timelineShortcuts");
        QVERIFY(list && list->isVisible());
    }

    void aLargeOpDrawsOneFlowPerLaunchedName()
    {
        // The longest outermost framework op (a profiler step) launches far more kernels than names.
        TimelineView* timeline = m_window->timeline();
        const LoadedTrace* trace = timeline->trace();
        std::optional<TimelineView::EventRef> step;
        int64_t longest = 0;
        for (size_t l = 0; l < trace->lanes.size(); ++l) {
            if (trace->lanes[l].rows.empty())
                continue;
            const LaneRow& top = trace->lanes[l].rows.front();
            for (size_t i = 0; i < top.size(); ++i)
                if (top.kind[i] == EventKind::FrameworkOp && top.durationNs(i) > longest) {
                    longest = top.durationNs(i);
                    step = TimelineView::EventRef { static_cast<int>(l), 0, static_cast<uint32_t>(i) };
                }
        }
        QVERIFY(step);
        const auto work = timeline->launchedWork(*step);
        QVERIFY2(work.size() > TimelineView::kMaxFlowLines, qPrintable(QString::number(work.size())));
        std::set<uint32_t> names;
        for (const auto& launch : work)
            names.insert(timeline->rowOf(launch.second).nameIndex[launch.second.index]);
        QVERIFY(names.size() < work.size());
        timeline->selectEvent(*step, true);
        timeline->zoomToFit();
        timeline->repaint();
        QCOMPARE(timeline->lastFlowLineCount(), names.size());
        QCOMPARE(timeline->linkedEvents().size(), work.size()); // every launch still outlined
        // The Details panel lists the launches by name, with counts.
        auto* details = m_window->findChild<QTextBrowser*>("eventDetails");
        QVERIFY(details);
        const QString text = details->toPlainText();
        const QString launched
            = QString("GPU work launched (%1)")
                  .arg(QString::fromStdString(placescope::withThousands(static_cast<int64_t>(work.size()))));
        QVERIFY2(text.contains(launched) && text.contains(QString("%1 names").arg(names.size())), qPrintable(text));
        QVERIFY2(text.contains(" launches, "), qPrintable(text)); // "name (count launches, total)"
    }

    void theHoverTooltipSaysWhatAndWhereNotRawColumns()
    {
        TimelineView* timeline = m_window->timeline();
        QVERIFY(timeline->findNext("cudaMemcpy", true));
        const TimelineView::EventRef ref = *timeline->selectedEvent();
        timeline->frameSelection();
        const QPoint at = pointOn(*timeline, ref);
        QHelpEvent hover(QEvent::ToolTip, at, timeline->mapToGlobal(at));
        QApplication::sendEvent(timeline, &hover);
        const QString tip = QToolTip::text();
        const LaneRow& row = timeline->rowOf(ref);
        QVERIFY2(
            tip.contains(QString::fromStdString(timeline->trace()->names[row.nameIndex[ref.index]])), qPrintable(tip));
        QVERIFY2(
            tip.contains(
                QString::fromStdString(timeline->trace()->lanes[static_cast<size_t>(ref.lane)].title).toHtmlEscaped()),
            qPrintable(tip));
        QVERIFY2(!tip.contains("global", Qt::CaseInsensitive) && !tip.contains("correlation", Qt::CaseInsensitive),
            qPrintable(tip));
        QToolTip::hideText();
    }

    void theCriticalPathStripIsNamed()
    {
        // The strip's label in the header column answers what the coloured line is; no strip, no label.
        TimelineView* timeline = m_window->timeline();
        const QPoint onLabel(TimelineView::kHeaderWidth - 30, TimelineView::kRulerHeight - 4);
        auto tipAt = [&](QPoint at) {
            QToolTip::hideText();
            QHelpEvent hover(QEvent::ToolTip, at, timeline->mapToGlobal(at));
            QApplication::sendEvent(timeline, &hover);
            return QToolTip::text();
        };
        timeline->setCriticalPath({});
        QVERIFY(!tipAt(onLabel).contains("critical path"));
        const int64_t first = timeline->trace()->firstNs;
        timeline->setCriticalPath({ { first, first + 1'000'000, "kernel" } });
        QCOMPARE(timeline->criticalPath().size(), size_t { 1 });
        const QString tip = tipAt(onLabel);
        QVERIFY2(tip.contains("critical path"), qPrintable(tip + " / " + QToolTip::text()));
        QToolTip::hideText();
    }

private:
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TimelineMouseTest)
#include "timeline_mouse_test.moc"
