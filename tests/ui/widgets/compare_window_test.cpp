// SPDX-License-Identifier: MIT
// File > Compare with...: the compare window on real pairs, offscreen. Its kernel table holds exactly the rows
// `placescope diff --format json` prints for the same pair (same names, order, counts and nanoseconds; the GUI calls
// the same library), a row highlights as many instances in each timeline as the diff counted for that run, the two
// timelines share one zoom and align on the chosen step, and bad inputs fail in one line without a result.
// Pairs: the CloverLeaf nsys export against its what-if prediction without syncs (same program, steps moved), and
// the bundled ResNet-50 trace against the AlexNet A100 trace (different GPUs and kernels).
#include "tests/support/qt_cli_run.h"
#include "ui/compare/compare_axis.h"
#include "ui/compare/compare_lanes_view.h"
#include "ui/compare/compare_window.h"
#include "ui/compare/delta_table_model.h"
#include "ui/compare/prediction_error_model.h"
#include "ui/models/table_model.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QFontMetrics>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace placescope;
using namespace placescope::ui;

namespace {

const QString kData = QString(PLACESCOPE_DATA_DIR);

// Runs the CLI; stdout on success, a failed check otherwise.
QByteArray runCli(const QStringList& arguments, int* exitCode = nullptr)
{
    const placescope::testing::CliRun run = placescope::testing::runPlacescope(arguments);
    if (exitCode)
        *exitCode = run.exitCode;
    if (run.exitCode != 0)
        qWarning("placescope %s: %s", qPrintable(arguments.join(' ')), run.err.c_str());
    return QByteArray::fromStdString(run.out);
}

// The GUI table's rows against a JSON row array of the CLI: same length, same order, same numbers.
void expectSameRows(const DeltaTableModel& model, const QJsonArray& rows, const char* what)
{
    QCOMPARE(model.rowCount(), rows.size());
    QVERIFY2(model.rowCount() > 0, what);
    for (int i = 0; i < model.rowCount(); ++i) {
        const QJsonObject cli = rows[i].toObject();
        auto raw = [&](int column) { return model.index(i, column).data(DeltaTableModel::kRawRole); };
        QCOMPARE(raw(DeltaTableModel::Name).toString(), cli.value("name").toString());
        QCOMPARE(raw(DeltaTableModel::CountA).toLongLong(), cli.value("count_a").toInteger());
        QCOMPARE(raw(DeltaTableModel::CountB).toLongLong(), cli.value("count_b").toInteger());
        QCOMPARE(raw(DeltaTableModel::TimeA).toLongLong(), cli.value("ns_a").toInteger());
        QCOMPARE(raw(DeltaTableModel::TimeB).toLongLong(), cli.value("ns_b").toInteger());
        QCOMPARE(raw(DeltaTableModel::Delta).toLongLong(), cli.value("delta_ns").toInteger());
        QCOMPARE(raw(DeltaTableModel::Change).toString(), cli.value("change").toString());
    }
}

} // namespace

class CompareWindowTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_clover, m_predicted, m_resnet, m_alexnet;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_clover = m_dir.filePath("clover.sqlite");
        m_predicted = m_dir.filePath("clover_nosync.sqlite");
        m_alexnet = m_dir.filePath("alexnet.sqlite");
        m_resnet = QString(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite";
        int code = -1;
        runCli({ "import", kData + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite", "-o", m_clover }, &code);
        QCOMPARE(code, 0);
        runCli({ "whatif", m_clover, "--edit", "no-sync", "-o", m_predicted }, &code);
        QCOMPARE(code, 0);
        runCli({ "import", kData + "/traces/hta_alexnet_a100_1rank.json.gz", "-o", m_alexnet }, &code);
        QCOMPARE(code, 0);
    }

    // The table is the CLI's JSON, row for row: the whole trace's kernels and the compared steps' kernels.
    void tableEqualsCliJson_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::newRow("cloverleaf vs its no-sync prediction") << m_clover << m_predicted;
        QTest::newRow("resnet50 v100 vs alexnet a100") << m_resnet << m_alexnet;
    }
    void tableEqualsCliJson()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        CompareWindow window;
        QAbstractItemModelTester tester(window.kernelModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.compare(before, after);
        QVERIFY2(window.waitForResult(180000), qPrintable(window.lastError()));

        const QJsonObject cli = QJsonDocument::fromJson(runCli({ "diff", before, after, "--format", "json" })).object();
        QVERIFY(!cli.isEmpty());
        window.showStepRows(false);
        expectSameRows(*window.kernelModel(), cli.value("kernels").toArray(), "whole trace");
        window.showStepRows(true);
        const QJsonArray compared
            = cli.value("steps").toObject().value("kernels").toObject().value("compared").toArray();
        if (!compared.isEmpty())
            expectSameRows(*window.kernelModel(), compared, "compared steps");
        else
            QCOMPARE(window.kernelModel()->rowCount(), 0);
        QCOMPARE(window.figureModel()->rowCount(), cli.value("figures").toArray().size());
        QCOMPARE(window.findingModel()->rowCount(), cli.value("findings").toArray().size());
        // Neither pair is a prediction against a measured run: no error, in the CLI or the window.
        QVERIFY(!cli.contains("prediction_error"));
        QCOMPARE(window.predictionModel()->rowCount(), 0);
        QVERIFY(window.currentTab() != "Prediction error");
        for (int i = 0; i < window.findingModel()->rowCount(); ++i)
            QCOMPARE(window.findingModel()->rowAt(i)[0].toString(),
                cli.value("findings").toArray()[i].toObject().value("status").toString());
        // Every column title is readable ("Share of step delta" showed as "hare of step delt").
        for (QTableView* view : window.findChildren<QTableView*>()) {
            const QFontMetrics metrics(view->horizontalHeader()->font());
            for (int c = 0; c + 1 < view->model()->columnCount(); ++c) {
                const QString title = view->model()->headerData(c, Qt::Horizontal).toString();
                QVERIFY2(view->columnWidth(c) >= metrics.horizontalAdvance(title), qPrintable(title));
            }
        }
    }

    // A prediction against a measured run: the window's prediction error is `placescope diff --format json`'s
    // prediction_error, figure for figure (mean step, each step, kernel time, each class of GPU work over the
    // compared steps and the whole trace), and its tab is the one shown.
    void predictionErrorEqualsCliJson()
    {
        // The prediction halves CloverLeaf's advection kernels and drops its syncs; a copy of the measured run under
        // another name stands for the run measured after the change.
        const QString predicted = m_dir.filePath("clover_advec.sqlite"), after = m_dir.filePath("clover_after.sqlite");
        int code = -1;
        runCli(
            { "whatif", m_clover, "--edit", "no-sync", "--edit", "kernels:advec=x0.5", "-o", predicted, "-q" }, &code);
        QCOMPARE(code, 0);
        QFile::remove(after);
        QVERIFY(QFile::copy(m_clover, after));

        CompareWindow window;
        QAbstractItemModelTester tester(
            window.predictionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.compare(predicted, after);
        QVERIFY2(window.waitForResult(180000), qPrintable(window.lastError()));
        const QJsonObject cli
            = QJsonDocument::fromJson(runCli({ "diff", predicted, after, "--format", "json" })).object();
        QVERIFY(cli.contains("prediction_error"));
        const QJsonObject error = cli.value("prediction_error").toObject();

        // The JSON's figures in the window's row order.
        struct Expected
        {
            QString figure;
            QJsonObject values;
        };
        std::vector<Expected> expected { { "mean step", error.value("mean_step").toObject() } };
        for (const QJsonValue& step : error.value("steps").toArray())
            expected.push_back({ QString("step %1").arg(step.toObject().value("position").toInt()), step.toObject() });
        expected.push_back({ "kernel time, whole trace", error.value("kernel_time").toObject() });
        const QJsonArray classes = error.value("classes").toArray();
        QVERIFY(!classes.isEmpty());
        for (const QJsonValue& c : classes)
            expected.push_back({ c.toObject().value("class").toString() + ", compared steps", c.toObject() });
        for (const QJsonValue& c : classes)
            expected.push_back({ c.toObject().value("class").toString() + ", whole trace",
                c.toObject().value("whole_trace").toObject() });

        const PredictionErrorModel& model = *window.predictionModel();
        QCOMPARE(model.rowCount(), static_cast<int>(expected.size()));
        bool someError = false;
        for (int i = 0; i < model.rowCount(); ++i) {
            auto raw = [&](int column) { return model.index(i, column).data(PredictionErrorModel::kRawRole); };
            const QJsonObject& cliRow = expected[static_cast<size_t>(i)].values;
            QCOMPARE(raw(PredictionErrorModel::Figure).toString(), expected[static_cast<size_t>(i)].figure);
            QCOMPARE(raw(PredictionErrorModel::Predicted).toLongLong(), cliRow.value("predicted_ns").toInteger());
            QCOMPARE(raw(PredictionErrorModel::Measured).toLongLong(), cliRow.value("measured_ns").toInteger());
            QCOMPARE(raw(PredictionErrorModel::Error).toLongLong(), cliRow.value("error_ns").toInteger());
            if (cliRow.contains("relative_error"))
                QCOMPARE(raw(PredictionErrorModel::Relative).toDouble(), cliRow.value("relative_error").toDouble());
            someError = someError || cliRow.value("error_ns").toInteger() != 0;
        }
        QVERIFY(someError); // the prediction is off: a table of zeros would prove nothing
        QCOMPARE(window.currentTab(), QString("Prediction error"));
        QVERIFY(model.index(0, PredictionErrorModel::Relative).data().toString().endsWith("%"));
    }

    // With simulated savings the findings are `placescope diff --simulate`'s: same statuses, savings and basis.
    void simulatedFindingsEqualCliJson()
    {
        CompareWindow window;
        window.setSimulateSavings(true);
        window.compare(m_clover, m_predicted);
        QVERIFY2(window.waitForResult(180000), qPrintable(window.lastError()));
        const QJsonArray cli
            = QJsonDocument::fromJson(runCli({ "diff", m_clover, m_predicted, "--simulate", "--format", "json" }))
                  .object()
                  .value("findings")
                  .toArray();
        QCOMPARE(window.findingModel()->rowCount(), cli.size());
        QVERIFY(cli.size() > 0);
        int simulated = 0;
        for (int i = 0; i < cli.size(); ++i) {
            const QVariantList& row = window.findingModel()->rowAt(i);
            const QJsonObject f = cli[i].toObject();
            QCOMPARE(row[0].toString(), f.value("status").toString());
            QCOMPARE(row[1].toString(), f.value("rule").toString());
            QCOMPARE(row[2].toDouble(), f.value("saving_ms_a").toDouble() * 1e6); // ns per step
            QCOMPARE(row[3].toDouble(), f.value("saving_ms_b").toDouble() * 1e6);
            // Shown through the units formatter ("1.50 ms", "no saving"), not as a raw number.
            const QString shown = window.findingModel()->index(i, 2).data().toString();
            QCOMPARE(shown, TableModel::formatCell(row[2], CellFormat::Saving));
            QVERIFY2(shown == "no saving" || shown.endsWith(" ns") || shown.endsWith(" us") || shown.endsWith(" ms")
                    || shown.endsWith(" s"),
                qPrintable(shown));
            simulated += f.value("simulated_a").toBool() || f.value("simulated_b").toBool();
            QCOMPARE(row[4].toString().contains("simulated"),
                f.value("simulated_a").toBool() || f.value("simulated_b").toBool());
        }
        QVERIFY(simulated > 0);
    }

    // Selecting a row marks that kernel's instances in both timelines: as many as the diff counted in each run.
    void rowHighlightsInstancesInBothRuns()
    {
        CompareWindow window;
        window.compare(m_resnet, m_alexnet);
        QVERIFY2(window.waitForResult(180000), qPrintable(window.lastError()));
        window.showStepRows(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const DeltaTableModel& model = *window.kernelModel();
        QVERIFY(model.rowCount() > 0);
        bool paintedA = false, paintedB = false;
        for (int row = 0; row < model.rowCount(); ++row) {
            const DeltaRow& r = model.rowAt(row);
            QVERIFY(window.selectKernel(QString::fromStdString(r.name)));
            QCOMPARE(static_cast<int64_t>(window.viewA()->highlightedCount()), r.countA);
            QCOMPARE(static_cast<int64_t>(window.viewB()->highlightedCount()), r.countB);
            // The first kernel of each run is brought into view and drawn, however narrow.
            if ((r.countA > 0 && !paintedA) || (r.countB > 0 && !paintedB)) {
                window.viewA()->repaint();
                window.viewB()->repaint();
                QCOMPARE(window.viewA()->lastHighlightDrawCount() > 0, r.countA > 0);
                QCOMPARE(window.viewB()->lastHighlightDrawCount() > 0, r.countB > 0);
                paintedA = paintedA || r.countA > 0;
                paintedB = paintedB || r.countB > 0;
            }
        }
        const bool sawA = paintedA, sawB = paintedB;
        QVERIFY(sawA && sawB); // the pair has kernels only one run has on both sides
        QVERIFY(!window.selectKernel("no such kernel"));
    }

    // Aligned on a step, each run's time 0 is that step's start; the zoom is shared by the two timelines.
    void timelinesAlignOnStepsAndShareTheZoom()
    {
        CompareWindow window;
        window.compare(m_clover, m_predicted);
        QVERIFY2(window.waitForResult(180000), qPrintable(window.lastError()));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const CompareSide& a = *window.viewA()->side();
        const CompareSide& b = *window.viewB()->side();
        QVERIFY(a.stepStartNs.size() >= 2 && b.stepStartNs.size() >= 2);
        // The prediction without syncs moves the second step earlier: aligning on it shifts the runs differently.
        QVERIFY(a.stepStartNs[1] - a.stepStartNs[0] != b.stepStartNs[1] - b.stepStartNs[0]);
        QCOMPARE(window.alignedStep(), 0);
        window.alignOnStep(1);
        QCOMPARE(window.alignedStep(), 1);
        QCOMPARE(window.viewA()->originNs(), a.stepStartNs[1]);
        QCOMPARE(window.viewB()->originNs(), b.stepStartNs[1]);
        // The view shows the aligned step: both runs' step starts are at the same pixel.
        const TimeAxis& axis = window.axis()->axis();
        QVERIFY(axis.xForTime(a.stepStartNs[1] - window.viewA()->originNs()) >= 0);
        QCOMPARE(axis.xForTime(a.stepStartNs[1] - window.viewA()->originNs()),
            axis.xForTime(b.stepStartNs[1] - window.viewB()->originNs()));
        window.alignOnStep(99); // past the steps: the traces' first events
        QCOMPARE(window.alignedStep(), -1);
        QCOMPARE(window.viewA()->originNs(), a.opened.trace->firstNs);

        // Zooming the lower timeline zooms the upper one: one axis.
        const double before = window.axis()->axis().nsPerPixel();
        const QPoint at(CompareLanesView::kLabelWidth + 200, 40);
        QWheelEvent wheel(at, window.viewB()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(window.viewB(), &wheel);
        QVERIFY(window.axis()->axis().nsPerPixel() < before);
        const int64_t start = window.axis()->axis().viewStartNs();
        QTest::mousePress(window.viewA(), Qt::LeftButton, {}, at);
        QTest::mouseMove(window.viewA(), at - QPoint(100, 0));
        QTest::mouseRelease(window.viewA(), Qt::LeftButton, {}, at - QPoint(100, 0));
        QVERIFY(window.axis()->axis().viewStartNs() > start);
        window.viewA()->repaint();
        window.viewB()->repaint();
        QVERIFY(window.viewA()->lastDrawCount() > 0);
        QVERIFY(window.viewB()->lastDrawCount() > 0);
    }

    // The two ways in: File > Compare with... in the main window, and placescope-gui A --compare B, which with
    // --screenshot renders the compare window (the picture a reader of CI logs sees).
    void reachableFromTheMenuAndTheCommandLine()
    {
        MainWindow main;
        QAction* compareWith = nullptr;
        for (QAction* menu : main.menuBar()->actions())
            if (menu->menu())
                for (QAction* action : menu->menu()->actions())
                    if (action->text().remove('&') == "Compare with...")
                        compareWith = action;
        QVERIFY(compareWith);

        const QString png = m_dir.filePath("compare.png");
        QProcess gui;
        gui.start(QString(PLACESCOPE_BIN_DIR) + "/placescope-gui",
            { m_clover, "--compare", m_predicted, "--screenshot", png });
        QVERIFY(gui.waitForFinished(180000));
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY2(gui.readAllStandardOutput().contains("compare: "), "the screenshot run names what it compared");
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 600);
        // Not blank: the timelines and tables drew more than a handful of colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 20);

        gui.start(QString(PLACESCOPE_BIN_DIR) + "/placescope-gui",
            { m_clover, "--compare", m_dir.filePath("missing.sqlite"), "--screenshot", png });
        QVERIFY(gui.waitForFinished(180000));
        QCOMPARE(gui.exitCode(), 2);
        QVERIFY(gui.readAllStandardError().contains("--compare: "));
    }

    void badInputFailsInOneLine()
    {
        CompareWindow window;
        window.compare(m_clover, m_dir.filePath("missing.sqlite"));
        QVERIFY(!window.waitForResult(60000));
        QVERIFY2(window.lastError().contains("missing.sqlite"), qPrintable(window.lastError()));
        QVERIFY(!window.lastError().contains('\n'));
        QVERIFY(!window.diff());
        QCOMPARE(window.kernelModel()->rowCount(), 0);

        QFile notTrace(m_dir.filePath("notes.txt"));
        QVERIFY(notTrace.open(QIODevice::WriteOnly));
        notTrace.write("not a trace\n");
        notTrace.close();
        window.compare(notTrace.fileName(), m_clover);
        QVERIFY(!window.waitForResult(60000));
        QVERIFY2(window.lastError().contains("notes.txt"), qPrintable(window.lastError()));
    }
};

QTEST_MAIN(CompareWindowTest)
#include "compare_window_test.moc"
