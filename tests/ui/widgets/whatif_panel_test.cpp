// SPDX-License-Identifier: MIT
// The What-if panel: it shows runWhatIf's figures for the edits its controls stand for (one code path with
// `placescope whatif`), undo/redo of the edit set, a malformed edit reported without a run, the predicted-lanes
// view, and Ctrl+Z routed to the panel's edit set inside the main window.
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/placement/step_time_chart.h"
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"
#include "ui/whatif/whatif_lane_rows.h"
#include "ui/whatif/whatif_lanes_view.h"
#include "ui/whatif/whatif_panel.h"
#include "ui/whatif/whatif_session.h"
#include "ui/window/main_window.h"
#include "whatif/whatif.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtTest>

#include <memory>
#include <optional>

using namespace placescope;
using namespace placescope::ui;

namespace {

// runWhatIf on the trace file, exactly as `placescope whatif FILE --edit E...` does it.
struct Expected
{
    WhatIfResult result;
    std::string text;
};

std::optional<Expected> expectedFor(const QString& path, const std::vector<std::string>& edits)
{
    auto db = openTrace(path.toStdString());
    if (!db.isOk())
        return std::nullopt;
    auto trace = TraceData::load(*db);
    if (!trace.isOk())
        return std::nullopt;
    WhatIfOptions options;
    for (const std::string& text : edits) {
        auto edit = parseEdit(text);
        if (!edit.isOk())
            return std::nullopt;
        options.edits.push_back(std::move(edit).value());
    }
    auto result = runWhatIf(*trace, detectSteps(*trace), options);
    if (!result.isOk())
        return std::nullopt;
    Expected expected { std::move(result).value(), {} };
    expected.text = whatIfText(expected.result, *trace);
    return expected;
}

int64_t shownNs(const StepTimeChart::Entry& entry) { return qRound64(entry.us * 1e3); }

// The panel shows runWhatIf's step figures for `edits`: bars, summary line, edit outcomes and the CLI's report.
void verifyShows(const WhatIfPanel& panel, const QString& trace, const std::vector<std::string>& edits)
{
    auto expected = expectedFor(trace, edits);
    QVERIFY(expected);
    const WhatIfResult& r = expected->result;
    auto run = panel.session()->run();
    QVERIFY(run);
    QCOMPARE(run->edits, edits);
    const auto& bars = panel.chart()->entries();
    QCOMPARE(bars.size(), size_t(3));
    QCOMPARE(shownNs(bars[0]), r.measured.stepNs);
    QCOMPARE(shownNs(bars[1]), r.replay.stepNs);
    QCOMPARE(shownNs(bars[2]), r.predicted.stepNs);
    QVERIFY2(bars[1].label.contains(QString::number(100.0 * r.replayStepError(), 'f', 2)), qPrintable(bars[1].label));
    const QString figures = panel.figuresLabel()->text();
    // The saving in the CLI's own words (the line `placescope whatif` prints).
    QString saving = QString::fromStdString(stepSavingText(r)).toHtmlEscaped();
    saving[0] = saving[0].toUpper();
    QVERIFY2(figures.contains(saving), qPrintable(figures));
    QVERIFY(QString::fromStdString(expected->text).contains(QString::fromStdString(stepSavingText(r))));
    QVERIFY2(
        figures.contains("predicted " + formatDuration(static_cast<double>(r.predicted.stepNs))), qPrintable(figures));
    // What set each step figure (the one step rule), as the CLI says it.
    QVERIFY2(figures.contains("(replay; step " + QString::fromStdString(r.predicted.steps.how()) + ")"),
        qPrintable(figures));
    QCOMPARE(panel.outcomeTable()->rowCount(), static_cast<int>(r.edits.size()));
    for (size_t i = 0; i < r.edits.size(); ++i) {
        QCOMPARE(panel.outcomeTable()->item(static_cast<int>(i), 0)->text(), QString::fromStdString(r.edits[i].text));
        QCOMPARE(panel.outcomeTable()->item(static_cast<int>(i), 1)->text().toLongLong(), r.edits[i].matched);
    }
    QCOMPARE(panel.reportText()->toPlainText(), QString::fromStdString(expected->text));
}

void commit(QLineEdit* edit, const QString& text)
{
    edit->setText(text);
    emit edit->editingFinished();
}

} // namespace

class WhatIfPanelTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_trace;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_whatif_panel_test");
        QVERIFY(m_dir.isValid());
        m_trace = m_dir.filePath("resnet50.sqlite");
        auto imported = importTraces(
            { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" },
            m_trace.toStdString(), ImportOptions {});
        QVERIFY2(imported.isOk(), imported.isOk() ? "" : imported.status().message().c_str());
    }

    void controlsBecomeTheCliEditTexts()
    {
        WhatIfControls c;
        QVERIFY(editTexts(c).empty());
        c.noSync = true;
        c.noSyncRegex = "cudaStreamSynchronize";
        c.kernelsRegex = "gemm";
        c.kernelsFactor = 0.25;
        c.dropRegex = "elementwise";
        c.pinned = true;
        c.launchFactor = 0.1;
        c.inputFactor = 2;
        c.loaderWorkers = 4;
        c.overlapComm = true;
        c.extraEdit = "  no-sync ";
        const std::vector<std::string> expected { "no-sync:cudaStreamSynchronize", "kernels:gemm=x0.25",
            "drop:elementwise", "pinned", "launch=x0.1", "input=x2", "workers=4", "overlap-comm", "no-sync" };
        QCOMPARE(editTexts(c), expected);
        for (const std::string& text : expected)
            QVERIFY2(parseEdit(text).isOk(), text.c_str());
        // Back from edit texts (--whatif on the command line): every field, and what has none goes to the extra edit.
        const std::vector<std::string> fromCli { "no-sync:cudaStreamSynchronize", "kernels:gemm=x0.25",
            "drop:elementwise", "pinned", "launch=x0.1", "input=x2", "workers=4", "overlap-comm", "kernels:gemm=fast" };
        QCOMPARE(editTexts(controlsFor(fromCli)), fromCli);
        QCOMPARE(controlsFor(fromCli).extraEdit, QString("kernels:gemm=fast"));
    }

    void anotherTraceStartsWithoutTheEdits()
    {
        // Edits belong to the trace they were made on: opening another one clears them and their history, so its
        // figures are its own; reopening the same trace keeps them.
        WhatIfSession session;
        WhatIfPanel panel(&session);
        session.setTrace(m_trace);
        WhatIfControls pinned;
        pinned.pinned = true;
        session.setControls(pinned);
        QVERIFY(session.controls() == pinned);
        session.setTrace(m_trace);
        QVERIFY(session.controls() == pinned);
        const QString other = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
        session.setTrace(other);
        QVERIFY(session.controls() == WhatIfControls {});
        QCOMPARE(session.undoStack()->count(), 0);
        QVERIFY(!panel.pinnedBox()->isChecked());
    }

    void panelShowsRunWhatIfFiguresAndUndoRestoresThem()
    {
        WhatIfSession session;
        WhatIfPanel panel(&session);
        panel.resize(1300, 520);
        session.setTrace(m_trace);
        QVERIFY(!session.active());
        panel.show(); // the first show loads the trace
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        verifyShows(panel, m_trace, {});
        QCOMPARE(panel.chart()->entries()[2].us, panel.chart()->entries()[1].us); // no edit: predicted = replay

        commit(panel.kernelsRegexEdit(), ".");
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        verifyShows(panel, m_trace, { "kernels:.=x0.5" });
        const auto halved = session.run();
        panel.launchFactorBox()->setValue(0.1);
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        verifyShows(panel, m_trace, { "kernels:.=x0.5", "launch=x0.1" });
        QVERIFY(session.run()->result.predicted.stepNs < session.run()->result.replay.stepNs);
        QCOMPARE(session.undoStack()->count(), 2);

        // Undo: the previous edit set, in the controls and in the figures; redo brings the launch edit back.
        session.undoStack()->undo();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        QCOMPARE(panel.launchFactorBox()->value(), 1.0);
        QCOMPARE(panel.kernelsRegexEdit()->text(), QString("."));
        QCOMPARE(session.controls(), halved->controls);
        verifyShows(panel, m_trace, { "kernels:.=x0.5" });
        QCOMPARE(shownNs(panel.chart()->entries()[2]), halved->result.predicted.stepNs);
        session.undoStack()->redo();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        QCOMPARE(panel.launchFactorBox()->value(), 0.1);
        verifyShows(panel, m_trace, { "kernels:.=x0.5", "launch=x0.1" });
        QCOMPARE(session.undoStack()->count(), 2); // undo and redo added no entries

        // The critical path table ends with the path's length before and after.
        QTableWidget* path = panel.pathTable();
        QVERIFY(path->rowCount() >= 2);
        QCOMPARE(path->item(path->rowCount() - 1, 1)->text(),
            formatDuration(static_cast<double>(session.run()->result.replayPath.lengthNs())));
    }

    // The DataLoader workers box is the CLI's workers=N edit, with the CLI's figures, on a real CPU run with
    // num_workers=0 (tests/data/traces/cpu_loader_worker_before.json.gz).
    void loaderWorkersBoxIsTheWorkersEdit()
    {
        const QString trace = m_dir.filePath("cpu_loader.sqlite");
        auto imported = importTraces(
            { std::string(PLACESCOPE_DATA_DIR) + "/traces/cpu_loader_worker_before.json.gz" }, trace.toStdString(), {});
        QVERIFY2(imported.isOk(), imported.isOk() ? "" : imported.status().message().c_str());
        WhatIfSession session;
        WhatIfPanel panel(&session);
        session.setTrace(trace);
        panel.show();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        QCOMPARE(panel.loaderWorkersBox()->text(), QString("as measured"));
        panel.loaderWorkersBox()->setValue(1);
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        verifyShows(panel, trace, { "workers=1" });
        QCOMPARE(session.run()->result.edits[0].matched, 8);
        QVERIFY(session.run()->result.predicted.stepNs < session.run()->result.replay.stepNs * 3 / 4);
        // The worker's lane is the edit's: it loads the 8 batches in the prediction and had no work in the run.
        const WhatIfLaneRow* worker = nullptr;
        for (const WhatIfLaneRow& lane : session.run()->rows.lanes)
            if (lane.label.find("DataLoader worker 0") != std::string::npos)
                worker = &lane;
        QVERIFY(worker);
        QCOMPARE(worker->measured.events.size(), size_t { 0 });
        QCOMPARE(worker->measured.dropped.size(), size_t { 0 });
        QCOMPARE(worker->predicted.events.size(), size_t { 8 });
    }

    void aMalformedEditShowsItsErrorAndRunsNothing()
    {
        WhatIfSession session;
        WhatIfPanel panel(&session);
        session.setTrace(m_trace);
        panel.show();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        commit(panel.kernelsRegexEdit(), "conv");
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        const auto good = session.run();
        const int64_t shown = shownNs(panel.chart()->entries()[2]);

        commit(panel.dropRegexEdit(), "(unclosed");
        QVERIFY(!session.busy());
        QVERIFY(panel.errorLabel()->isVisibleTo(&panel));
        QVERIFY2(
            panel.errorLabel()->text().contains("is not a regular expression"), qPrintable(panel.errorLabel()->text()));
        QCOMPARE(session.run(), good); // the last good figures stay
        QCOMPARE(shownNs(panel.chart()->entries()[2]), shown);
        QVERIFY(!session.waitForRun(100));

        // Undo takes the bad regex back and runs the good set again; a bad free-text edit is reported the same way.
        session.undoStack()->undo();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        QVERIFY(!panel.errorLabel()->isVisibleTo(&panel));
        QCOMPARE(panel.dropRegexEdit()->text(), QString());
        commit(panel.extraEdit(), "faster-please");
        QVERIFY(panel.errorLabel()->isVisibleTo(&panel));
        QVERIFY2(panel.errorLabel()->text().contains("is not an edit"), qPrintable(panel.errorLabel()->text()));
        session.undoStack()->undo();
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        QVERIFY(!panel.errorLabel()->isVisibleTo(&panel));
        verifyShows(panel, m_trace, { "kernels:conv=x0.5" });
    }

    void lanesViewDrawsMeasuredAndPredictedSpansWithTheCriticalPath()
    {
        WhatIfSession session;
        WhatIfPanel panel(&session);
        panel.resize(1300, 600);
        session.setTrace(m_trace);
        panel.show();
        commit(panel.dropRegexEdit(), "cudnn");
        QVERIFY2(session.waitForRun(120000), qPrintable(session.lastError()));
        const auto run = session.run();
        const WhatIfLaneRows& rows = run->rows;
        QVERIFY(!rows.lanes.empty());
        QVERIFY(rows.endNs > rows.startNs);
        size_t measured = 0, predicted = 0, dropped = 0, critical = 0;
        for (const WhatIfLaneRow& lane : rows.lanes) {
            // Timeline rows (LaneRow): sorted by start, one critical flag per event, names from the run's table.
            for (const WhatIfSpanRow* row : { &lane.measured, &lane.predicted }) {
                for (size_t i = 1; i < row->events.size(); ++i)
                    QVERIFY(row->events.startNs[i - 1] <= row->events.startNs[i]);
                QCOMPARE(row->critical.size(), row->events.size());
                for (size_t i = 0; i < row->events.size(); ++i)
                    QVERIFY(row->events.nameIndex[i] < rows.names.size());
            }
            QCOMPARE(lane.predicted.dropped.size(), size_t { 0 });
            measured += lane.measured.events.size() + lane.measured.dropped.size();
            predicted += lane.predicted.events.size();
            dropped += lane.measured.dropped.size();
            for (uint8_t onPath : lane.predicted.critical)
                critical += onPath;
        }
        // Every task has its measured span; the ones the edit dropped have no predicted one.
        QCOMPARE(measured, run->result.predictedGraph.tasks.size());
        QVERIFY(dropped > 0);
        QCOMPARE(predicted + dropped, measured);
        QVERIFY(critical > 0);
        // A kernel keeps its name's colour: the same task name is one name index on both rows.
        const WhatIfLaneRow* gpu = nullptr;
        for (const WhatIfLaneRow& lane : rows.lanes)
            if (lane.gpu && lane.predicted.events.size() > 0)
                gpu = &lane;
        QVERIFY(gpu);
        const uint32_t task = gpu->predicted.events.sourceRow[0];
        for (size_t i = 0; i < gpu->measured.events.size(); ++i)
            if (gpu->measured.events.sourceRow[i] == task)
                QCOMPARE(gpu->measured.events.nameIndex[i], gpu->predicted.events.nameIndex[0]);

        panel.tabs()->setCurrentIndex(0);
        WhatIfLanesView* view = panel.lanesView();
        view->repaint();
        QVERIFY(view->lastDrawCount() > 0);
        QVERIFY(view->lastCriticalCount() > 0);
        // Folding: the whole trace on a few hundred pixels draws far fewer rectangles than it has spans.
        QVERIFY2(view->lastDrawCount() < static_cast<int>(measured + predicted) / 4,
            qPrintable(QString("%1 rects for %2 spans").arg(view->lastDrawCount()).arg(measured + predicted)));
        // Zoom in: still draws, on a narrower window.
        const int64_t before = view->viewEndNs() - view->viewStartNs();
        QWheelEvent wheel(QPointF(view->width() / 2.0, 40), view->mapToGlobal(QPointF(view->width() / 2.0, 40)),
            QPoint(), QPoint(0, 600), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(view, &wheel);
        QVERIFY(view->viewEndNs() - view->viewStartNs() < before / 2);
        view->repaint();
        QVERIFY(view->lastDrawCount() > 0);
    }

    void ctrlZInThePanelUndoesTheEditSet()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.openFile(m_trace);
        QVERIFY2(window.waitForOpen(120000), qPrintable(window.lastError()));
        WhatIfSession* session = window.whatIfSession();
        QCOMPARE(session->tracePath(), m_trace);
        window.findChild<QDockWidget*>("dock_whatif")->raise();
        QVERIFY(waitUntil([&] { return session->active(); }, 5000));
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));
        WhatIfPanel* panel = window.whatIfPanel();

        // Focus in the panel: Edit > Undo works on the what-if stack.
        QCheckBox* pinned = panel->pinnedBox();
        pinned->setFocus();
        QVERIFY(waitUntil([&] { return window.undoGroup()->activeStack() == session->undoStack(); }, 5000));
        pinned->setChecked(true);
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));
        QCOMPARE(session->run()->edits, std::vector<std::string> { "pinned" });
        QTest::keyClick(pinned, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!pinned->isChecked());
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));
        QVERIFY(session->run()->edits.empty());
        QTest::keyClick(pinned, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(pinned->isChecked());
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));

        // In a regex field with nothing typed since the run, Ctrl+Z is the edit set's too.
        QLineEdit* drop = panel->dropRegexEdit();
        drop->setFocus();
        commit(drop, "cudnn");
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));
        QTest::keyClick(drop, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(drop->text(), QString());
        QCOMPARE(session->controls().dropRegex, QString());
        QVERIFY(session->controls().pinned);
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));

        // The replay's critical path is drawn under the main timeline's ruler: its spans are the path's segments.
        {
            const auto& spans = window.timeline()->criticalPath();
            const CriticalPath& path = session->run()->result.replayPath;
            QCOMPARE(spans.size(), path.segments.size());
            QVERIFY(!spans.empty());
            int64_t total = 0;
            for (const auto& span : spans)
                total += span.endNs - span.startNs;
            QCOMPARE(total, path.lengthNs());
        }

        // The Ops table's "run on the CPU" becomes the CLI's op edit in the panel, as one more undo step.
        const std::string op = window.opSummaryModel()->rowCount() > 0
            ? window.opSummaryModel()->index(0, 0).data().toString().toStdString()
            : std::string("aten::add_");
        window.whatIfMoveOp(QString::fromStdString(op), "cpu");
        QCOMPARE(session->controls().extraEdit, QString::fromStdString("op:" + op + "=cpu"));
        QVERIFY2(session->waitForRun(120000), qPrintable(session->lastError()));
        QCOMPARE(session->run()->edits.back(), "op:" + op + "=cpu");
        QCOMPARE(session->run()->result.edits.back().text, "op:" + op + "=cpu");
        session->undoStack()->undo();
        QCOMPARE(session->controls().extraEdit, QString());

        // Focus outside the panel: back to the placement stack.
        window.timeline()->setFocus();
        QVERIFY(waitUntil([&] { return window.undoGroup()->activeStack() != session->undoStack(); }, 5000));
    }
};

QTEST_MAIN(WhatIfPanelTest)
#include "whatif_panel_test.moc"
