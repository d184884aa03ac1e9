// SPDX-License-Identifier: MIT
// The main window between runs and on a small screen (issue 14): window size, dock layout and splitter positions
// come back after a restart (QSettings in a temporary folder, never the user's); temporary trace copies left by a
// GUI that no longer runs are removed at start; at 1366x768 every shown dock and the timeline keep a usable size.
#include "tests/ui/widgets/open_window.h"
#include "ui/graphview/graph_view.h"
#include "ui/jobs/wait_until.h"
#include "ui/placement/placement_session.h"
#include "ui/reports/reports_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/whatif/whatif_lanes_view.h"
#include "ui/whatif/whatif_panel.h"
#include "ui/whatif/whatif_session.h"
#include "ui/window/main_window.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/stat.h>
#include <sys/time.h>

using namespace placescope::ui;
using placescope::ui::testing::showAndOpen;

namespace {

const QString kNsysTrace = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
const QString kAlexNetJson = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";

// Sets a folder's modification time `days` days back.
bool age(const QString& path, int days)
{
    struct timeval times[2];
    gettimeofday(&times[0], nullptr);
    times[0].tv_sec -= days * 86400;
    times[1] = times[0];
    return utimes(QFile::encodeName(path).constData(), times) == 0;
}

} // namespace

class WindowSettingsTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid() && m_temp.isValid());
        // Settings and temporary copies in this test's own folders, whatever the environment says.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        qputenv("TMPDIR", QFile::encodeName(m_temp.path()));
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_window_settings_test");
        QVERIFY2(QSettings().fileName().startsWith(m_settings.path()), qPrintable(QSettings().fileName()));
        QCOMPARE(QDir::tempPath(), QFileInfo(m_temp.path()).canonicalFilePath());
    }

    void sizeDocksAndSplittersComeBackAfterARestart()
    {
        QSettings().clear();
        QList<int> splitterSizes;
        {
            MainWindow window;
            window.show();
            window.resize(1200, 700);
            QVERIFY(waitUntil([&] { return window.size() == QSize(1200, 700); }, 5000));
            auto* problems = window.findChild<QDockWidget*>("dock_Import problems");
            QVERIFY(problems);
            problems->toggleViewAction()->trigger(); // the user closes a panel
            QVERIFY(problems->isHidden());
            auto* splitter = window.findChild<QSplitter*>("findingsSplitter");
            QVERIFY(splitter);
            const int total = splitter->sizes().value(0) + splitter->sizes().value(1);
            QVERIFY(total > 100);
            splitter->setSizes({ total / 5, total - total / 5 });
            splitterSizes = splitter->sizes();
            QVERIFY(window.close());
        }
        QVERIFY(QFileInfo::exists(QSettings().fileName())); // written where the test said, not in the user's folder
        MainWindow again;
        again.show();
        QCOMPARE(again.size(), QSize(1200, 700));
        QVERIFY(again.findChild<QDockWidget*>("dock_Import problems")->isHidden());
        QVERIFY(!again.findChild<QDockWidget*>("dock_Kernels")->isHidden());
        auto* againSplitter = again.findChild<QSplitter*>("findingsSplitter");
        waitUntil([&] { return againSplitter->sizes() == splitterSizes; }, 5000);
        QCOMPARE(againSplitter->sizes(), splitterSizes);
        // A first start (no saved layout) shows every panel again.
        QSettings().clear();
        MainWindow fresh;
        QVERIFY(!fresh.findChild<QDockWidget*>("dock_Import problems")->isHidden());
    }

    void staleTempCopiesAreRemovedAtStart()
    {
        QDir temp(QDir::tempPath());
        // A GUI that was killed: its pid no longer runs (a shell that printed its pid and ended).
        QProcess shell;
        shell.start("sh", { "-c", "sh -c 'echo $$'" });
        QVERIFY(shell.waitForFinished(10000));
        const qint64 pid = shell.readAllStandardOutput().trimmed().toLongLong();
        QVERIFY(pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0);
        const QString stale = QString("placescope-gui-%1-AbC123").arg(pid);
        const QString live = QString("placescope-gui-%1-XyZ789").arg(QCoreApplication::applicationPid());
        for (const QString& name : { stale, live, QString("placescope-gui-OlD123"), QString("placescope-gui-NeW123"),
                 QString("placescope-notes") }) {
            QVERIFY(temp.mkpath(name));
            QFile file(temp.filePath(name + "/copy.sqlite"));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("x");
        }
        QVERIFY(age(temp.filePath("placescope-gui-OlD123"), 2));
        {
            MainWindow window;
            QVERIFY(!temp.exists(stale)); // its owner is gone
            QVERIFY(!temp.exists("placescope-gui-OlD123")); // an older unnamed copy, untouched for two days
            QVERIFY(temp.exists(live)); // a running GUI's (this process)
            QVERIFY(temp.exists("placescope-gui-NeW123")); // unnamed but recent: maybe a running older GUI's
            QVERIFY(temp.exists("placescope-notes")); // not the GUI's
            // The window's own copies go in a folder named with its pid, removed when it closes.
            window.openFile(kAlexNetJson);
            QVERIFY2(window.waitForOpen(120000), qPrintable(window.lastError()));
            const QString copy = QString::fromStdString(window.timeline()->trace()->path);
            QVERIFY2(
                copy.startsWith(temp.filePath(QString("placescope-gui-%1-").arg(QCoreApplication::applicationPid()))),
                qPrintable(copy));
            m_ownCopy = QFileInfo(copy).absolutePath();
            QVERIFY(QFileInfo::exists(copy));
        }
        QVERIFY(!QFileInfo::exists(m_ownCopy));
    }

    void usableOnA1366x768Screen()
    {
        QSettings().clear();
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace, { 1366, 768 }), qPrintable(window.lastError()));
        window.openModel(QString(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx");
        QVERIFY(window.placementSession()->waitForPlan(60000));
        QVERIFY(window.graphView()->waitForLayout(60000));
        QCOMPARE(window.size(), QSize(1366, 768)); // no panel forces the window larger than the screen
        QVERIFY2(window.minimumSizeHint().width() <= 1366 && window.minimumSizeHint().height() <= 768,
            qPrintable(QString("%1x%2").arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));
        const QSize timeline = window.timeline()->size();
        QVERIFY2(timeline.width() >= 600 && timeline.height() >= 250,
            qPrintable(QString("timeline %1x%2").arg(timeline.width()).arg(timeline.height())));
        if (qEnvironmentVariableIsSet("PLACESCOPE_TEST_SCREENSHOT"))
            window.grab().save(qEnvironmentVariable("PLACESCOPE_TEST_SCREENSHOT"));
        int shown = 0;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            if (!dock->isVisible() || dock->visibleRegion().isEmpty())
                continue; // closed, or a tab behind another
            ++shown;
            QVERIFY2(dock->width() >= 250 && dock->height() >= 150,
                qPrintable(QString("%1: %2x%3").arg(dock->windowTitle()).arg(dock->width()).arg(dock->height())));
            const QRect at(dock->mapTo(&window, QPoint(0, 0)), dock->size());
            QVERIFY2(window.rect().contains(at),
                qPrintable(QString("%1 at %2,%3 %4x%5")
                               .arg(dock->windowTitle())
                               .arg(at.x())
                               .arg(at.y())
                               .arg(at.width())
                               .arg(at.height())));
        }
        QVERIFY(shown >= 4); // findings, details, the tables, placement
    }

    void aFirstStartOnASmallScreenIsMaximized()
    {
        // The screen's size plus a title bar would put the status bar below the screen: the first start maximizes.
        QSettings().clear();
        MainWindow window;
        QVERIFY(window.screen());
        const QRect free = window.screen()->availableGeometry();
        QVERIFY2(free.height() < 850 + 80, "the offscreen screen is smaller than the first start's size");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.isMaximized());
        QVERIFY(waitUntil([&] { return free.contains(window.frameGeometry()); }, 10000));
        // A size given before the first show (a test, a screenshot) is kept.
        MainWindow sized;
        sized.resize(700, 500);
        sized.show();
        QVERIFY(QTest::qWaitForWindowExposed(&sized));
        QVERIFY(!sized.isMaximized());
    }

    void theFirstMinuteFitsALaptopScreen_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1600x900") << QSize(1600, 900);
    }

    void theFirstMinuteFitsALaptopScreen()
    {
        // What a new user sees first on a laptop, with fresh settings and a trace but no model: the findings list
        // shows several findings with their saving whole, the Reports dock its name column first, the status bar
        // on screen, no empty Placement panel, and the what-if lanes drawn.
        QFETCH(QSize, size);
        QSettings().clear();
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openFile(kNsysTrace);
        QVERIFY2(window.waitForOpen(60000), qPrintable(window.lastError()));
        QCOMPARE(window.size(), size);
        auto report = [&](const QString& what, const QWidget* w) {
            const QRect at(w->mapTo(&window, QPoint(0, 0)), w->size());
            return qPrintable(QString("%1 at %2,%3 %4x%5 in %6x%7")
                                  .arg(what)
                                  .arg(at.x())
                                  .arg(at.y())
                                  .arg(at.width())
                                  .arg(at.height())
                                  .arg(window.width())
                                  .arg(window.height()));
        };
        auto onScreen = [&](const QWidget* w) {
            return w->isVisible() && window.rect().contains(QRect(w->mapTo(&window, QPoint(0, 0)), w->size()));
        };
        // Findings: at least five rows (or all of them) in view, and the saving column whole.
        auto* findings = window.findChild<QDockWidget*>("dock_Findings")->findChild<QTableView*>();
        QVERIFY(findings && onScreen(findings));
        const int rows = findings->model()->rowCount();
        QVERIFY(rows > 1);
        QVERIFY2(findings->viewport()->height() >= std::min(rows, 5) * findings->rowHeight(0),
            report("findings list", findings));
        const QHeaderView* header = findings->horizontalHeader();
        QVERIFY(!findings->isColumnHidden(2));
        QVERIFY2(header->sectionViewportPosition(2) >= 0
                && header->sectionViewportPosition(2) + header->sectionSize(2) <= findings->viewport()->width(),
            qPrintable(QString("saving column at %1+%2 of %3")
                           .arg(header->sectionViewportPosition(2))
                           .arg(header->sectionSize(2))
                           .arg(findings->viewport()->width())));
        for (int r = 0; r < rows; ++r) {
            const QString saving = findings->model()->index(r, 2).data().toString();
            QVERIFY2(findings->fontMetrics().horizontalAdvance(saving) < header->sectionSize(2), qPrintable(saving));
        }
        // The status bar on screen, and the window inside the screen's free area.
        QVERIFY2(onScreen(window.statusBar()), report("status bar", window.statusBar()));
        // No model open: no Placement panel of "n/a"s.
        auto* placement = window.findChild<QDockWidget*>("dock_placement");
        QVERIFY2(!placement->isVisible() || placement->visibleRegion().isEmpty(), report("placement", placement));
        // The what-if lanes drawn, with room for a few rows.
        QVERIFY2(window.whatIfSession()->waitForRun(120000), qPrintable(window.whatIfSession()->lastError()));
        WhatIfLanesView* lanes = window.whatIfPanel()->lanesView();
        QVERIFY(waitUntil([&] { return lanes->lastDrawCount() > 0; }, 30000));
        if (qEnvironmentVariableIsSet("PLACESCOPE_TEST_SCREENSHOT"))
            window.grab().save(qEnvironmentVariable("PLACESCOPE_TEST_SCREENSHOT")
                + QString("_%1x%2.png").arg(size.width()).arg(size.height()));
        QVERIFY2(!lanes->visibleRegion().isEmpty() && lanes->visibleRegion().boundingRect().height() >= 60,
            report("what-if lanes", lanes));
        // Reports: a report with its name last in the CLI's text shows it first, in view.
        auto* reportsDock = window.findChild<QDockWidget*>("dock_reports");
        reportsDock->raise();
        QSignalSpy shown(window.reportsPanel(), &ReportsPanel::reportShown);
        QVERIFY(window.reportsPanel()->showReport("kernel_launch"));
        QVERIFY(shown.count() > 0 || shown.wait(60000));
        QTableView* table = window.reportsPanel()->view();
        QVERIFY(onScreen(table));
        const int nameColumn = table->model()->columnCount() - 1;
        QCOMPARE(table->model()->headerData(nameColumn, Qt::Horizontal).toString(), QString("Name"));
        QCOMPARE(table->horizontalHeader()->visualIndex(nameColumn), 0);
        QVERIFY(table->horizontalHeader()->sectionViewportPosition(nameColumn) == 0
            && table->horizontalHeader()->sectionSize(nameColumn) >= 150);
    }

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_temp;
    QString m_ownCopy;
};

QTEST_MAIN(WindowSettingsTest)
#include "window_settings_test.moc"
