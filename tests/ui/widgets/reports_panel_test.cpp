// SPDX-License-Identifier: MIT
// The Reports panel on the real main window, offscreen, with AlexNet opened as a user opens it: for every report the
// panel's rows equal `placescope report NAME trace --format json` on the same file, cell by cell (the model's raw
// values against the JSON values: integer ns, bytes, reals, text, null); sorting is numeric; and a row selects its
// events on the timeline (a launch its kernel, a bucket its time range, a kernel name its instances).
#include "analysis/reports/reports.h"
#include "tests/support/qt_cli_run.h"
#include "ui/jobs/wait_until.h"
#include "ui/reports/report_table_model.h"
#include "ui/reports/reports_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <cmath>
#include <map>

using namespace placescope;
using namespace placescope::ui;

namespace {

const QString kAlexNet = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";

QJsonArray cliRows(const QString& report, const QString& trace, QString* error)
{
    const placescope::testing::CliRun run
        = placescope::testing::runPlacescope(QStringList { "report", report, trace, "--format", "json", "-q" });
    if (run.exitCode != 0) {
        *error = QString::fromStdString(run.err);
        return {};
    }
    return QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).array();
}

// A model cell (raw role) against the CLI's JSON value of the same column: equal, not close.
bool sameValue(const QVariant& cell, const QJsonValue& json)
{
    if (json.isNull())
        return !cell.isValid();
    if (json.isString())
        return cell.typeId() == QMetaType::QString && cell.toString() == json.toString();
    if (cell.typeId() == QMetaType::LongLong)
        return json.toInteger(INT64_MIN) == cell.toLongLong() && json.toDouble() == cell.toDouble();
    return cell.typeId() == QMetaType::Double && json.toDouble() == cell.toDouble();
}

bool waitForReport(ReportsPanel* panel, const QString& name)
{
    QSignalSpy shown(panel, &ReportsPanel::reportShown);
    if (!panel->showReport(name))
        return false;
    return waitUntil([&] { return !shown.isEmpty(); }, 60000) && shown.last().first().toString() == name;
}

} // namespace

class ReportsPanelTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_reports_panel_test");
        m_window = new MainWindow;
        m_window->resize(1300, 800);
        m_window->show();
        m_window->openFile(kAlexNet);
        QVERIFY2(m_window->waitForOpen(120000), qPrintable(m_window->lastError()));
        QVERIFY(m_window->reportsPanel() != nullptr);
        m_tester = new QAbstractItemModelTester(
            m_window->reportsPanel()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    }
    void cleanupTestCase() { delete m_window; }

    void everyReportsRowsEqualTheCliJson()
    {
        ReportsPanel* panel = m_window->reportsPanel();
        const QString trace = QString::fromStdString(m_window->timeline()->trace()->path); // the imported file
        int rowsCompared = 0;
        for (const ReportInfo& report : allReports()) {
            const QString name = QString::fromUtf8(report.name.data(), static_cast<int>(report.name.size()));
            QVERIFY2(waitForReport(panel, name), qPrintable(name));
            QString error;
            const QJsonArray rows = cliRows(name, trace, &error);
            QVERIFY2(error.isEmpty(), qPrintable(name + ": " + error));
            const ReportTableModel* model = panel->model();
            QCOMPARE(model->rowCount(), rows.size());
            for (int r = 0; r < model->rowCount(); ++r) {
                const QJsonObject row = rows[r].toObject();
                QCOMPARE(row.size(), model->columnCount());
                for (int c = 0; c < model->columnCount(); ++c) {
                    const QString key = model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
                    QVERIFY2(row.contains(key), qPrintable(name + ": no JSON key " + key));
                    const QVariant cell = model->data(model->index(r, c), ReportTableModel::kRawRole);
                    QVERIFY2(sameValue(cell, row.value(key)),
                        qPrintable(
                            QString("%1 row %2 %3: panel %4, CLI %5")
                                .arg(name)
                                .arg(r)
                                .arg(key, cell.toString(),
                                    QString::fromUtf8(
                                        QJsonDocument(QJsonArray { row.value(key) }).toJson(QJsonDocument::Compact)))));
                }
                ++rowsCompared;
            }
        }
        QVERIFY(rowsCompared > 100); // AlexNet: hundreds of launches, 50-bucket series
    }

    void sortingIsNumeric()
    {
        ReportsPanel* panel = m_window->reportsPanel();
        QVERIFY(waitForReport(panel, "kernel_launch"));
        const int column = static_cast<int>(panel->model()->table().column("kernel_total_ns"));
        panel->view()->sortByColumn(column, Qt::DescendingOrder);
        qlonglong previous = LLONG_MAX, largest = 0;
        for (int r = 0; r < panel->proxy()->rowCount(); ++r) {
            const qlonglong value = panel->proxy()->index(r, column).data(ReportTableModel::kRawRole).toLongLong();
            QVERIFY(value <= previous);
            previous = value;
            largest = std::max(largest, value);
        }
        QCOMPARE(panel->proxy()->index(0, column).data(ReportTableModel::kRawRole).toLongLong(), largest);
    }

    void rowsSelectTheirEventsOnTheTimeline()
    {
        ReportsPanel* panel = m_window->reportsPanel();
        TimelineView* timeline = m_window->timeline();
        // A launch: its kernel, found by rowid.
        QVERIFY(waitForReport(panel, "kernel_launches"));
        const int rowIdColumn = static_cast<int>(panel->model()->table().column("kernel_rowid"));
        panel->view()->selectRow(3);
        QVERIFY(timeline->selectedEvent().has_value());
        const LaneRow& row = timeline->rowOf(*timeline->selectedEvent());
        QCOMPARE(row.kind[timeline->selectedEvent()->index], EventKind::Kernel);
        QCOMPARE(static_cast<qlonglong>(row.sourceRow[timeline->selectedEvent()->index]),
            panel->proxy()->index(3, rowIdColumn).data(ReportTableModel::kRawRole).toLongLong());
        // A kernel name: an instance of it.
        QVERIFY(waitForReport(panel, "kernel_launch"));
        panel->view()->selectRow(0);
        const int nameColumn = static_cast<int>(panel->model()->table().column("name"));
        const QString name = panel->proxy()->index(0, nameColumn).data(ReportTableModel::kRawRole).toString();
        QVERIFY(timeline->selectedEvent().has_value());
        const auto selected = *timeline->selectedEvent();
        QCOMPARE(QString::fromStdString(
                     timeline->trace()->names[timeline->rowOf(selected).fullNameIndex[selected.index] == kSameName
                             ? timeline->rowOf(selected).nameIndex[selected.index]
                             : timeline->rowOf(selected).fullNameIndex[selected.index]]),
            name);
        // A time bucket: the view shows that range.
        QVERIFY(waitForReport(panel, "queue_timeline"));
        panel->view()->selectRow(5);
        const int64_t start = panel->proxy()->index(5, 3).data(ReportTableModel::kRawRole).toLongLong();
        const int64_t width = panel->proxy()->index(5, 4).data(ReportTableModel::kRawRole).toLongLong();
        QVERIFY(timeline->axis().viewStartNs() <= start + width / 10);
        QVERIFY(timeline->axis().viewStartNs() >= start - width);
        // A row with no place on the timeline (a whole stream) changes nothing and says so by returning false.
        QVERIFY(waitForReport(panel, "queue"));
        QVERIFY(!panel->selectRowOnTimeline(0));
    }

    // The counter tracks under the memory ones draw the same step functions the reports summarise: per stream, the
    // track's maximum and time-weighted mean over its span are the queue report's; per copy kind, the track's
    // integral (GB/s over time) is the bandwidth report's bytes.
    void counterTracksAreTheReportsTimeSeries()
    {
        const LoadedTrace* trace = m_window->timeline()->trace();
        QString error;
        const QJsonArray queue = cliRows("queue", QString::fromStdString(trace->path), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!queue.isEmpty());
        for (const QJsonValue& value : queue) {
            const QJsonObject row = value.toObject();
            const QString suffix
                = QString("Queue stream %1, GPU %2").arg(row["stream"].toInteger()).arg(row["device"].toInteger());
            const CounterSeries* track = nullptr;
            for (const CounterSeries& series : trace->counters)
                if (QString::fromStdString(series.title).startsWith(suffix))
                    track = &series;
            QString titles;
            for (const CounterSeries& series : trace->counters)
                titles += QString::fromStdString(series.title) + "; ";
            QVERIFY2(track, qPrintable("no queue track for " + suffix + " among " + titles));
            QCOMPARE(track->unit, CounterUnit::Count);
            QCOMPARE(track->maxBytes, row["max"].toInteger());
            double weighted = 0;
            for (size_t i = 0; i + 1 < track->timeNs.size(); ++i)
                weighted += static_cast<double>(track->allocatedBytes[i])
                    * static_cast<double>(track->timeNs[i + 1] - track->timeNs[i]);
            const double span = static_cast<double>(track->timeNs.back() - track->timeNs.front());
            QCOMPARE(static_cast<qlonglong>(span), row["span_ns"].toInteger());
            QVERIFY(std::abs(weighted / span - row["mean"].toDouble()) < 1e-9 * (1 + row["mean"].toDouble()));
            QCOMPARE(track->allocatedBytes.back(), 0); // the queue drains at the end
        }
        const QJsonArray bandwidth = cliRows("bandwidth", QString::fromStdString(trace->path), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        std::map<QString, std::pair<double, int>> bytesByKind; // bytes, buckets
        for (const QJsonValue& value : bandwidth) {
            const QJsonObject row = value.toObject();
            auto& [bytes, buckets] = bytesByKind[row["operation"].toString() + " (" + row["memory"].toString() + ")"];
            bytes += static_cast<double>(row["bytes"].toInteger());
            ++buckets;
        }
        QVERIFY(!bytesByKind.empty());
        for (const auto& [title, expected] : bytesByKind) {
            const CounterSeries* track = nullptr;
            for (const CounterSeries& series : trace->counters)
                if (QString::fromStdString(series.title) == title)
                    track = &series;
            QVERIFY2(track, qPrintable("no bandwidth track " + title));
            QCOMPARE(track->unit, CounterUnit::BytesPerSecond);
            double bytes = 0;
            for (size_t i = 0; i + 1 < track->timeNs.size(); ++i)
                bytes += static_cast<double>(track->allocatedBytes[i]) / 1e9
                    * static_cast<double>(track->timeNs[i + 1] - track->timeNs[i]);
            // The report rounds each bucket to whole bytes, the track each rate to whole bytes per second.
            QVERIFY2(std::abs(bytes - expected.first) <= expected.second + 1e-6 * expected.first,
                qPrintable(QString("%1: track %2 bytes, report %3")
                               .arg(title)
                               .arg(bytes, 0, 'f', 0)
                               .arg(expected.first, 0, 'f', 0)));
        }
    }

private:
    MainWindow* m_window = nullptr;
    QAbstractItemModelTester* m_tester = nullptr;
};

QTEST_MAIN(ReportsPanelTest)
#include "reports_panel_test.moc"
