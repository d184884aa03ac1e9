// SPDX-License-Identifier: MIT
// Getting around as Perfetto and Nsight Systems users expect (issue 14), on the real main window, offscreen:
// keys, wheel, tables -> timeline, the Details panel and its links, the findings' detail pane, menus.
#include "profiler/base/units.h"
#include "profiler/store/sqlite_db.h"
#include "tests/ui/widgets/open_window.h"
#include "ui/compare/compare_window.h"
#include "ui/graphview/graph_view.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/event_details_view.h"
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QDialog>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

#include <algorithm>

using namespace placescope::ui;
using placescope::ui::testing::showAndOpen;

namespace {

const QString kNsysTrace = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
const QString kAlexNetJson = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";
const QString kAlexNet = kAlexNetJson;
const QString kNcclTrace = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_nccl_a100_rank0of2_layout.json.gz";
const QString kV100Memory = QString(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz";

QTableView* tableOf(MainWindow& window, const QString& dockTitle)
{
    auto* dock = window.findChild<QDockWidget*>("dock_" + dockTitle);
    return dock ? dock->findChild<QTableView*>() : nullptr;
}

// Clicks a table's row with the mouse (its first cell), as a user does.
void clickRow(QTableView* view, int row)
{
    view->scrollTo(view->model()->index(row, 0));
    const QRect cell = view->visualRect(view->model()->index(row, 0));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
}

// Clicks the first link of a text browser whose href starts with `prefix`; false when there is none.
bool clickLink(QTextBrowser* browser, const QString& prefix, QString* href = nullptr)
{
    QTextDocument* doc = browser->document();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().anchorHref().startsWith(prefix))
                continue;
            QTextCursor cursor(doc);
            cursor.setPosition(fragment.position() + std::max(1, fragment.length() / 2));
            browser->setTextCursor(cursor);
            browser->ensureCursorVisible();
            const QPoint at = browser->cursorRect(cursor).center();
            if (href)
                *href = fragment.charFormat().anchorHref();
            QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, at);
            return true;
        }
    }
    return false;
}

QString nameOf(const TimelineView& timeline, const TimelineView::EventRef& ref, bool full)
{
    const LaneRow& row = timeline.rowOf(ref);
    return QString::fromStdString(
        timeline.trace()->names[full ? row.fullNameIndex[ref.index] : row.nameIndex[ref.index]]);
}

} // namespace

class NavigationTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_navigation_test");
    }

    void wasdWorkWheneverTheWindowIsActiveButNotInTheSearchBox()
    {
        MainWindow window;
        window.resize(1200, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.openFile(kNsysTrace);
        QVERIFY2(window.waitForOpen(60000), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        // Focus in a table, not the timeline: W still zooms in, S out, D pans.
        QTableView* kernels = tableOf(window, "Kernels");
        kernels->setFocus();
        QVERIFY(!timeline->hasFocus());
        const double fitted = timeline->axis().nsPerPixel();
        QTest::keyClick(kernels, Qt::Key_W);
        QVERIFY(timeline->axis().nsPerPixel() < fitted);
        const double zoomed = timeline->axis().nsPerPixel();
        QTest::keyClick(kernels, Qt::Key_S);
        QVERIFY(timeline->axis().nsPerPixel() > zoomed);
        QTest::keyClick(kernels, Qt::Key_W);
        QTest::keyClick(kernels, Qt::Key_W);
        const int64_t start = timeline->axis().viewStartNs();
        QTest::keyClick(kernels, Qt::Key_D);
        QVERIFY(timeline->axis().viewStartNs() > start);
        QTest::keyClick(kernels, Qt::Key_A);
        QCOMPARE(timeline->axis().viewStartNs(), start);

        // W zooms at the mouse: the time under the cursor stays under it.
        const QPoint at(TimelineView::kHeaderWidth + 150, 80);
        QTest::mouseMove(timeline, at);
        const int64_t underMouse = timeline->axis().timeForX(150);
        QTest::keyClick(timeline, Qt::Key_W);
        QVERIFY(std::abs(timeline->axis().timeForX(150) - underMouse) <= timeline->axis().nsPerPixel() * 2 + 1);
        QVERIFY(timeline->axis().viewStartNs() != start);

        // Typed into the search box, the letters are text and the timeline does not move.
        QLineEdit* search = nullptr;
        for (QLineEdit* edit : window.findChildren<QLineEdit*>())
            if (edit->placeholderText().startsWith("Search"))
                search = edit;
        QVERIFY(search);
        search->setFocus();
        const double before = timeline->axis().nsPerPixel();
        const int64_t beforeStart = timeline->axis().viewStartNs();
        QTest::keyClicks(search, "wasd");
        QCOMPARE(search->text(), QString("wasd"));
        QCOMPARE(timeline->axis().nsPerPixel(), before);
        QCOMPARE(timeline->axis().viewStartNs(), beforeStart);
    }

    void ctrlWheelZoomsAndTheWheelScrollsLanes()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kAlexNet, { 1200, 700 }), qPrintable(window.lastError()));
        // The window's trace in a timeline lower than its lanes (shares it; the window outlives the view).
        TimelineView view;
        TimelineView* timeline = &view;
        view.setTrace(std::shared_ptr<const LoadedTrace>(std::shared_ptr<void>(), window.timeline()->trace()));
        view.resize(1000, 220);
        view.show();
        QVERIFY(!timeline->wheelZooms()); // Perfetto's mapping by default
        auto* vbar = timeline->findChild<QScrollBar*>();
        QVERIFY(vbar);
        QVERIFY(waitUntil([&] { return vbar->maximum() > 0; }, 5000));
        const QPoint at(TimelineView::kHeaderWidth + 200, 100);
        const double scale = timeline->axis().nsPerPixel();
        const int64_t start = timeline->axis().viewStartNs();
        QWheelEvent wheel(at, timeline->mapToGlobal(at), QPoint(), QPoint(0, -240), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(timeline, &wheel);
        QVERIFY(vbar->value() > 0); // scrolled down the lanes
        QCOMPARE(timeline->axis().nsPerPixel(), scale);
        QCOMPARE(timeline->axis().viewStartNs(), start);
        const int64_t underCursor = timeline->axis().timeForX(200);
        QWheelEvent ctrlWheel(at, timeline->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton,
            Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(timeline, &ctrlWheel);
        QVERIFY(timeline->axis().nsPerPixel() < scale);
        QVERIFY(std::abs(timeline->axis().timeForX(200) - underCursor) <= timeline->axis().nsPerPixel() + 1);
        // The former mapping, as an option: the wheel alone zooms.
        timeline->setWheelZooms(true);
        const double zoomed = timeline->axis().nsPerPixel();
        QWheelEvent plain(at, timeline->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(timeline, &plain);
        QVERIFY(timeline->axis().nsPerPixel() < zoomed);
        timeline->setWheelZooms(false);
    }

    void frameClearMarkAndTheShortcutList()
    {
        MainWindow window;
        window.resize(1200, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.openFile(kNsysTrace);
        QVERIFY(window.waitForOpen(60000));
        TimelineView* timeline = window.timeline();
        QVERIFY(timeline->findNext("cudaMemcpy", true));
        const auto selected = *timeline->selectedEvent();
        const LaneRow& row = timeline->rowOf(selected);
        const int64_t start = row.startNs[selected.index], end = row.endNs[selected.index];
        QTest::keyClick(&window, Qt::Key_F);
        // Framed: the event fills most of the view and all of it is inside.
        const double width = timeline->width() - TimelineView::kHeaderWidth;
        QVERIFY(timeline->axis().viewStartNs() <= start);
        QVERIFY(timeline->axis().timeForX(width - 20) >= end);
        QVERIFY((end - start) / timeline->axis().nsPerPixel() > width / 2);
        QSignalSpy range(timeline, &TimelineView::rangeSelected);
        QTest::keyClick(&window, Qt::Key_M);
        QCOMPARE(range.count(), 1);
        QVERIFY(timeline->hasRange());
        QCOMPARE(timeline->rangeStartNs(), start);
        QCOMPARE(timeline->rangeEndNs(), end);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!timeline->selectedEvent());
        QVERIFY(!timeline->hasRange());
        QTest::keyClick(&window, Qt::Key_Question);
        auto* list = timeline->findChild<QDialog*>("timelineShortcuts");
        QVERIFY(list && list->isVisible());
        for (const char* key : { "W", "A", "S", "D", "F", "M", "Esc" })
            QVERIFY2(list->findChild<QLabel*>()->text().contains(QString("<b>%1</b>").arg(key)), key);
        list->close();
        // The Help menu lists the same keys; the View menu toggles every dock.
        auto* help = window.menuBar()->findChild<QMenu*>("menu_help");
        QVERIFY(help);
        const QList<QAction*> helpActions = help->actions();
        QVERIFY(std::any_of(helpActions.begin(), helpActions.end(),
            [](QAction* a) { return a->shortcut() == QKeySequence(Qt::Key_W); }));
        auto* view = window.menuBar()->findChild<QMenu*>("menu_view");
        QVERIFY(view);
        QStringList toggles;
        for (QMenu* menu : view->findChildren<QMenu*>())
            for (QAction* action : menu->actions())
                toggles << action->text();
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            QVERIFY2(toggles.contains(dock->windowTitle()), qPrintable(dock->windowTitle()));
    }

    void aKernelRowSelectsFramesAndListsItsTemplatedInstances()
    {
        // Kineto kernel names are templates ("void at::native::...<float, 4>(...)"): the row's full name must find
        // exactly its own instances, not the kernels that share a short name or a substring.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kAlexNet, { 1400, 800 }), qPrintable(window.lastError()));
        QTableView* kernels = tableOf(window, "Kernels");
        QVERIFY(kernels);
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(kernels->model());
        int templated = -1;
        for (int r = 0; r < proxy->rowCount() && templated < 0; ++r)
            if (proxy->index(r, 0).data().toString().contains('<')
                && proxy->index(r, 1).data(TableModel::kRawRole).toLongLong() > 1)
                templated = r;
        QVERIFY(templated >= 0);
        const QString name = proxy->index(templated, 0).data().toString();
        const qlonglong count = proxy->index(templated, 1).data(TableModel::kRawRole).toLongLong();
        clickRow(kernels, templated);
        TimelineView* timeline = window.timeline();
        const auto selected = timeline->selectedEvent();
        QVERIFY(selected);
        QCOMPARE(nameOf(*timeline, *selected, true), name);
        QVERIFY(nameOf(*timeline, *selected, false) != name); // the short name is what the lane shows
        QCOMPARE(static_cast<qlonglong>(timeline->eventsNamed(name).size()), count); // as many as the table says
        // Framed on screen.
        const LaneRow& row = timeline->rowOf(*selected);
        QVERIFY(timeline->axis().viewStartNs() <= row.startNs[selected->index]);
        QVERIFY(
            timeline->axis().viewEndNs(timeline->width() - TimelineView::kHeaderWidth) >= row.endNs[selected->index]);
        // Enter on the same row walks to the next instance, later in time.
        QTest::keyClick(kernels, Qt::Key_Return);
        const auto next = timeline->selectedEvent();
        QVERIFY(next && !(*next == *selected));
        QVERIFY(timeline->rowOf(*next).startNs[next->index] >= row.startNs[selected->index]);

        // Double-click lists the instances, longest first, and a row of the list selects that instance.
        const QRect cell = kernels->visualRect(proxy->index(templated, 0));
        QTest::mouseDClick(kernels->viewport(), Qt::LeftButton, {}, cell.center());
        auto* dialog = window.findChild<QDialog*>("instances:" + name);
        QVERIFY(dialog && dialog->isVisible());
        auto* list = dialog->findChild<QTableView*>();
        QAbstractItemModelTester tester(list->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(list->model()->rowCount(), static_cast<int>(count));
        const double maxNs = proxy->index(templated, 5).data(TableModel::kRawRole).toDouble();
        QCOMPARE(list->model()->index(0, 1).data(TableModel::kRawRole).toDouble(), maxNs);
        QCOMPARE(
            list->model()->index(0, 1).data().toString(), QString::fromStdString(placescope::formatNanoseconds(maxNs)));
        for (int r = 1; r < list->model()->rowCount(); ++r)
            QVERIFY(list->model()->index(r, 1).data(TableModel::kRawRole).toDouble()
                <= list->model()->index(r - 1, 1).data(TableModel::kRawRole).toDouble());
        clickRow(list, 0);
        const auto longest = timeline->selectedEvent();
        QVERIFY(longest);
        QCOMPARE(static_cast<double>(timeline->rowOf(*longest).durationNs(longest->index)), maxNs);
    }

    void detailsPanelShowsTheKernelAndItsLinksJump()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kAlexNet), qPrintable(window.lastError()));
        auto* details = window.findChild<QTextBrowser*>("eventDetails");
        QVERIFY(details && details->isVisible());
        QTableView* kernels = tableOf(window, "Kernels");
        clickRow(kernels, 0);
        TimelineView* timeline = window.timeline();
        const auto kernel = timeline->selectedEvent();
        QVERIFY(kernel);
        const LaneRow& row = timeline->rowOf(*kernel);
        const QString text = details->toPlainText();
        QVERIFY2(text.contains(nameOf(*timeline, *kernel, false)), qPrintable(text));
        QVERIFY2(text.contains(nameOf(*timeline, *kernel, true)), qPrintable(text)); // full name too
        QVERIFY2(text.contains(QString::fromStdString(placescope::formatNanoseconds(row.durationNs(kernel->index)))),
            qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(
                     placescope::formatNanoseconds(row.startNs[kernel->index] - timeline->trace()->firstNs))),
            qPrintable(text));
        for (const char* key : { "Grid", "Block", "Registers per thread", "Shared memory", "Correlation id", "stream",
                 "Launched by", "Launching op and its callers" })
            QVERIFY2(text.contains(key), qPrintable(QString(key) + " missing in:\n" + text));
        QVERIFY(text.contains(QString::number(row.correlationId[kernel->index])));

        // The launch link selects the runtime call of the same correlation id, which links back to the kernel.
        QVERIFY(clickLink(details, "event:"));
        const auto launch = timeline->selectedEvent();
        QVERIFY(launch && !(*launch == *kernel));
        QCOMPARE(timeline->rowOf(*launch).kind[launch->index], EventKind::Runtime);
        QCOMPARE(timeline->rowOf(*launch).correlationId[launch->index], row.correlationId[kernel->index]);
        QVERIFY2(details->toPlainText().contains("Launched"), qPrintable(details->toPlainText()));
        QString href;
        QVERIFY(clickLink(details, "event:", &href));
        QCOMPARE(*timeline->selectedEvent(), *kernel);

        // An op from the Ops table: its shapes and the GPU work it launched, each a link.
        QTableView* ops = tableOf(window, "Ops");
        QVERIFY(ops && ops->model()->rowCount() > 0);
        auto* opsProxy = ops->model();
        int conv = -1;
        for (int r = 0; r < opsProxy->rowCount(); ++r)
            if (opsProxy->index(r, 0).data().toString() == "aten::conv2d")
                conv = r;
        QVERIFY(conv >= 0);
        window.findChild<QDockWidget*>("dock_Ops")->raise();
        clickRow(ops, conv);
        const auto op = timeline->selectedEvent();
        QVERIFY(op);
        QCOMPARE(nameOf(*timeline, *op, false), QString("aten::conv2d"));
        const QString opText = details->toPlainText();
        QVERIFY2(opText.contains("GPU work launched (") && opText.contains("External id") && opText.contains("cpu_op"),
            qPrintable(opText));
        QString launchedHref;
        QVERIFY(clickLink(details, "event:", &launchedHref));
        QVERIFY2(
            timeline->trace()->lanes[static_cast<size_t>(timeline->selectedEvent()->lane)].group == Lane::Group::Device,
            qPrintable(launchedHref + " selected " + nameOf(*timeline, *timeline->selectedEvent(), false) + " "
                + EventDetailsView::linkFor(*timeline->selectedEvent()) + " in:\n" + opText));
    }

    void aRangeSelectionShowsATablePerName()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kAlexNet), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        // Its import problems lose nothing (unpaired flows): no warning that it opened in part.
        QVERIFY(timeline->trace()->problemCount > 0);
        QVERIFY(!window.statusBar()->findChild<QLabel*>()->text().contains("opened in part"));
        const int y = TimelineView::kRulerHeight + 5;
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(TimelineView::kHeaderWidth + 10, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(timeline->width() - 40, y),
            timeline->mapToGlobal(QPointF(timeline->width() - 40, y)), Qt::LeftButton, Qt::LeftButton,
            Qt::ShiftModifier);
        QApplication::sendEvent(timeline, &move);
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(timeline->width() - 40, y));
        auto* details = window.findChild<QTextBrowser*>("eventDetails");
        const QString text = details->toPlainText();
        QVERIFY2(text.startsWith("Range of"), qPrintable(text));
        QVERIFY2(text.contains("Count") && text.contains("Self") && text.contains("aten::conv2d"), qPrintable(text));
        // Self time of a nesting op is less than its total (its children ran inside it).
        const QStringList lines = text.split('\n');
        const qsizetype conv = lines.indexOf("aten::conv2d"); // name, count, total, self: a cell per line
        QVERIFY(conv > 0 && conv + 3 < lines.size());
        QVERIFY2(lines[conv + 1].toInt() >= 1, qPrintable(lines[conv + 1]));
        QVERIFY2(lines[conv + 2] != lines[conv + 3], qPrintable(lines[conv + 2] + " " + lines[conv + 3]));
    }

    void aFindingsFixComesFirstInTheFrameworkThatWroteTheTrace()
    {
        // The placement panel says PyTorch (its default); the trace says JAX (XPlane without TensorFlow ops) or
        // TensorFlow (XPlane with them), and the trace wins. Checked against the pane's text, not the code's choice.
        const std::pair<QString, QString> cases[]
            = { { QString(PLACESCOPE_DATA_DIR) + "/traces/jax08_conv3d_mi300x8.xplane.pb", "JAX" },
                  { QString(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.xplane.pb", "TensorFlow" },
                  { kAlexNetJson, "PyTorch" } };
        for (const auto& [file, framework] : cases) {
            MainWindow window;
            QVERIFY2(showAndOpen(window, file), qPrintable(window.lastError()));
            QTableView* findings = tableOf(window, "Findings");
            QVERIFY(findings && findings->model()->rowCount() > 0);
            clickRow(findings, 0);
            const QString text = window.findChild<QTextBrowser*>("findingDetails")->toPlainText();
            const qsizetype first = text.indexOf("Fix (");
            QVERIFY2(first >= 0 && text.indexOf("Fix (" + framework + ")") == first, qPrintable(file + ": " + text));
            QVERIFY2(text.contains("In ") && text.indexOf("In ") > first, qPrintable(text));
        }
    }

    void findingsSortBySavingAndTheirPaneZoomsToEvidence()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace), qPrintable(window.lastError()));
        QTableView* findings = tableOf(window, "Findings");
        QVERIFY(findings && findings->model()->rowCount() > 1);
        for (int r = 1; r < findings->model()->rowCount(); ++r)
            QVERIFY(findings->model()->index(r, 2).data(TableModel::kRawRole).toDouble()
                <= findings->model()->index(r - 1, 2).data(TableModel::kRawRole).toDouble());
        auto* pane = window.findChild<QTextBrowser*>("findingDetails");
        QVERIFY(pane && pane->isVisible());
        clickRow(findings, 0);
        const QString text = pane->toPlainText();
        QVERIFY2(text.contains(findings->model()->index(0, 0).data().toString()), qPrintable(text));
        QVERIFY2(
            text.contains("Saving:") && (text.contains("Fix (PyTorch)") || text.contains("Fix (")), qPrintable(text));
        // An evidence link zooms the timeline to its events.
        window.timeline()->zoomToFit();
        const double fitted = window.timeline()->axis().nsPerPixel();
        QString href;
        QVERIFY(clickLink(pane, "range:", &href));
        const QStringList parts = QUrl(href).path().split(':');
        const int64_t from = parts[0].toLongLong(), to = parts[1].toLongLong();
        QVERIFY(window.timeline()->hasRange());
        QCOMPARE(window.timeline()->rangeStartNs(), from);
        QCOMPARE(window.timeline()->rangeEndNs(), to);
        QVERIFY(window.timeline()->axis().nsPerPixel() < fitted);
    }

    void anEvidenceLinkFillsDetailsWithItsGapAndTheHostThreads()
    {
        // Eight GPUs: the idle finding's gaps lie on several of them, each link names its GPU and its own time, and a
        // click fills the Details panel with that gap (its GPU, start, duration) and what each host thread did.
        MainWindow window;
        QVERIFY2(showAndOpen(window, QString(PLACESCOPE_DATA_DIR) + "/traces/jax08_conv3d_mi300x8.xplane.pb"),
            qPrintable(window.lastError()));
        QTableView* findings = tableOf(window, "Findings");
        auto* pane = window.findChild<QTextBrowser*>("findingDetails");
        // The finding with idle gaps among its evidence; every gap link: its href and its text.
        QMap<QString, QString> links; // href -> shown text
        for (int r = 0; r < findings->model()->rowCount() && links.isEmpty(); ++r) {
            clickRow(findings, r);
            QTextDocument* doc = pane->document();
            for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
                for (auto it = block.begin(); !it.atEnd(); ++it) {
                    const QString href = it.fragment().charFormat().anchorHref();
                    if (QUrl(href).fragment(QUrl::FullyDecoded).startsWith("idle gaps"))
                        links.insert(href, it.fragment().text());
                }
        }
        QVERIFY2(links.size() > 1, qPrintable(pane->toPlainText()));
        QSet<QString> gpus, texts;
        for (auto it = links.begin(); it != links.end(); ++it) {
            const QString what = QUrl(it.key()).fragment(QUrl::FullyDecoded);
            const QString gpu = what.section(": ", -1);
            QVERIFY2(gpu.startsWith("GPU ") && it.value().startsWith(gpu + " at "), qPrintable(it.value()));
            gpus.insert(gpu);
            texts.insert(it.value());
        }
        QVERIFY2(gpus.size() > 1, qPrintable(QStringList(gpus.values()).join(", "))); // not one GPU for all
        QCOMPARE(texts.size(), links.size()); // each link reads apart by its time
        // Click the last link (not the one selecting the finding already showed).
        const QString href = links.lastKey();
        QVERIFY(clickLink(pane, href));
        const QStringList parts = QUrl(href).path().split(':');
        const int64_t from = parts[0].toLongLong(), to = parts[1].toLongLong();
        QCOMPARE(window.timeline()->rangeStartNs(), from);
        QCOMPARE(window.timeline()->rangeEndNs(), to);
        auto* details = window.findChild<QTextBrowser*>("eventDetails");
        const QString text = details->toPlainText();
        const LoadedTrace* trace = window.timeline()->trace();
        QVERIFY2(text.startsWith(QUrl(href).fragment(QUrl::FullyDecoded)), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(placescope::formatNanoseconds(static_cast<double>(to - from)))),
            qPrintable(text));
        QVERIFY2(text.contains(
                     QString::fromStdString(placescope::formatNanoseconds(static_cast<double>(from - trace->firstNs)))),
            qPrintable(text));
        // The link's own time is the Details panel's start.
        QVERIFY2(links.last().contains(
                     QString::fromStdString(placescope::formatNanoseconds(static_cast<double>(from - trace->firstNs)))),
            qPrintable(links.last()));
        QVERIFY2(text.contains("Host threads"), qPrintable(text));
        int hostLanes = 0;
        for (const Lane& lane : trace->lanes)
            if (lane.group == Lane::Group::Host && !lane.rows.empty()) {
                ++hostLanes;
                QVERIFY2(text.contains(QString::fromStdString(lane.title)), lane.title.c_str());
            }
        QVERIFY(hostLanes > 0);
        QVERIFY2(text.contains("busy ") || text.contains("idle"), qPrintable(text));
        // A range drawn by hand afterwards is no longer the gap: Details heads it as a plain range.
        window.timeline()->zoomToFit();
        const int y = TimelineView::kRulerHeight + 5;
        QTest::mousePress(
            window.timeline(), Qt::LeftButton, Qt::ShiftModifier, QPoint(TimelineView::kHeaderWidth + 50, y));
        QTest::mouseMove(window.timeline(), QPoint(TimelineView::kHeaderWidth + 200, y));
        QTest::mouseRelease(
            window.timeline(), Qt::LeftButton, Qt::ShiftModifier, QPoint(TimelineView::kHeaderWidth + 200, y));
        QVERIFY2(details->toPlainText().startsWith("Range of"), qPrintable(details->toPlainText()));
    }

    void aMemoryFindingSelectsTheMemoryTrackAtItsPeak()
    {
        // The V100 trace's memory peaks far below its 32 GB; the same trace with the GPU's recorded capacity set just
        // above its peak raises the memory.peak finding, whose row must select the memory track at that peak.
        QTemporaryDir dir;
        const QString copy = dir.filePath("v100_full.sqlite");
        int64_t peak = 0;
        {
            MainWindow importer;
            importer.openFile(kV100Memory);
            QVERIFY2(importer.waitForOpen(120000), qPrintable(importer.lastError()));
            QVERIFY(QFile::copy(QString::fromStdString(importer.timeline()->trace()->path), copy));
            for (const CounterSeries& series : importer.timeline()->trace()->counters) {
                if (series.unit != CounterUnit::Bytes)
                    continue; // the reports' queue and bandwidth tracks
                const size_t i = TimelineView::counterPeak(series);
                peak = std::max({ peak, series.allocatedBytes[i], series.reservedBytes[i] });
            }
        }
        QVERIFY(peak > 0);
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        {
            auto db = placescope::SqliteDb::open(copy.toStdString(), placescope::SqliteDb::Mode::ReadWrite);
            QVERIFY(db.isOk());
            QVERIFY(
                db.value().exec("UPDATE TARGET_INFO_GPU SET totalMemory = " + std::to_string(peak * 100 / 95)).isOk());
        }
        MainWindow window;
        QVERIFY2(showAndOpen(window, copy), qPrintable(window.lastError()));
        QTableView* findings = tableOf(window, "Findings");
        int row = -1;
        for (int r = 0; r < findings->model()->rowCount() && row < 0; ++r)
            if (findings->model()->index(r, 0).data().toString().startsWith("Peak memory is"))
                row = r;
        QVERIFY2(row >= 0, "no memory.peak finding on the trace with its capacity just above its peak");
        TimelineView* timeline = window.timeline();
        timeline->zoomToFit();
        const double fitted = timeline->axis().nsPerPixel();
        QVERIFY(!timeline->selectedCounter());
        clickRow(findings, row);
        const auto mark = timeline->selectedCounter();
        QVERIFY(mark);
        const CounterSeries& series = timeline->trace()->counters[static_cast<size_t>(mark->series)];
        // The marked sample is the track's peak, at the time the finding names (its evidence link).
        QCOMPARE(std::max(series.allocatedBytes[mark->sample], series.reservedBytes[mark->sample]), peak);
        QString href;
        QVERIFY(clickLink(window.findChild<QTextBrowser*>("findingDetails"), "range:", &href));
        const QStringList parts = QUrl(href).path().split(':');
        QCOMPARE(parts[0].toLongLong(), series.timeNs[mark->sample]);
        QCOMPARE(timeline->selectedCounter(), mark); // the link selects the same sample
        // Zoomed in around it, and the track is in view.
        QVERIFY(timeline->axis().nsPerPixel() < fitted / 5);
        const double x = timeline->axis().xForTime(series.timeNs[mark->sample]);
        QVERIFY(x > 0 && x < timeline->width() - TimelineView::kHeaderWidth);
        const int top = timeline->counterTop(mark->series);
        QVERIFY2(top >= TimelineView::kRulerHeight && top + TimelineView::kCounterHeight <= timeline->height(),
            qPrintable(QString("track at %1 in a %2 px view").arg(top).arg(timeline->height())));
        const QString status = window.statusBar()->findChild<QLabel*>()->text();
        QVERIFY2(status.contains(QString::fromStdString(series.title)) && status.contains(formatBytes(peak)),
            qPrintable(status));
        // The marker is drawn: the highlight colour at the peak's point.
        const QImage image = timeline->grab().toImage();
        const double scale = (TimelineView::kCounterHeight - 4) / static_cast<double>(series.maxBytes);
        const QPoint at(TimelineView::kHeaderWidth + static_cast<int>(x),
            top + TimelineView::kCounterHeight - 2 - static_cast<int>(peak * scale));
        QCOMPARE(image.pixelColor(at * image.devicePixelRatio()).rgb(),
            timeline->palette().color(QPalette::Highlight).rgb());
        // Esc clears it.
        timeline->clearSelection();
        QVERIFY(!timeline->selectedCounter());
    }

    void lanesCollapseAndPinAndGpuAnnotationsSitUnderTheirStream()
    {
        // The A100 NCCL trace: gpu_user_annotation ranges on GPU 0 stream 7, op lanes nested many rows deep.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNcclTrace), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        const LoadedTrace& trace = *timeline->trace();
        const int lanes = static_cast<int>(trace.lanes.size());

        // GPU annotations: a lane right under their stream's lane, every row of PS_GPU_ANNOTATIONS there, none
        // on a host (thread) lane.
        auto db = placescope::SqliteDb::openImmutable(trace.path);
        QVERIFY(db.isOk());
        const int64_t stored = db.value().queryInt("SELECT COUNT(*) FROM PS_GPU_ANNOTATIONS").value();
        QVERIFY(stored > 0);
        int annotations = -1;
        int64_t shown = 0;
        for (int l = 0; l < lanes; ++l) {
            const Lane& lane = trace.lanes[static_cast<size_t>(l)];
            const QString title = QString::fromStdString(lane.title);
            const bool annotationLane = title.contains(" annotations");
            for (const LaneRow& row : lane.rows)
                for (EventKind kind : row.kind)
                    QVERIFY2((kind == EventKind::GpuAnnotation) == annotationLane, qPrintable(title));
            if (!annotationLane)
                continue;
            QCOMPARE(lane.group, Lane::Group::Device);
            QVERIFY(l > 0);
            QVERIFY2(title.startsWith(
                         QString::fromStdString(trace.lanes[static_cast<size_t>(l - 1)].title).section(" (", 0, 0)
                         + " annotations"),
                qPrintable(title + " after " + QString::fromStdString(trace.lanes[static_cast<size_t>(l - 1)].title)));
            shown += static_cast<int64_t>(lane.eventCount());
            if (title.startsWith("GPU 0 stream 7 annotations"))
                annotations = l;
        }
        QCOMPARE(shown, stored);
        QVERIFY(annotations > 0);
        // Their NVTX copies (no thread, kept for nsys's readers) are not drawn again on a made-up thread lane.
        for (const Lane& lane : trace.lanes)
            QVERIFY2(!QString::fromStdString(lane.title).startsWith("thread 0 "), lane.title.c_str());
        // Each id once in a lane's name (a thread's id is not repeated after its name).
        const QRegularExpression number("\\d{4,}");
        for (const Lane& lane : trace.lanes) {
            const QString title = QString::fromStdString(lane.title);
            for (auto it = number.globalMatch(title); it.hasNext();) {
                const QString id = it.next().captured();
                QVERIFY2(title.count(id) == 1, qPrintable(title));
            }
        }

        // Collapse: a click on the triangle of a lane of nested ops leaves its top row; a second click expands it.
        int deep = -1;
        for (int l = 0; l < lanes && deep < 0; ++l)
            if (trace.lanes[static_cast<size_t>(l)].rows.size() >= 3)
                deep = l;
        QVERIFY(deep >= 0 && deep + 1 < lanes);
        const int rows = static_cast<int>(trace.lanes[static_cast<size_t>(deep)].rows.size());
        // Scrolled only if the lane is out of view: at 0 the view cannot scroll back when collapsing shortens the
        // content, which would move every lane (whether it does depends on the counter tracks below the lanes).
        timeline->verticalScrollBar()->setValue(0);
        if (timeline->laneTop(deep) + TimelineView::kRowHeight > timeline->height())
            timeline->verticalScrollBar()->setValue(timeline->laneTop(deep) - TimelineView::kRulerHeight);
        const int nextTop = timeline->laneTop(deep + 1);
        QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(9, timeline->laneTop(deep) + 8));
        QVERIFY(timeline->laneCollapsed(deep));
        QCOMPARE(timeline->laneRowsShown(deep), 1);
        QCOMPARE(timeline->laneTop(deep + 1), nextTop - (rows - 1) * TimelineView::kRowHeight);
        // An event of a hidden row, selected from elsewhere (a table), opens the lane again.
        timeline->selectEvent({ deep, rows - 1, 0 }, false);
        QVERIFY(!timeline->laneCollapsed(deep));
        QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(9, timeline->laneTop(deep) + 8));
        QVERIFY(timeline->laneCollapsed(deep));
        QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(9, timeline->laneTop(deep) + 8));
        QVERIFY(!timeline->laneCollapsed(deep));
        QCOMPARE(timeline->laneTop(deep + 1), nextTop);

        // Pin the annotation lane from its header's menu: it moves under the ruler and stays there while the rest
        // scroll under it.
        std::unique_ptr<QMenu> menu(timeline->createLaneMenu(annotations, timeline));
        QAction* pin = nullptr;
        for (QAction* action : menu->actions())
            if (action->text() == "Pin to the top")
                pin = action;
        QVERIFY(pin);
        pin->trigger();
        QVERIFY(timeline->lanePinned(annotations));
        QCOMPARE(timeline->laneTop(annotations), TimelineView::kRulerHeight);
        QScrollBar* bar = timeline->verticalScrollBar();
        for (int value : { 0, bar->maximum() / 2, bar->maximum() }) {
            bar->setValue(value);
            QCOMPARE(timeline->laneTop(annotations), TimelineView::kRulerHeight);
        }
        bar->setValue(0);
        QVERIFY(
            timeline->laneTop(0) >= TimelineView::kRulerHeight + TimelineView::kRowHeight); // the others start below it
        // A click in the pinned band selects the pinned lane's event, not the one scrolled under it.
        bar->setValue(bar->maximum() / 2);
        const LaneRow& row = trace.lanes[static_cast<size_t>(annotations)].rows[0];
        timeline->showRange(row.startNs[0], row.endNs[0]);
        const int x = TimelineView::kHeaderWidth
            + static_cast<int>(timeline->axis().xForTime((row.startNs[0] + row.endNs[0]) / 2));
        QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(x, TimelineView::kRulerHeight + 8));
        QVERIFY(timeline->selectedEvent());
        QCOMPARE(timeline->selectedEvent()->lane, annotations);
        QCOMPARE(timeline->selectedEvent()->index, 0u);
        // Its pin is drawn: the highlight colour at the pin's head in the lane's header.
        const QImage image = timeline->grab().toImage();
        QCOMPARE(image
                     .pixelColor(QPoint(TimelineView::kHeaderWidth - 10, TimelineView::kRulerHeight + 6)
                         * image.devicePixelRatio())
                     .rgb(),
            timeline->palette().color(QPalette::Highlight).rgb());
        timeline->setLanePinned(annotations, false);
        QVERIFY(timeline->pinnedLanes().empty());
        QVERIFY(timeline->laneTop(annotations) > timeline->laneTop(annotations - 1));
    }

    void tablesShowDurationsForPeopleAndSortByTheirNumbers()
    {
        // Kernels, copies, ops and findings: each number reads as the units formatter writes it (ms/us/ns, thousands
        // separators, binary sizes), and a click on a column header sorts by the numbers, not by their text.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kAlexNetJson), qPrintable(window.lastError()));
        struct Column
        {
            QString table;
            int column;
            QString header;
            CellFormat format;
        };
        const std::vector<Column> columns = {
            { "Kernels", 1, "Count", CellFormat::Count }, { "Kernels", 2, "Total", CellFormat::Duration },
            { "Kernels", 3, "Avg", CellFormat::Duration }, { "Kernels", 5, "Max", CellFormat::Duration },
            { "Copies", 3, "Total", CellFormat::Duration }, { "Copies", 4, "Size", CellFormat::Bytes },
            { "Ops", 1, "Count", CellFormat::Count }, { "Ops", 2, "CPU total", CellFormat::Duration },
            { "Ops", 5, "CPU avg", CellFormat::Duration },
            { "Findings", 2, "Saving", CellFormat::Plain }, // the CLI's words (ui_findings_cli_agreement_test)
        };
        // Kernels open sorted by total time, largest first (nsys stats' order).
        QTableView* byTotal = tableOf(window, "Kernels");
        QCOMPARE(byTotal->horizontalHeader()->sortIndicatorSection(), 2);
        QCOMPARE(byTotal->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QVERIFY(byTotal->model()->index(0, 2).data(TableModel::kRawRole).toDouble()
            >= byTotal->model()->index(1, 2).data(TableModel::kRawRole).toDouble());
        int textOrderDiffers = 0;
        for (const Column& c : columns) {
            QTableView* view = tableOf(window, c.table);
            QAbstractItemModel* model = view->model();
            QVERIFY2(model->rowCount() > 1, qPrintable(c.table));
            QCOMPARE(model->headerData(c.column, Qt::Horizontal).toString(), c.header);
            // Sort by the header, largest first, as a user clicking it twice.
            view->sortByColumn(c.column, Qt::DescendingOrder);
            for (int r = 0; r < model->rowCount(); ++r) {
                const QVariant raw = model->index(r, c.column).data(TableModel::kRawRole);
                const QString shown = model->index(r, c.column).data().toString();
                QString expected;
                switch (c.format) {
                case CellFormat::Plain:
                    expected = shown; // words from elsewhere: only the order by the numbers is checked here
                    break;
                case CellFormat::Count:
                    expected = QString::fromStdString(placescope::withThousands(raw.toLongLong()));
                    break;
                case CellFormat::Bytes:
                    expected = QString::fromStdString(placescope::formatBytes(raw.toLongLong()));
                    break;
                case CellFormat::Saving:
                    expected = std::fabs(raw.toDouble()) < 1.0
                        ? QString("no saving")
                        : QString::fromStdString(placescope::formatNanoseconds(raw.toDouble()));
                    break;
                default:
                    expected = QString::fromStdString(placescope::formatNanoseconds(raw.toDouble()));
                }
                QCOMPARE(shown, expected);
                if (r > 0) {
                    QVERIFY2(raw.toDouble() <= model->index(r - 1, c.column).data(TableModel::kRawRole).toDouble(),
                        qPrintable(c.table + " " + c.header));
                    textOrderDiffers += shown > model->index(r - 1, c.column).data().toString();
                }
            }
        }
        QVERIFY(textOrderDiffers > 0); // sorting the text would have put some of these rows elsewhere
        // The kernel durations agree with the timeline: the top kernel's total is the sum of its instances.
        QTableView* kernels = tableOf(window, "Kernels");
        kernels->sortByColumn(2, Qt::DescendingOrder);
        const QString name = kernels->model()->index(0, 0).data().toString();
        int64_t sum = 0;
        for (const TimelineView::EventRef& ref : window.timeline()->eventsNamed(name))
            sum += window.timeline()->rowOf(ref).durationNs(ref.index);
        QCOMPARE(static_cast<int64_t>(kernels->model()->index(0, 2).data(TableModel::kRawRole).toDouble()), sum);
    }

    void droppedFilesOpenAsWhatTheyAreAndTheTitleNamesTheUsersFile()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        auto drop = [&](const QString& path) {
            auto* mime = new QMimeData;
            mime->setUrls({ QUrl::fromLocalFile(path) });
            const QPointF at(window.width() / 2, window.height() / 2);
            QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&window, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent dropped(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&window, &dropped);
            QVERIFY(dropped.isAccepted());
            delete mime;
        };
        // An nsys export is imported to a temp copy; the title names the user's file, not the copy.
        drop(kNsysTrace);
        QVERIFY2(window.waitForOpen(60000), qPrintable(window.lastError()));
        QCOMPARE(window.windowTitle(), "Placescope - " + QFileInfo(kNsysTrace).fileName());
        QVERIFY(QString::fromStdString(window.timeline()->trace()->path) != kNsysTrace); // it was a temp copy
        // An ONNX model dropped opens as a model (placement, graph), and File > Recent models lists it.
        const QString model = QString(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx";
        drop(model);
        QVERIFY2(window.placementSession()->waitForPlan(60000), qPrintable(window.placementSession()->lastError()));
        QVERIFY(window.placementSession()->model());
        QCOMPARE(window.windowTitle(), "Placescope - " + QFileInfo(kNsysTrace).fileName()); // the trace stays open
        QMenu* recentModels = nullptr;
        for (QMenu* menu : window.menuBar()->findChildren<QMenu*>())
            if (menu->title() == "Recent models")
                recentModels = menu;
        QVERIFY(recentModels && recentModels->isEnabled());
        QCOMPARE(recentModels->actions().value(0)->text(), QFileInfo(model).absoluteFilePath());
    }

    void compareOpensBesideTheUsersFileAndAFileThatIsNotATraceSaysWhatItIs()
    {
        // The nsys export is imported to a temporary copy; File > Compare with... opens in the export's own folder,
        // and the compare window names the user's file, not the copy.
        MainWindow window;
        QVERIFY2(showAndOpen(window, kNsysTrace), qPrintable(window.lastError()));
        QVERIFY(QString::fromStdString(window.timeline()->trace()->path) != kNsysTrace); // a temporary copy
        QAction* compare = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->text() == "Compare &with...")
                compare = action;
        QVERIFY(compare);
        compare->trigger();
        QFileDialog* dialog = nullptr;
        QVERIFY(waitUntil(
            [&] { return (dialog = window.findChild<QFileDialog*>("compareFileDialog")) && dialog->isVisible(); },
            10000));
        QCOMPARE(
            QFileInfo(dialog->directory().absolutePath()).canonicalFilePath(), QFileInfo(kNsysTrace).canonicalPath());
        QVERIFY2(dialog->windowTitle().contains(QFileInfo(kNsysTrace).fileName()), qPrintable(dialog->windowTitle()));
        dialog->selectFile(kNsysTrace);
        static_cast<QDialog*>(dialog)->accept(); // QDialog's public slot; QFileDialog's override reads the file
        CompareWindow* compared = nullptr;
        QVERIFY(waitUntil(
            [&] { return (compared = window.findChild<CompareWindow*>("compareWindow")) != nullptr; }, 10000));
        QCOMPARE(compared->windowTitle(), QString("Compare %1 / %1").arg(QFileInfo(kNsysTrace).fileName()));
        QVERIFY(compared->waitForResult(120000));
        compared->close();
        // A picture is not a trace: a dialog says what it is by its content and what opens, beside the status line.
        const QString picture = QString(PLACESCOPE_SOURCE_DIR) + "/docs/screenshots/details_kernel.png";
        window.openFile(picture);
        QVERIFY(!window.waitForOpen(30000));
        QMessageBox* box = nullptr;
        QVERIFY(waitUntil(
            [&] { return (box = window.findChild<QMessageBox*>("openErrorDialog")) && box->isVisible(); }, 10000));
        QVERIFY2(
            box->text().contains("PNG image") && box->text().contains("details_kernel.png"), qPrintable(box->text()));
        QVERIFY2(box->informativeText().contains(window.lastError())
                && box->informativeText().contains("Nsight Systems SQLite exports"),
            qPrintable(box->informativeText()));
        box->accept();
        QCOMPARE(window.windowTitle(), "Placescope - " + QFileInfo(kNsysTrace).fileName()); // the trace stays open
    }

    void aMemoryCounterShowsItsValuesOnHover()
    {
        MainWindow window;
        QVERIFY2(showAndOpen(window, kV100Memory), qPrintable(window.lastError()));
        TimelineView* timeline = window.timeline();
        const LoadedTrace& trace = *timeline->trace();
        QVERIFY(!trace.counters.empty());
        int top = TimelineView::kRulerHeight;
        for (const Lane& lane : trace.lanes)
            top += static_cast<int>(lane.rows.size()) * TimelineView::kRowHeight + 6;
        const QPoint at(TimelineView::kHeaderWidth + 300, top + TimelineView::kCounterHeight / 2);
        const QString text = timeline->counterTooltip(at);
        // The samples' step function at the time under the cursor.
        const CounterSeries& series = trace.counters.front();
        const int64_t t = timeline->axis().timeForX(300);
        const size_t i = static_cast<size_t>(
                             std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t) - series.timeNs.begin())
            - 1;
        QVERIFY2(text.contains("allocated " + formatBytes(series.allocatedBytes[i])), qPrintable(text));
        QVERIFY2(text.contains("reserved " + formatBytes(series.reservedBytes[i])), qPrintable(text));
        QVERIFY(timeline->counterTooltip(QPoint(at.x(), TimelineView::kRulerHeight + 5))
                    .isEmpty()); // a lane, not the counter
    }

    void aTruncatedTraceSaysItOpenedInPart()
    {
        // The first 150,000 bytes of the AlexNet trace: the importer keeps what it could read and counts the cut.
        QTemporaryDir dir;
        QProcess zcat;
        zcat.start("gzip", { "-dc", kAlexNetJson });
        QVERIFY(zcat.waitForFinished(30000));
        QFile cut(dir.filePath("alexnet_cut.json"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(zcat.readAllStandardOutput().left(150000));
        cut.close();
        MainWindow window;
        QVERIFY2(showAndOpen(window, cut.fileName()), qPrintable(window.lastError()));
        QVERIFY(window.timeline()->trace()->eventCount > 0);
        const QString status = window.statusBar()->findChild<QLabel*>()->text();
        QVERIFY2(status.contains("opened in part: 1 import problems lost data"), qPrintable(status));
    }

    void withoutATraceANodeShowsItsDetails()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.openModel(QString(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx");
        QVERIFY2(window.placementSession()->waitForPlan(60000), qPrintable(window.placementSession()->lastError()));
        QVERIFY(window.graphView()->waitForLayout(60000));
        const int conv = window.graphView()->selectByName("Conv");
        QVERIFY(conv >= 0);
        emit window.graphView()->nodeSelected("Conv"); // what a click on the node emits
        const QString text = window.findChild<QTextBrowser*>("eventDetails")->toPlainText();
        QVERIFY2(
            text.contains("Type") && text.contains("Conv") && text.contains("Inputs") && text.contains("kernel_shape"),
            qPrintable(text));
        QVERIFY2(text.contains("No trace is open"), qPrintable(text));
    }
};

QTEST_MAIN(NavigationTest)
#include "navigation_test.moc"
