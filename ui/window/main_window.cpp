// SPDX-License-Identifier: MIT
#include "ui/window/main_window.h"
#include "ui/window/file_filters.h"

#include "profiler/base/units.h"
#include "ui/compare/compare_window.h"
#include "ui/graphview/graph_view.h"
#include "ui/models/table_model.h"
#include "ui/placement/placement_panel.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/timeline_format.h"
#include "ui/timeline/timeline_view.h"
#include "ui/whatif/whatif_panel.h"
#include "ui/whatif/whatif_session.h"
#include "ui/window/temp_copies.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QMimeType>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

namespace placescope::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    // Copies left by a GUI that was killed go first; this window's own folder carries its pid.
    removeStaleTempCopies();
    m_tempDir = createTempCopiesDir();
    setWindowTitle("Placescope");
    setObjectName("PlacescopeMainWindow");
    m_timeline = new TimelineView(this);
    setCentralWidget(m_timeline);
    // Durations in ns, counts and sizes as numbers: the tables show them through the units formatter and sort by
    // the numbers (TableModel::kRawRole).
    using F = CellFormat;
    m_kernels
        = new TableModel({ tr("Kernel"), tr("Count"), tr("Total"), tr("Avg"), tr("Min"), tr("Max"), tr("% time") },
            { F::Plain, F::Count, F::Duration, F::Duration, F::Duration, F::Duration, F::Percent }, this);
    m_copies = new TableModel({ tr("Operation"), tr("Memory"), tr("Count"), tr("Total"), tr("Size"), tr("Bandwidth") },
        { F::Plain, F::Plain, F::Count, F::Duration, F::Bytes, F::Rate }, this);
    m_problems = new TableModel(
        { tr("Kind"), tr("Severity"), tr("Count"), tr("Help"), tr("Example") }, { F::Plain, F::Plain, F::Count }, this);
    // Saving: the words of `placescope analyze` and the HTML report (savingText: a memory finding reads in bytes),
    // sorted by the figure findings are ranked by (the replay's where it simulated the fix).
    m_findings = new TableModel({ tr("Finding"), tr("Severity"), tr("Saving"), tr("Summary") }, this);
    QTableView* findingsView = addTableDock(tr("Findings"), m_findings, Qt::RightDockWidgetArea);
    // A narrow dock (1366 wide screens): the saving whole and the severity beside it, the title takes the rest and
    // elides; the summary is the pane's first paragraph, so the list leaves it out (the filter still reads it).
    findingsView->horizontalHeader()->setStretchLastSection(false);
    findingsView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    findingsView->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    findingsView->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    findingsView->setColumnHidden(3, true);
    // Largest total time first, as nsys stats lists kernels and copies.
    addTableDock(tr("Kernels"), m_kernels, Qt::BottomDockWidgetArea)->sortByColumn(2, Qt::DescendingOrder);
    addTableDock(tr("Copies"), m_copies, Qt::BottomDockWidgetArea)->sortByColumn(3, Qt::DescendingOrder);
    m_opSummary
        = new TableModel({ tr("Op"), tr("Count"), tr("CPU total"), tr("GPU total"), tr("Kernels"), tr("CPU avg") },
            { F::Plain, F::Count, F::Duration, F::Duration, F::Count, F::Duration }, this);
    QTableView* opsView = addTableDock(tr("Ops"), m_opSummary, Qt::BottomDockWidgetArea);
    opsView->sortByColumn(2, Qt::DescendingOrder);
    addTableDock(tr("Import problems"), m_problems, Qt::BottomDockWidgetArea);
    m_status = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    auto* cancel = new QPushButton(tr("Cancel"), this);
    cancel->setVisible(false);
    statusBar()->addPermanentWidget(cancel);
    connect(cancel, &QPushButton::clicked, this, &MainWindow::cancelOpen);
    connect(this, &MainWindow::openFinished, cancel, &QWidget::hide);
    connect(
        m_progress, &QProgressBar::valueChanged, cancel, [this, cancel] { cancel->setVisible(m_openJob.isRunning()); });
    connect(m_timeline, &TimelineView::eventSelected, m_status, &QLabel::setText);
    connect(m_timeline, &TimelineView::rangeSelected, m_status, &QLabel::setText);
    // Op graph dock; selection sync: a node finds its op's events on the timeline, an event selects its node.
    m_placement = new PlacementSession(this);
    m_graphView = new GraphView(this);
    m_graphView->setSession(m_placement);
    auto* graphDock = new QDockWidget(tr("Op graph"), this);
    graphDock->setObjectName("dock_graph");
    // Above the graph: whether the model is what the open trace ran (a warning when it is likely not).
    auto* graphBody = new QWidget(graphDock);
    auto* graphLayout = new QVBoxLayout(graphBody);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    graphLayout->setSpacing(0);
    m_modelMatchLabel = new QLabel(graphBody);
    m_modelMatchLabel->setObjectName("modelMatchWarning");
    m_modelMatchLabel->setWordWrap(true);
    m_modelMatchLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_modelMatchLabel->setVisible(false);
    graphLayout->addWidget(m_modelMatchLabel);
    graphLayout->addWidget(m_graphView, 1);
    graphDock->setWidget(graphBody);
    addDockWidget(Qt::RightDockWidgetArea, graphDock);
    tabifyDockWidget(findChild<QDockWidget*>("dock_" + tr("Findings")), graphDock);
    connect(m_graphView, &GraphView::nodeSelected, this, &MainWindow::selectTimelineForNode);
    connect(m_timeline, &TimelineView::eventSelected, this, &MainWindow::selectNodeForEvent);
    connect(m_placement, &PlacementSession::modelChanged, this, &MainWindow::checkModelAgainstTrace);
    connect(m_graphView, &GraphView::layoutFinished, this, [this](bool ok) {
        m_status->setText(ok ? tr("Op graph: %1 nodes laid out").arg(m_graphView->nodeCount())
                             : tr("Op graph: %1").arg(m_graphView->lastError()));
    });
    buildPlacementDock();
    buildWhatIfDock();
    buildReportsDock();
    connectOpWhatIfMenu(opsView);
    buildMenus();
    buildNavigation();
    buildFileHandling();
    // Default layout (a saved one replaces it): kernels and findings in front, the timeline gets most room.
    auto* findingsDock = findChild<QDockWidget*>("dock_" + tr("Findings"));
    auto* kernelsDock = findChild<QDockWidget*>("dock_" + tr("Kernels"));
    kernelsDock->raise();
    findingsDock->raise();
    // What the user left: window size and place, dock layout, splitter positions (QSettings, written on close).
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    m_defaultDockSizes = !restoreState(settings.value("window/state").toByteArray());
    for (QSplitter* splitter : findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            splitter->restoreState(settings.value("splitters/" + splitter->objectName()).toByteArray());
    setDarkPalette(settings.value("view/dark", false).toBool());
    if (!m_placement->model()) // a saved layout may show it; with no model open it would show "n/a"s
        findChild<QDockWidget*>("dock_placement")->hide();
    // First start: 1400x850, or maximized where the screen's free area is smaller (a 1366x768 laptop): a window the
    // screen's size plus its title bar would put the status bar below the screen (showEvent maximizes it).
    if (!settings.contains("window/geometry")) {
        const QSize free = screen() ? screen()->availableGeometry().size() : QSize(1400, 850);
        m_firstStartSize = QSize(1400, 850).boundedTo(free);
        m_maximizeAtFirstShow = free.width() < 1400 || free.height() < 850 + 80; // room for a title bar
        resize(m_firstStartSize);
    }
}

MainWindow::~MainWindow() = default; // the job trackers cancel what still runs

QTableView* MainWindow::addTableDock(const QString& title, TableModel* model, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName("dock_" + title);
    auto* body = new QWidget(dock);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* filter = new QLineEdit(body);
    filter->setPlaceholderText(tr("Filter..."));
    auto* proxy = new QSortFilterProxyModel(body);
    proxy->setSourceModel(model);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(-1);
    proxy->setSortRole(TableModel::kRawRole); // numbers, not their text ("9 ms" after "10 ms")
    connect(filter, &QLineEdit::textChanged, proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto* view = new QTableView(body);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    view->horizontalHeader()->resizeSection(0, 260); // long names are cut; the figures stay in view
    // Rows one line of text high (nsys, Perfetto): a 768-pixel screen shows more than a handful.
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    layout->addWidget(filter);
    layout->addWidget(view);
    dock->setWidget(body);
    addDockWidget(area, dock);
    const auto docks = findChildren<QDockWidget*>();
    if (area == Qt::BottomDockWidgetArea && docks.size() > 2)
        tabifyDockWidget(docks[1], dock);
    return view;
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open..."), this, [this] {
        const QString path
            = QFileDialog::getOpenFileName(this, tr("Open trace or model"), {}, traceOrModelFileFilter());
        if (!path.isEmpty())
            openTraceOrModel(path);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &model..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), {}, modelFileFilter());
        if (!path.isEmpty())
            openModel(path);
    });
    file->addAction(tr("&Record..."), this, &MainWindow::showRecordDialog);
    file->addAction(tr("Compare &with..."), this, [this] {
        // The user's file (its folder for the dialog, its name in the title), not the imported temporary copy.
        showCompareWith(this, m_timeline->trace() ? m_inputPath : QString());
    });
    m_recentMenu = file->addMenu(tr("Recent files"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    // The platform's redo keys plus Ctrl+Shift+Z everywhere (some key schemes only bind Ctrl+Y).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
    redo->setShortcuts(redoKeys);
    edit->addAction(redo);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName("menu_view"); // buildNavigation adds every dock's toggle
    view->addActions(m_timeline->navigationActions());
    view->addSeparator();
    QAction* dark = view->addAction(tr("Dark palette"));
    dark->setCheckable(true);
    dark->setChecked(QSettings().value("view/dark", false).toBool());
    connect(dark, &QAction::toggled, this, &MainWindow::setDarkPalette);

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName("mainToolBar");
    bar->addAction(open);
    m_search = new QLineEdit(bar);
    m_search->setPlaceholderText(tr("Search events by name"));
    m_search->setMaximumWidth(320);
    bar->addWidget(m_search);
    auto next = [this](bool forward) {
        if (!m_timeline->findNext(m_search->text(), forward))
            m_status->setText(tr("No more events named like '%1'").arg(m_search->text()));
        else
            m_status->setText(tr("%1 events named like '%2' (short or full name)")
                                  .arg(QString::fromStdString(withThousands(
                                           static_cast<int64_t>(m_timeline->matchCount(m_search->text())))),
                                      m_search->text()));
    };
    connect(m_search, &QLineEdit::returnPressed, this, [next] { next(true); });
    bar->addAction(tr("Previous"), this, [next] { next(false); });
    bar->addAction(tr("Next"), this, [next] { next(true); });
}

void MainWindow::setDarkPalette(bool dark)
{
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    QPalette pal = QApplication::style()->standardPalette();
    if (dark) {
        pal.setColor(QPalette::Window, QColor(45, 45, 48));
        pal.setColor(QPalette::WindowText, QColor(220, 220, 220));
        pal.setColor(QPalette::Base, QColor(30, 30, 32));
        pal.setColor(QPalette::AlternateBase, QColor(50, 50, 54));
        pal.setColor(QPalette::Text, QColor(220, 220, 220));
        pal.setColor(QPalette::Button, QColor(55, 55, 58));
        pal.setColor(QPalette::ButtonText, QColor(220, 220, 220));
        pal.setColor(QPalette::Highlight, QColor(60, 120, 215));
        pal.setColor(QPalette::Mid, QColor(70, 70, 74));
    }
    QApplication::setPalette(pal);
    QSettings().setValue("view/dark", dark);
}

void MainWindow::openFile(const QString& path)
{
    m_lastError.clear();
    m_openCancelled = false;
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setText(tr("Opening %1...").arg(path));
    QPointer<QProgressBar> bar = m_progress;
    const std::string temp = m_tempDir->path().toStdString();
    m_openJob.start(
        [path, temp, bar](const CancelToken& cancel) {
            return openAnyTrace(
                path.toStdString(), temp,
                [bar](uint64_t done, uint64_t total) {
                    QMetaObject::invokeMethod(
                        bar,
                        [bar, done, total] {
                            if (bar)
                                bar->setValue(static_cast<int>(done * 1000 / std::max<uint64_t>(total, 1)));
                        },
                        Qt::QueuedConnection);
                },
                &cancel);
        },
        [this, path](const OpenResult& result) {
            if (result.error.empty())
                rememberRecent(path);
            onOpenFinished(result);
        });
}

void MainWindow::openModel(const QString& path)
{
    m_status->setText(tr("Opening model %1...").arg(path));
    rememberRecentModel(path);
    m_placement->openModel(path);
    if (auto* dock = findChild<QDockWidget*>("dock_graph"))
        dock->raise();
}

void MainWindow::buildPlacementDock()
{
    // Without a model the panel has nothing to show but "n/a": it is hidden until a model opens (File > Open model,
    // or View > Panels shows it), and the What-if tab beside it is in front.
    // Bottom right, beside the tables: the per-op table needs the width.
    m_placementPanel = new PlacementPanel(m_placement, this);
    auto* dock = new QDockWidget(tr("Placement"), this);
    dock->setObjectName("dock_placement");
    dock->setWidget(m_placementPanel);
    addDockWidget(Qt::BottomDockWidgetArea, dock, Qt::Horizontal); // beside the table tabs, not among them
    connect(m_placement, &PlacementSession::planChanged, this, &MainWindow::onPlanChanged);
    connect(m_placement, &PlacementSession::modelChanged, this, [this, dock] {
        if (!m_placement->plan())
            m_timeline->setPredicted(nullptr);
        dock->setVisible(m_placement->model() != nullptr);
        if (m_placement->model())
            dock->raise();
    });
    connect(m_placement, &PlacementSession::failed, this,
        [this](const QString& message) { m_status->setText(tr("Placement: %1").arg(message)); });
    // Selection sync between the graph and the per-op table (by model op).
    connect(m_graphView, &GraphView::modelOpSelected, m_placementPanel, &PlacementPanel::selectModelOp);
    connect(m_placementPanel, &PlacementPanel::modelOpSelected, m_graphView, &GraphView::selectModelOp);
}

void MainWindow::buildWhatIfDock()
{
    // A tab beside the placement panel: both predict a step time, and the lanes view needs the bottom's width.
    m_whatIf = new WhatIfSession(this);
    m_whatIfPanel = new WhatIfPanel(m_whatIf, this);
    auto* dock = new QDockWidget(tr("What-if"), this);
    dock->setObjectName("dock_whatif");
    dock->setWidget(m_whatIfPanel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(findChild<QDockWidget*>("dock_placement"), dock);
    findChild<QDockWidget*>("dock_placement")->raise(); // in front once a model opens
    // The first time it is shown, give the bottom area room for the lanes view (the tables need less height).
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
        if (!visible || dock->isFloating() || dock->property("sized").toBool())
            return;
        dock->setProperty("sized", true);
        // Queued: after the default dock sizes that showEvent queues when the window first appears.
        QTimer::singleShot(0, this, [this, dock] {
            // Through the kernel tables' dock too: it shares the bottom row, and a tabbed dock alone may not move it.
            auto* kernels = findChild<QDockWidget*>("dock_" + tr("Kernels"));
            if (dock->height() < height() * 2 / 5)
                resizeDocks({ kernels, dock }, { height() * 9 / 20, height() * 9 / 20 }, Qt::Vertical);
        });
    });
    // The replay's critical path of the open trace, under the main timeline's ruler (the measured run's times: the
    // replay reproduces them).
    connect(m_whatIf, &WhatIfSession::runChanged, this, [this] {
        std::vector<TimelineView::CriticalSpan> spans;
        if (auto run = m_whatIf->run())
            for (const PathSegment& segment : run->result.replayPath.segments)
                spans.push_back({ segment.startNs, segment.endNs,
                    QString::fromUtf8(pathCategoryName(segment.category).data(),
                        static_cast<qsizetype>(pathCategoryName(segment.category).size())) });
        m_timeline->setCriticalPath(std::move(spans));
    });
    connect(m_whatIf, &WhatIfSession::failed, this,
        [this](const QString& message) { m_status->setText(tr("What-if: %1").arg(message)); });
    m_undoGroup = new QUndoGroup(this);
    m_undoGroup->addStack(m_placement->undoStack());
    m_undoGroup->addStack(m_whatIf->undoStack());
    m_undoGroup->setActiveStack(m_placement->undoStack());
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (!now || now->window() != this)
            return; // a dialog or another window: keep the stack the user was working on
        m_undoGroup->setActiveStack(
            m_whatIfPanel->isAncestorOf(now) ? m_whatIf->undoStack() : m_placement->undoStack());
    });
}

void MainWindow::onPlanChanged()
{
    auto plan = m_placement->plan();
    if (!plan) {
        m_timeline->setPredicted(nullptr);
        return;
    }
    // Shares the plan's lanes without copying them (aliasing constructor keeps the plan alive).
    m_timeline->setPredicted(std::shared_ptr<const PredictedLanes>(plan, &plan->predicted));
    m_status->setText(tr("Placement: predicted step %1 (all GPU %2)")
                          .arg(formatDuration(plan->proposalUs * 1000.0), formatDuration(plan->allGpuUs * 1000.0)));
}

void MainWindow::cancelOpen()
{
    m_openCancelled = true;
    m_openJob.cancel();
}

void MainWindow::showOpenError(const QString& path, const QString& error)
{
    // What the file looks like by its content (the shared MIME database, as file managers name files), then the
    // importer's one line, then what opens.
    const QMimeType type = QMimeDatabase().mimeTypeForFile(path, QMimeDatabase::MatchContent);
    const QString name = QFileInfo(path).fileName();
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open %1").arg(name),
        tr("%1 is not a trace Placescope can open. By its content it is: %2 (%3).")
            .arg(name, type.comment(), type.name()),
        QMessageBox::Ok, this);
    box->setObjectName("openErrorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(error + "\n\n"
        + tr(
            "Placescope opens: PyTorch profiler (Kineto) JSON and .json.gz, Nsight Systems SQLite exports (nsys export "
            "--type sqlite), TensorFlow/JAX .xplane.pb and TensorBoard trace JSON, ONNX Runtime profiles and "
            "Placescope traces; ONNX models open as models (File > Open model)."));
    box->open(); // window-modal, does not block the caller (the open's result handler, a test)
}

} // namespace placescope::ui
