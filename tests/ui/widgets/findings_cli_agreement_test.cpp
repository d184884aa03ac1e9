// SPDX-License-Identifier: MIT
// The GUI's findings pane against `placescope analyze --format json` on the same trace (issue 26): the same
// findings in the same order, each with the same saving per step (the replay's where it simulated the fix, else
// the rule's estimate), and the same words as the text report. Both front ends call analyzeMeasuredRun(), so the
// figures must agree to the precision the JSON keeps, not merely be close. TensorFlow's op placement under the
// findings is the text report's line (issue 28).
#include "tests/ui/widgets/open_window.h"
#include "ui/models/table_model.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

using namespace placescope::ui;
using placescope::ui::testing::showAndOpen;

namespace {

const QString kCli = QString(PLACESCOPE_BIN_DIR) + "/placescope";

struct CliOutput
{
    int exitCode = -1;
    QByteArray out;
    QString error;
};

CliOutput runCli(const QStringList& arguments)
{
    QProcess process;
    process.start(kCli, arguments);
    CliOutput run;
    if (!process.waitForFinished(240000)) {
        run.error = "did not finish: " + process.errorString();
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.error = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// The saving the CLI ranks by: the replay's where it simulated the fix, else (or where the simulation passed the
// rule's bound) the rule's estimate.
double rankingMs(const QJsonObject& saving)
{
    return saving.contains("simulated_ms") && !saving.value("simulated_above_bound").toBool()
        ? saving.value("simulated_ms").toDouble()
        : saving.value("per_step_ms").toDouble();
}

} // namespace

class FindingsCliAgreementTest : public QObject
{
    Q_OBJECT

private slots:
    void findingsPaneShowsTheCliFindings_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<bool>("expectSimulated");
        // Both have findings whose fix the replay simulates (the savings the pane used to leave out): the bundled
        // H100 capture and the CloverLeaf nsys export (a sync after every kernel: --edit no-sync).
        QTest::newRow("resnet50 sample") << QString(PLACESCOPE_SOURCE_DIR)
                + "/resources/samples/resnet50_train_3steps.sqlite"
                                         << true;
        QTest::newRow("nsys export") << QString(PLACESCOPE_DATA_DIR)
                + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite"
                                     << true;
        // A memory-only finding (reserved far above allocated): its saving is bytes, which the pane once read as
        // "no saving" where the CLI gives the figure.
        QTest::newRow("memory finding") << QString(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz"
                                        << true;
    }

    void findingsPaneShowsTheCliFindings()
    {
        QFETCH(QString, trace);
        QFETCH(bool, expectSimulated);
        const CliOutput json = runCli({ "analyze", trace, "--format", "json" });
        QVERIFY2(json.exitCode == 0, qPrintable(json.error));
        const QJsonArray cliFindings = QJsonDocument::fromJson(json.out).object().value("findings").toArray();
        QVERIFY(!cliFindings.isEmpty());
        // The words: each finding's "Saving:" line of the text report, in order.
        const CliOutput text = runCli({ "analyze", trace });
        QVERIFY2(text.exitCode == 0, qPrintable(text.error));
        QStringList savingLines;
        for (const QString& line : QString::fromUtf8(text.out).split('\n'))
            if (line.startsWith("   Saving: "))
                savingLines << line.mid(QString("   Saving: ").size());
        QCOMPARE(savingLines.size(), cliFindings.size());

        MainWindow window;
        QVERIFY2(showAndOpen(window, trace, { 1400, 800 }), qPrintable(window.lastError()));
        // Example times count from one origin: the CLI's "[at T]" is the app's "T after the trace's first event".
        QCOMPARE(static_cast<qint64>(QJsonDocument::fromJson(json.out).object().value("origin_ns").toInteger()),
            static_cast<qint64>(window.timeline()->trace()->firstNs));
        const TableModel* pane = window.findingModel();
        QCOMPARE(pane->rowCount(), static_cast<int>(cliFindings.size()));
        bool anySimulated = false;
        int memoryOnly = 0;
        for (int i = 0; i < pane->rowCount(); ++i) {
            const QJsonObject finding = cliFindings.at(i).toObject();
            QCOMPARE(pane->index(i, 0).data().toString(), finding.value("title").toString());
            const QJsonObject saving = finding.value("saving").toObject();
            anySimulated |= saving.contains("simulated_ms");
            const double cliNs = rankingMs(saving) * 1e6;
            const double guiNs = pane->index(i, 2).data(TableModel::kRawRole).toDouble(); // what the pane sorts by
            // The JSON keeps six significant digits.
            QVERIFY2(std::fabs(guiNs - cliNs) <= 1e-5 * std::max(1.0, std::fabs(cliNs)),
                qPrintable(QString("finding %1 (%2): GUI %3 ns, CLI %4 ns")
                               .arg(i)
                               .arg(finding.value("title").toString())
                               .arg(guiNs, 0, 'g', 17)
                               .arg(cliNs, 0, 'g', 17)));
            // The words the list shows are the text report's, memory figures included (one savingText for both):
            // the ranked figure in the cell, the whole line in its tooltip.
            const QString shown = pane->index(i, 2).data().toString();
            QCOMPARE(pane->index(i, 2).data(Qt::ToolTipRole).toString(), savingLines.at(i));
            QVERIFY2(savingLines.at(i).contains(shown) && shown.size() <= 60, qPrintable(shown));
            memoryOnly += shown.endsWith(" of device memory") && !shown.contains(" per step");
        }
        QCOMPARE(anySimulated, expectSimulated);
        if (QTest::currentDataTag() == QString("memory finding"))
            QVERIFY2(memoryOnly > 0, "the memory trace's reserved-memory finding is memory-only");
    }

    // TensorFlow's op placement (issue 28), under the findings, against `placescope analyze` in every format on the
    // BERT step: the same figure from the same report. xplane_ref.py (protoc --decode of the same file) counts 453
    // host and 667 device TF ops, 1,857,309 ns on the host and 14,834,633 ns of their GPU time.
    void opPlacementIsTheCliFigure()
    {
        const QString trace = QString(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.xplane.pb";
        const CliOutput json = runCli({ "analyze", trace, "--format", "json" });
        QVERIFY2(json.exitCode == 0, qPrintable(json.error));
        const QJsonObject placement = QJsonDocument::fromJson(json.out).object().value("tf_op_placement").toObject();
        QCOMPARE(placement.value("host_ops").toInteger(), 453);
        QCOMPARE(placement.value("device_ops").toInteger(), 667);
        QCOMPARE(placement.value("host_op_ns").toInteger(), 1857309);
        QCOMPARE(placement.value("device_op_ns").toInteger(), 14834633);
        const CliOutput text = runCli({ "analyze", trace });
        QVERIFY2(text.exitCode == 0, qPrintable(text.error));
        QString line;
        for (const QString& candidate : QString::fromUtf8(text.out).split('\n'))
            if (candidate.startsWith("TensorFlow op placement"))
                line = candidate;
        QCOMPARE(line,
            QString(
                "TensorFlow op placement (xprof's overview: share of ops): host 453 of 1,120 ops (40 %), 1.86 ms on "
                "the host; device 667 (60 %), 14.8 ms of GPU time"));
        const CliOutput markdown = runCli({ "analyze", trace, "--format", "md" });
        QVERIFY2(markdown.exitCode == 0, qPrintable(markdown.error));
        const QString figure = line.mid(line.indexOf("): ") + 3);
        QVERIFY2(QString::fromUtf8(markdown.out).contains("## TensorFlow op placement\n\n" + figure + "\n"),
            markdown.out.constData());

        MainWindow window;
        QVERIFY2(showAndOpen(window, trace, { 1400, 800 }), qPrintable(window.lastError()));
        auto* label = window.findChild<QLabel*>("tfOpPlacement");
        QVERIFY(label);
        QVERIFY(!label->isHidden());
        QCOMPARE(label->text(), line);
        QVERIFY(label->toolTip().startsWith("As xprof's overview counts it"));

        // A trace without TensorFlow ops (ONNX Runtime's) has no such figure, in the CLI's reports or under the app's
        // findings.
        const QString ort = QString(PLACESCOPE_DATA_DIR) + "/traces/ort130_mnist_cpu.json";
        const CliOutput other = runCli({ "analyze", ort });
        QVERIFY2(other.exitCode == 0, qPrintable(other.error));
        QVERIFY(!QString::fromUtf8(other.out).contains("TensorFlow op placement"));
        window.openFile(ort);
        QVERIFY2(window.waitForOpen(240000), qPrintable(window.lastError()));
        QVERIFY(label->isHidden());
        QVERIFY(label->text().isEmpty());
    }

    // A run no rule flags (a real CPU-only training run): the CLI's text report and the app's findings pane say so in
    // the same words, and the pane's list is empty.
    void noFindingsIsSaidAsTheCliSaysIt()
    {
        const QString trace = QString(PLACESCOPE_DATA_DIR) + "/traces/cpu_debug_copy_after.json.gz";
        const CliOutput text = runCli({ "analyze", trace });
        QVERIFY2(text.exitCode == 0, qPrintable(text.error));
        QString said;
        for (const QString& line : QString::fromUtf8(text.out).split('\n'))
            if (line.startsWith("No findings"))
                said = line;
        QCOMPARE(said, QString("No findings: nothing in this trace crossed a rule's threshold."));
        MainWindow window;
        QVERIFY2(showAndOpen(window, trace, { 1400, 800 }), qPrintable(window.lastError()));
        auto* pane = window.findChild<QTextBrowser*>("findingDetails");
        QVERIFY(pane);
        QCOMPARE(pane->placeholderText(), said);
        auto* findings = window.findChild<QDockWidget*>("dock_Findings")->findChild<QTableView*>();
        QCOMPARE(findings->model()->rowCount(), 0);
        // A trace with findings asks for a selection again.
        window.openFile(QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz");
        QVERIFY2(window.waitForOpen(240000), qPrintable(window.lastError()));
        QVERIFY(findings->model()->rowCount() > 0);
        QVERIFY(pane->placeholderText().startsWith("Select a finding"));
    }

    // The import summary and the app's status bar count events one way (issue 26 saw "216,063 events" against
    // "123378 events" for one trace), and the summary tells notes from problems and gives the JSON's rate.
    void importSummaryAndStatusBarCountTheSameEvents()
    {
        const QString json = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz";
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const CliOutput imported = runCli({ "import", json, "-o", dir.filePath("v100.sqlite") });
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.error));
        const QRegularExpression summary(
            R"(^wrote \S+: ([0-9,]+) events \(.*kernels.*\); ([0-9,]+) note\(s\), (no problems|[0-9,]+ problem\(s\)).* )"
            R"([kMG]?B/s of JSON \([0-9.]+ [kMG]?B/s of the [0-9.]+ [KMG]iB file\))");
        const QRegularExpressionMatch line = summary.match(imported.error);
        QVERIFY2(line.hasMatch(), qPrintable(imported.error));
        const QString events = line.captured(1);

        MainWindow window;
        QVERIFY2(showAndOpen(window, json, { 1400, 800 }), qPrintable(window.lastError()));
        QString status;
        for (const QLabel* label : window.statusBar()->findChildren<QLabel*>())
            if (label->text().contains(" on the timeline)"))
                status = label->text();
        QVERIFY2(status.startsWith(events + " events ("), qPrintable(status + " / import said " + events));
    }
};

QTEST_MAIN(FindingsCliAgreementTest)
#include "findings_cli_agreement_test.moc"
