// SPDX-License-Identifier: MIT
#include "placement/graph/model_graph.h"
#include "profiler/base/units.h"
#include "tests/ui/widgets/open_window.h"
#include "ui/graph/graph_layout.h"
#include "ui/graphview/graph_view.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/file_filters.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QGraphicsScene>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <set>
#include <vector>

using namespace placescope::ui;
using placescope::ModelGraph;
using placescope::ModelOp;
using placescope::ui::testing::showAndOpen;

namespace {
const QString kNsysTrace = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
const QString kResNetV100 = QString(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz";
} // namespace

class MainWindowTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_main_window_test");
    }

    void tableModelUnderTester()
    {
        TableModel model({ "Name", "Count", "Time" });
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({ { "b", 2, 1.5 }, { "a", 10, 0.5 }, { "c", 5 } }); // short row: padded with empty cells
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        proxy.sort(1);
        QCOMPARE(proxy.index(0, 0).data().toString(), QString("b"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QString("a")); // 10 > 5 > 2: numbers sort as numbers, not text
        QVERIFY(!model.index(2, 2).data().isValid());
        proxy.setFilterFixedString("a");
        proxy.setFilterKeyColumn(0);
        QCOMPARE(proxy.rowCount(), 1);
        model.setRows({});
        QCOMPARE(proxy.rowCount(), 0);
    }

    void opensTheNsysExportWithEveryPanel()
    {
        MainWindow window;
        QAbstractItemModelTester t1(window.kernelModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(window.copyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(window.problemModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(window.findingModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.resize(1400, 800);
        window.show();
        window.openFile(kNsysTrace);
        QVERIFY2(window.waitForOpen(60000), qPrintable(window.lastError()));
        const LoadedTrace* trace = window.timeline()->trace();
        QVERIFY(trace);
        // 4,639 events in the export: CUDA API calls and GPU activity (kernels + copies + memsets).
        QCOMPARE(trace->eventCount, uint64_t(4639));
        QVERIFY(trace->memoryBytes() / trace->eventCount < 64);
        QVERIFY(window.kernelModel()->rowCount() > 0);
        QVERIFY(window.copyModel()->rowCount() > 0);
        QVERIFY(window.findingModel()->rowCount() > 0);
        window.timeline()->repaint();
        QVERIFY(window.timeline()->lastDrawItemCount() > 0);

        // Selecting a finding shows its evidence: the view moves to the example's time range.
        const int64_t before = window.timeline()->axis().viewStartNs();
        const double scaleBefore = window.timeline()->axis().nsPerPixel();
        window.selectFinding(0);
        QVERIFY(
            window.timeline()->axis().viewStartNs() != before || window.timeline()->axis().nsPerPixel() != scaleBefore);
    }

    void searchSelectsMatchingEventsInTimeOrder()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace, { 1200, 700 }), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        QVERIFY(timeline->findNext("memcpy", true));
        auto first = timeline->selectedEvent();
        QVERIFY(first);
        const LaneRow& row1 = timeline->trace()->lanes[first->lane].rows[first->row];
        QVERIFY(QString::fromStdString(timeline->trace()->names[row1.nameIndex[first->index]])
                    .contains("memcpy", Qt::CaseInsensitive));
        QVERIFY(timeline->findNext("memcpy", true));
        auto second = timeline->selectedEvent();
        const LaneRow& row2 = timeline->trace()->lanes[second->lane].rows[second->row];
        QVERIFY(row2.startNs[second->index] >= row1.startNs[first->index]);
        QVERIFY(timeline->findNext("memcpy", false));
        QVERIFY(!timeline->findNext("no event is called this", true));
    }

    void wheelZoomKeepsTheTimeUnderTheCursor()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace, { 1200, 700 }), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        const QPoint at(TimelineView::kHeaderWidth + 300, 60);
        const int64_t before = timeline->axis().timeForX(300);
        QWheelEvent wheel(at, timeline->mapToGlobal(at), QPoint(), QPoint(0, 480), Qt::NoButton, Qt::ControlModifier,
            Qt::NoScrollPhase, false); // Perfetto: Ctrl+wheel zooms
        QApplication::sendEvent(timeline, &wheel);
        QVERIFY(std::abs(timeline->axis().timeForX(300) - before) <= timeline->axis().nsPerPixel() + 1);
        const double zoomed = timeline->axis().nsPerPixel();
        QTest::keyClick(timeline, Qt::Key_S);
        QVERIFY(timeline->axis().nsPerPixel() > zoomed);
        const int64_t start = timeline->axis().viewStartNs();
        QTest::keyClick(timeline, Qt::Key_D);
        QVERIFY(timeline->axis().viewStartNs() > start);
    }

    void shiftDragSelectsARangeWithASummary()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace, { 1200, 700 }), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        QSignalSpy spy(timeline, &TimelineView::rangeSelected);
        const int y = TimelineView::kRulerHeight + 5;
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(TimelineView::kHeaderWidth + 10, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(timeline->width() - 40, y),
            timeline->mapToGlobal(QPointF(timeline->width() - 40, y)), Qt::LeftButton, Qt::LeftButton,
            Qt::ShiftModifier);
        QApplication::sendEvent(timeline, &move);
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(timeline->width() - 40, y));
        QCOMPARE(spy.count(), 1);
        const QString summary = spy.at(0).at(0).toString();
        // Nearly the whole trace: thousands of events, device and host time both non-zero.
        QVERIFY2(summary.contains("events"), qPrintable(summary));
        const int count = summary.section(": ", 1).section(' ', 0, 0).toInt();
        QVERIFY2(count > 1000 && count <= 4639, qPrintable(summary));
        QVERIFY2(!summary.contains("device busy 0 ns"), qPrintable(summary));
    }

    void opensEveryRealTrace()
    {
        // Every profiler trace the open dialog's filter offers opens with events (TensorFlow/JAX XPlane, TensorBoard's
        // trace JSON and ONNX Runtime profiles among them); the PyTorch execution trace (*_et.json.gz, an op graph
        // source, not a timeline) is refused with a one-line error.
        const QDir dir(QString(PLACESCOPE_DATA_DIR) + "/traces");
        const QString filter = traceFileFilter().section(";;", 0, 0); // "Traces (*.sqlite *.json ...)"
        const QStringList patterns = filter.section('(', 1).chopped(1).split(' ', Qt::SkipEmptyParts);
        const auto files = dir.entryInfoList(patterns, QDir::Files);
        QVERIFY(files.size() >= 8);
        QVERIFY(std::any_of(
            files.begin(), files.end(), [](const QFileInfo& f) { return f.fileName().endsWith(".xplane.pb"); }));
        QVERIFY(std::any_of(
            files.begin(), files.end(), [](const QFileInfo& f) { return f.fileName().startsWith("ort130_"); }));
        QVERIFY(std::any_of(files.begin(), files.end(),
            [](const QFileInfo& f) { return f.fileName().endsWith(".trace.json.gz"); })); // TensorBoard's
        for (const QFileInfo& file : files) {
            MainWindow window;
            window.resize(1200, 700);
            window.show();
            window.openFile(file.absoluteFilePath());
            const bool ok = window.waitForOpen(120000);
            if (file.fileName().endsWith("_et.json.gz")) {
                QVERIFY2(!ok && !window.lastError().isEmpty() && !window.lastError().contains('\n'),
                    qPrintable(file.fileName()));
                continue;
            }
            QVERIFY2(ok, qPrintable(file.fileName() + ": " + window.lastError()));
            QVERIFY2(window.timeline()->trace()->eventCount > 0, qPrintable(file.fileName()));
            window.timeline()->repaint();
            QVERIFY2(window.timeline()->lastDrawItemCount() > 0, qPrintable(file.fileName()));
        }
    }

    void badInputIsAOneLineError()
    {
        QTemporaryDir temp;
        const QString path = temp.filePath("bad.sqlite");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a trace at all");
        f.close();
        MainWindow window;
        window.openFile(path);
        QVERIFY(!window.waitForOpen(30000));
        QVERIFY(!window.lastError().isEmpty());
        QVERIFY(!window.lastError().contains('\n'));
        QVERIFY(!window.timeline()->trace());
    }

    void everyModelIsLaidOut()
    {
        const QDir dir(QString(PLACESCOPE_DATA_DIR) + "/models");
        const auto files = dir.entryInfoList({ "*.onnx" }, QDir::Files);
        QVERIFY(files.size() >= 8);
        for (const QFileInfo& file : files) {
            GraphView view;
            view.openModel(file.absoluteFilePath());
            QVERIFY2(view.waitForLayout(120000), qPrintable(file.fileName() + ": " + view.lastError()));
            QVERIFY2(view.nodeCount() > 0, qPrintable(file.fileName()));
            QVERIFY(view.scene()->sceneRect().width() > 0);
        }
        GraphView bad;
        bad.openModel(QString(PLACESCOPE_DATA_DIR) + "/traces/SOURCES.md");
        QVERIFY(!bad.waitForLayout(30000));
        QVERIFY(!bad.lastError().isEmpty());
    }

    void aModelThatDoesNotMatchTheTraceIsWarnedAbout()
    {
        // MNIST beside the ResNet-50 V100 trace: no op of the model ran there (matched by kind and input shape), the
        // window says so above the graph, and a node selects nothing on the timeline but shows why and its details.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kResNetV100, { 1400, 800 }), qPrintable(window.lastError()));
        window.openModel(QString(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx");
        QVERIFY2(window.placementSession()->waitForPlan(60000), qPrintable(window.placementSession()->lastError()));
        QVERIFY(window.graphView()->waitForLayout(60000));
        QVERIFY(waitUntil([&] { return window.modelMatch() != nullptr; }, 60000));
        const placescope::ModelTraceMatch& match = *window.modelMatch();
        QVERIFY(match.traceOps > 1000); // the trace has framework ops; none of them is MNIST's
        QVERIFY(match.comparedOps >= 5);
        QCOMPARE(match.matchedOps, size_t(0));
        auto* warning = window.findChild<QLabel*>("modelMatchWarning");
        QVERIFY(warning && warning->isVisible());
        QVERIFY2(warning->text().startsWith("Warning")
                && warning->text().contains(
                    QString("none of the model's %1 ops ran in this trace").arg(match.comparedOps)),
            qPrintable(warning->text()));
        QVERIFY(window.timeline()->trace()->eventCount > 0);
        const int convNode = window.graphView()->selectByName("Conv");
        QVERIFY(convNode >= 0);
        const int convOp = window.graphView()->selectedModelOp();
        emit window.graphView()->nodeSelected("Conv"); // what a click on the node emits
        QVERIFY(!window.timeline()->selectedEvent()); // no event named like it is picked instead
        const QString details = window.findChild<QTextBrowser*>("eventDetails")->toPlainText();
        QVERIFY2(
            details.contains("kernel_shape") && details.contains("did not run in this trace"), qPrintable(details));
        // Timeline -> graph goes through the same occurrences: a kernel selects no MNIST node.
        QVERIFY(window.timeline()->findNext("sgemm", true));
        QVERIFY(window.timeline()->selectedEvent());
        QCOMPARE(window.graphView()->selectedModelOp(), convOp); // unchanged
    }

    void aMatchingOnnxModelSelectsItsOpsOccurrencesAndTheirKernels()
    {
        // ResNet-50 (ONNX, batch 1) beside the ResNet-50 trace (batch 32): the convolutions are found by kind and
        // shape; a Conv node selects the aten op it ran as, the timeline outlines that op's kernels (correlation
        // ids), a second click walks to its next occurrence, and a kernel selects the node back.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kResNetV100, { 1400, 800 }), qPrintable(window.lastError()));
        window.openModel(QString(PLACESCOPE_DATA_DIR) + "/models/light_resnet50.onnx");
        QVERIFY2(window.placementSession()->waitForPlan(60000), qPrintable(window.placementSession()->lastError()));
        GraphView* graph = window.graphView();
        QVERIFY(graph->waitForLayout(60000));
        QVERIFY(waitUntil([&] { return window.modelMatch() != nullptr; }, 60000));
        const placescope::ModelTraceMatch& match = *window.modelMatch();
        QVERIFY2(!match.mismatch(), match.summary().c_str());
        auto* warning = window.findChild<QLabel*>("modelMatchWarning");
        QVERIFY(warning->isVisible() && !warning->text().startsWith("Warning"));
        QVERIFY2(warning->text().contains(
                     QString("%1 of the model's %2 ops ran").arg(match.matchedOps).arg(match.comparedOps)),
            qPrintable(warning->text()));
        const ModelGraph* model = graph->model();
        int conv = -1;
        for (size_t i = 0; i < model->ops.size() && conv < 0; ++i)
            if (model->ops[i].type == "Conv" && match.occurrences[i].size() >= 2
                && graph->selectModelOp(static_cast<int>(i)))
                conv = static_cast<int>(i);
        QVERIFY(conv >= 0);
        TimelineView* timeline = window.timeline();
        const LoadedTrace& trace = *timeline->trace();
        for (size_t click = 0; click < 2; ++click) {
            emit graph->nodeSelected("Conv");
            const auto selected = timeline->selectedEvent();
            QVERIFY(selected);
            const LaneRow& row = timeline->rowOf(*selected);
            QCOMPARE(row.kind[selected->index], EventKind::FrameworkOp);
            QCOMPARE(row.startNs[selected->index], match.occurrences[static_cast<size_t>(conv)][click].startNs);
            QCOMPARE(trace.lanes[static_cast<size_t>(selected->lane)].globalTid,
                match.occurrences[static_cast<size_t>(conv)][click].globalTid);
            const QString name = QString::fromStdString(trace.names[row.nameIndex[selected->index]]);
            QVERIFY2(name.startsWith("aten::conv") || name.contains("convolution"), qPrintable(name));
            QVERIFY(!timeline->linkedEvents().empty());
            for (const TimelineView::EventRef& kernel : timeline->linkedEvents())
                QCOMPARE(trace.lanes[static_cast<size_t>(kernel.lane)].group, Lane::Group::Device);
            QCOMPARE(graph->selectedModelOp(), conv);
        }
        // Timeline -> graph: a kernel the occurrence launched selects a Conv node that ran as that occurrence.
        const TimelineView::EventRef kernel = timeline->linkedEvents().front();
        QVERIFY(graph->selectByName("Relu") >= 0);
        timeline->selectEvent(kernel, false);
        const int back = graph->selectedModelOp();
        QVERIFY(back >= 0);
        QCOMPARE(QString::fromStdString(model->ops[static_cast<size_t>(back)].type), QString("Conv"));
        const auto& list = match.occurrences[static_cast<size_t>(back)];
        QVERIFY(std::find(list.begin(), list.end(), match.occurrences[static_cast<size_t>(conv)][1]) != list.end());
    }

    void traceOpsGraphSyncsWithTheExactOccurrence()
    {
        // The AlexNet trace runs the forward pass twice (warmup, measured); its op graph holds one pass, so a
        // name search would land on the warmup's conv while the exact sync must land on the graph's own one.
        MainWindow window;
        QVERIFY2(
            showAndOpen(window, QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz", { 1400, 800 }),
            qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        QVERIFY(timeline->trace());
        window.openModel(QString::fromStdString(timeline->trace()->path)); // the imported trace as a model
        QVERIFY2(window.placementSession()->waitForPlan(120000), qPrintable(window.placementSession()->lastError()));
        GraphView* graph = window.graphView();
        QVERIFY2(graph->waitForLayout(120000), qPrintable(graph->lastError()));
        const ModelGraph* model = graph->model();
        QVERIFY(model && model->source == "trace-ops");
        QVERIFY(waitUntil(
            [&] { return window.modelMatch() != nullptr; }, 60000)); // the graph's own trace: every op is found
        QCOMPARE(window.modelMatch()->matchedOps, window.modelMatch()->comparedOps);
        QVERIFY(!window.findChild<QLabel*>("modelMatchWarning")->text().startsWith("Warning"));
        std::vector<int> convs;
        for (size_t i = 0; i < model->ops.size(); ++i)
            if (model->ops[i].type == "aten::conv2d")
                convs.push_back(static_cast<int>(i));
        QVERIFY(convs.size() >= 2);
        const LoadedTrace& trace = *timeline->trace();
        auto startOf = [&](const TimelineView::EventRef& ref) {
            return trace.lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)].startNs[ref.index];
        };
        auto kindOf = [&](const TimelineView::EventRef& ref) {
            return trace.lanes[static_cast<size_t>(ref.lane)].rows[static_cast<size_t>(ref.row)].kind[ref.index];
        };

        // Graph -> timeline: the node of the last conv selects that very op event and marks its kernels.
        const ModelOp& last = model->ops[static_cast<size_t>(convs.back())];
        QVERIFY(graph->selectModelOp(convs.back()));
        emit graph->nodeSelected(QString::fromStdString(last.type)); // what a click on the node emits
        auto selected = timeline->selectedEvent();
        QVERIFY(selected);
        QCOMPARE(startOf(*selected), last.traceStartNs);
        QCOMPARE(trace.lanes[static_cast<size_t>(selected->lane)].globalTid, last.traceGlobalTid);
        QCOMPARE(kindOf(*selected), EventKind::FrameworkOp);
        QVERIFY(!timeline->linkedEvents().empty());
        for (const TimelineView::EventRef& kernel : timeline->linkedEvents()) {
            QCOMPARE(trace.lanes[static_cast<size_t>(kernel.lane)].group, Lane::Group::Device);
            QVERIFY(startOf(kernel) >= last.traceStartNs); // launched by the op, so it runs after it starts
        }
        QCOMPARE(graph->selectedModelOp(), convs.back()); // the event's own sync keeps the node selected
        timeline->repaint(); // draws the op's flows

        // Timeline -> graph: a kernel of the first conv selects the first conv's node, not another conv's.
        const ModelOp& first = model->ops[static_cast<size_t>(convs.front())];
        auto firstEvent = timeline->findHostEvent(first.traceGlobalTid, EventKind::FrameworkOp, first.traceStartNs);
        QVERIFY(firstEvent);
        const auto launched = timeline->launchedWork(*firstEvent);
        auto kernel = std::find_if(launched.begin(), launched.end(),
            [&](const auto& flow) { return kindOf(flow.second) == EventKind::Kernel; });
        QVERIFY(kernel != launched.end());
        QVERIFY(graph->selectModelOp(convs.back()));
        timeline->selectEvent(kernel->second, true);
        QCOMPARE(graph->selectedModelOp(), convs.front());
        // Its launching runtime call selects the same node.
        QVERIFY(graph->selectModelOp(convs.back()));
        QCOMPARE(kindOf(kernel->first), EventKind::Runtime);
        timeline->selectEvent(kernel->first, false);
        QCOMPARE(graph->selectedModelOp(), convs.front());
    }

    // placescope-gui --whatif EDIT: the edit given before the trace opens is the one the panel runs (the first trace
    // kept no edit: every --whatif predicted the replay itself), with the CLI's figures.
    void whatIfOnTheCommandLineIsRun()
    {
        QTemporaryDir temp;
        const QString trace = QString(PLACESCOPE_DATA_DIR) + "/traces/cpu_loader_worker_before.json.gz";
        QProcess gui;
        gui.start(QString(PLACESCOPE_BIN_DIR) + "/placescope-gui",
            { trace, "--whatif", "workers=1", "--screenshot", temp.filePath("shot.png") });
        QVERIFY(gui.waitForFinished(120000));
        const QString out = QString::fromLocal8Bit(gui.readAllStandardOutput() + gui.readAllStandardError());
        QVERIFY2(gui.exitCode() == 0, qPrintable(out));
        QProcess cli;
        cli.start(QString(PLACESCOPE_BIN_DIR) + "/placescope", { "whatif", trace, "--edit", "workers=1", "--json" });
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        auto ms = [&](const char* key) {
            return QString::fromStdString(
                placescope::formatNanoseconds(static_cast<double>(json.value(key).toInteger())));
        };
        QVERIFY(json.value("predicted_step_ns").toInteger() < json.value("replay_step_ns").toInteger());
        const QString expected = "whatif: measured step " + ms("measured_step_ns") + ", replay " + ms("replay_step_ns")
            + ", predicted " + ms("predicted_step_ns");
        QVERIFY2(out.contains(expected), qPrintable(out + "\nexpected: " + expected));
    }

    // placescope-gui --finding N selects the finding analyze prints as #N (it took N from 0: --finding 1 showed #2);
    // 0 and a finding the trace does not have are said, not ignored.
    void findingOnTheCommandLineIsAnalyzesNumber()
    {
        QTemporaryDir temp;
        const QString trace = QString(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz";
        QProcess cli;
        cli.start(QString(PLACESCOPE_BIN_DIR) + "/placescope", { "analyze", trace });
        QVERIFY(cli.waitForFinished(120000));
        QString second;
        for (const QString& line : QString::fromUtf8(cli.readAllStandardOutput()).split('\n'))
            if (line.startsWith("#2 "))
                second = line.mid(line.indexOf("] ") + 2);
        QVERIFY(!second.isEmpty());
        auto run = [&](const QString& n) {
            QProcess gui;
            gui.start(QString(PLACESCOPE_BIN_DIR) + "/placescope-gui",
                { trace, "--finding", n, "--screenshot", temp.filePath("shot.png") });
            gui.waitForFinished(120000);
            return std::pair { gui.exitCode(),
                QString::fromLocal8Bit(gui.readAllStandardOutput() + gui.readAllStandardError()) };
        };
        const auto [code, out] = run("2");
        QVERIFY2(code == 0, qPrintable(out));
        QVERIFY2(out.contains("finding: #2 " + second), qPrintable(out + "\nexpected #2 " + second));
        const auto [zeroCode, zero] = run("0");
        QCOMPARE(zeroCode, 2);
        QVERIFY2(zero.contains("1 for #1"), qPrintable(zero));
        QVERIFY2(run("99").second.contains("has no finding #99"), "");
    }

    void screenshotIsNotBlank()
    {
        QTemporaryDir temp;
        const QString png = temp.filePath("shot.png");
        QProcess gui;
        // A trace and a model: the placement panel and the predicted lanes are in the picture too.
        gui.start(QString(PLACESCOPE_BIN_DIR) + "/placescope-gui",
            { kNsysTrace, "--model", QString(PLACESCOPE_DATA_DIR) + "/models/light_resnet50.onnx", "--screenshot",
                png });
        QVERIFY(gui.waitForFinished(120000));
        const QString out = QString::fromLocal8Bit(gui.readAllStandardOutput() + gui.readAllStandardError());
        QVERIFY2(gui.exitCode() == 0, qPrintable(out));
        QVERIFY2(out.contains("predicted lanes: 3"), qPrintable(out));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        std::set<QRgb> colours;
        int nonBackground = 0;
        const QRgb corner = image.pixel(image.width() / 2, image.height() / 2 + 200);
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) {
                colours.insert(image.pixel(x, y));
                nonBackground += image.pixel(x, y) != corner;
            }
        QVERIFY2(colours.size() > 30, qPrintable(QString::number(colours.size())));
        QVERIFY(nonBackground > image.width() * image.height() / 9 / 20);
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
