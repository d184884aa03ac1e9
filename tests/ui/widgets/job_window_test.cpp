// SPDX-License-Identifier: MIT
// The job window on a synthetic job (tests/support/job) mapped through the library: 8 ranks on two hosts whose clocks
// differ by 4 ms, rank 6 planted as the straggler. The heatmap has a row per rank in numeric order and a column per
// step, marks rank 6 in every step, colours the slowest rank of a step darkest, and a cell opens that rank's trace with
// its timeline framing that step on the rank's own clock. A folder that is not a job fails in one line.
#include "analysis/job/job_folder.h"
#include "analysis/job/job_reduce.h"
#include "analysis/job/job_tables.h"
#include "tests/support/job/map_synthetic_job.h"
#include "ui/job/job_heatmap_model.h"
#include "ui/job/job_window.h"
#include "ui/jobs/wait_until.h"
#include "ui/reports/report_table_model.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QTemporaryDir>
#include <QtTest>

using namespace placescope;
using namespace placescope::ui;

class JobWindowTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_spec.ranks = 8;
        m_spec.steps = 3;
        m_spec.ranksPerHost = 4;
        m_spec.stragglerRank = 6;
        m_spec.stragglerDelayNs = 1'500'000;
        m_spec.hostClockOffsetNs = 4'000'000;
        auto manifest
            = testing::mapSyntheticJob(m_spec, m_dir.filePath("in").toStdString(), m_dir.filePath("job").toStdString());
        QVERIFY2(manifest.isOk(), manifest.status().message().c_str());
    }

    void heatmapMarksTheCulprit()
    {
        JobWindow window;
        QAbstractItemModelTester heatmapTester(window.heatmapModel());
        QAbstractItemModelTester collectivesTester(window.collectivesModel());
        QSignalSpy loaded(&window, &JobWindow::jobLoaded);
        QVERIFY(JobWindow::isJobFolder(m_dir.filePath("job")));
        window.openJob(m_dir.filePath("job"));
        QVERIFY(waitUntil([&] { return !loaded.isEmpty(); }, 120000));
        QCOMPARE(loaded.first().first().toBool(), true);
        JobHeatmapModel* model = window.heatmapModel();
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(model->columnCount(), 3);
        for (int row = 0; row < 8; ++row)
            QCOMPARE(model->headerData(row, Qt::Vertical).toString(), QString::number(row));
        for (int column = 0; column < 3; ++column)
            for (int row = 0; row < 8; ++row)
                QCOMPARE(
                    model->index(row, column).data().toString() == QString::fromUtf8(JobHeatmapModel::kCulpritMark),
                    row == 6);
        QVERIFY(window.verdict().startsWith("Rank 6 arrived last and waited least in 3 of 3 steps"));
        // The CLI's verdict word for word (one code path), with the what-if of the straggler at the median rank.
        auto reduced = reduceJob(
            summaryPaths(m_dir.filePath("job").toStdString(), *readJobManifest(m_dir.filePath("job").toStdString())));
        QVERIFY(reduced.isOk());
        QVERIFY(window.verdict().startsWith(QString::fromStdString(jobVerdict(*reduced))));
        QVERIFY(window.verdict().contains("Were rank 6 as fast as the median rank, each step's collectives would end "
                                          "1.50 ms sooner on every rank"));
        QCOMPARE(window.collectivesModel()->rowCount(), m_spec.steps * m_spec.collectivesPerStep);
        // Wait: the straggler waited least, so its cell is the palest; rank 0 waited the 1.5 ms.
        model->setMetric(JobHeatmapModel::Metric::Wait);
        const QColor straggler = model->index(6, 0).data(Qt::BackgroundRole).value<QColor>();
        const QColor waiter = model->index(0, 0).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY2(straggler.green() > waiter.green(), "the culprit waited least: palest");
        QVERIFY(model->index(0, 0).data(JobHeatmapModel::kRawRole).toLongLong() >= 1'500'000);
        QVERIFY(model->index(6, 0).data(JobHeatmapModel::kRawRole).toLongLong() < 100'000); // jitter waits only
    }

    void aJobWithMissingRanksSaysWhichUnderTheVerdict()
    {
        testing::SyntheticJobSpec spec = m_spec;
        spec.leaveOut = { 2 };
        const std::string job = m_dir.filePath("job_missing").toStdString();
        auto manifest = testing::mapSyntheticJob(spec, m_dir.filePath("in_missing").toStdString(), job);
        QVERIFY2(manifest.isOk(), manifest.status().message().c_str());
        JobWindow window;
        QSignalSpy loaded(&window, &JobWindow::jobLoaded);
        window.openJob(QString::fromStdString(job));
        QVERIFY(waitUntil([&] { return !loaded.isEmpty(); }, 120000));
        QCOMPARE(window.heatmapModel()->rowCount(), 7);
        QVERIFY2(window.verdict().contains("missing ranks (no trace or its import failed): 2 of 8"),
            qPrintable(window.verdict()));
    }

    void aCellOpensThatRanksTimelineAtThatStep()
    {
        JobWindow window;
        QSignalSpy loaded(&window, &JobWindow::jobLoaded);
        window.openJob(m_dir.filePath("job"));
        QVERIFY(waitUntil([&] { return !loaded.isEmpty(); }, 120000));
        MainWindow* opened = window.openCell(5, 1); // rank 5, on the second host, step 1
        QVERIFY(opened);
        QVERIFY2(opened->waitForOpen(120000), qPrintable(opened->lastError()));
        QVERIFY(waitUntil([&] { return opened->timeline()->hasRange(); }, 60000));
        const int64_t stepStart = testing::syntheticStepStartNs(m_spec, 1) + testing::syntheticClockOffsetNs(m_spec, 5);
        QCOMPARE(opened->timeline()->rangeStartNs(), stepStart);
        QVERIFY(opened->timeline()->rangeEndNs() > stepStart);
        opened->close();
    }

    void aSecondJobOpenedDropsTheFirstsResult()
    {
        // The not-a-job folder fails fast, but it was superseded before its result could arrive: only the real
        // job's result reaches the window (the JobTracker's generation rule).
        JobWindow window;
        QSignalSpy loaded(&window, &JobWindow::jobLoaded);
        window.openJob(m_dir.filePath("in"));
        window.openJob(m_dir.filePath("job"));
        QVERIFY(waitUntil([&] { return !loaded.isEmpty(); }, 120000));
        QCOMPARE(loaded.first().first().toBool(), true);
        QVERIFY(window.lastError().isEmpty());
        QCOMPARE(window.heatmapModel()->rowCount(), 8);
        // Nothing else arrives: open a third, failing one and wait for it; it is the second signal, not a stale one.
        window.openJob(m_dir.filePath("in"));
        QVERIFY(waitUntil([&] { return loaded.count() == 2; }, 60000));
        QCOMPARE(loaded.at(1).first().toBool(), false);
    }

    void aFolderThatIsNotAJobFailsInOneLine()
    {
        JobWindow window;
        QSignalSpy loaded(&window, &JobWindow::jobLoaded);
        QVERIFY(!JobWindow::isJobFolder(m_dir.filePath("in")));
        window.openJob(m_dir.filePath("in"));
        QVERIFY(waitUntil([&] { return !loaded.isEmpty(); }, 60000));
        QCOMPARE(loaded.first().first().toBool(), false);
        QVERIFY(window.lastError().contains("is not a job folder"));
        QCOMPARE(window.heatmapModel()->rowCount(), 0);
    }

private:
    QTemporaryDir m_dir;
    testing::SyntheticJobSpec m_spec;
};

QTEST_MAIN(JobWindowTest)
#include "job_window_test.moc"
