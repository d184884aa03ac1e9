// SPDX-License-Identifier: MIT
// MainWindow: getting around as in Perfetto and Nsight Systems. The Details dock follows the timeline's selection;
// the findings list has a detail pane; a row of the kernel, copy or op table selects, frames and outlines its
// events on the timeline (double-click lists the instances); the Help menu lists the timeline's keys; the View
// menu toggles every dock.
#include "ui/models/table_model.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/event_details_view.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/instances_dialog.h"
#include "ui/window/main_window.h"

#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>

#include <algorithm>

namespace placescope::ui {

void MainWindow::buildNavigation()
{
    // Details under the findings and the op graph, in view whatever table the user clicks.
    auto* details = new EventDetailsView(m_timeline, this);
    auto* detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName("dock_details");
    detailsDock->setWidget(details);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock, Qt::Vertical);
    // The right column runs the window's full height: findings with their pane above, details below.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    // Findings: ranked by saving (the analyzer's order) and a pane under the list with the saving, its basis, the
    // fix and the evidence.
    auto* findingsDock = findChild<QDockWidget*>("dock_" + tr("Findings"));
    auto* findingsView = findingsDock->findChild<QTableView*>();
    auto* findingsProxy = qobject_cast<QSortFilterProxyModel*>(findingsView->model());
    findingsView->sortByColumn(2, Qt::DescendingOrder); // saving ms/step
    QWidget* findingsBody = findingsView->parentWidget();
    auto* splitter = new QSplitter(Qt::Vertical, findingsBody);
    splitter->setObjectName("findingsSplitter"); // remembered between runs (its state is saved by name)
    findingsBody->layout()->replaceWidget(findingsView, splitter);
    splitter->addWidget(findingsView);
    m_findingDetails = new QTextBrowser(splitter);
    m_findingDetails->setObjectName("findingDetails");
    m_findingDetails->setOpenLinks(false);
    m_findingDetails->setPlaceholderText(tr("Select a finding to see its saving, the fix and the evidence."));
    splitter->addWidget(m_findingDetails);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    // TensorFlow traces: the analysis' op placement figure (xprof's host vs device ops) under the findings, in the
    // words of `placescope analyze`; hidden for other traces, as the reports leave it out there.
    m_opPlacement = new QLabel(findingsBody);
    m_opPlacement->setObjectName("tfOpPlacement");
    m_opPlacement->setWordWrap(true);
    m_opPlacement->setTextFormat(Qt::PlainText);
    m_opPlacement->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_opPlacement->setVisible(false);
    findingsBody->layout()->addWidget(m_opPlacement);
    connect(findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, findingsProxy](const QModelIndex& index) { selectFinding(findingsProxy->mapToSource(index).row()); });
    connect(m_findingDetails, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QStringList parts = url.path().split(':');
        if (url.scheme() != "range" || parts.size() != 2 || !m_timeline->trace())
            return;
        // An instant (a memory peak) is a sample of a memory track; a span is a range of events.
        if (parts[0] == parts[1] && m_timeline->selectCounterPeak(parts[0].toLongLong()))
            return;
        m_timeline->showRange(parts[0].toLongLong(), parts[1].toLongLong(), url.fragment(QUrl::FullyDecoded));
    });

    // Tables -> timeline, by exact name (the kernel table's demangled names, templates and all).
    for (const QString& title : { tr("Kernels"), tr("Copies"), tr("Ops") }) {
        auto* view = findChild<QDockWidget*>("dock_" + title)->findChild<QTableView*>();
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model());
        auto nameAt = [proxy](const QModelIndex& index) { return proxy->index(index.row(), 0).data().toString(); };
        auto select = [this, nameAt](const QModelIndex& index) {
            if (index.isValid() && !m_timeline->selectNamed(nameAt(index)))
                m_status->setText(tr("No timeline event named '%1'").arg(nameAt(index)));
        };
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, select);
        connect(view, &QTableView::activated, this, select); // Enter on the same row: its next instance
        connect(view, &QTableView::doubleClicked, this,
            [this, nameAt](const QModelIndex& index) { showInstancesDialog(m_timeline, nameAt(index), this); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName("menu_help");
    // The timeline's keys, '?' (the list of them) among them: one action per key, no second "shortcuts" entry.
    for (QAction* action : m_timeline->navigationActions())
        if (!action->shortcut().isEmpty())
            help->addAction(action);

    // Every dock can be brought back from the View menu, by title.
    auto* viewMenu = menuBar()->findChild<QMenu*>("menu_view");
    auto docks = findChildren<QDockWidget*>();
    std::sort(
        docks.begin(), docks.end(), [](QDockWidget* a, QDockWidget* b) { return a->windowTitle() < b->windowTitle(); });
    QMenu* panels = viewMenu->addMenu(tr("Panels"));
    for (QDockWidget* dock : docks)
        panels->addAction(dock->toggleViewAction());
}

} // namespace placescope::ui
