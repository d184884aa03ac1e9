// SPDX-License-Identifier: MIT
// The Ops table's context menu: move the framework op under the cursor to the CPU or the GPU in the What-if
// panel, the trace-side twin of pinning it in the placement panel. The move is the CLI's `op:NAME=cpu|gpu` edit.
#include "ui/whatif/whatif_session.h"
#include "ui/window/main_window.h"

#include <QDockWidget>
#include <QMenu>
#include <QTableView>

namespace placescope::ui {

void MainWindow::whatIfMoveOp(const QString& opName, const QString& device)
{
    WhatIfControls controls = m_whatIf->controls();
    controls.extraEdit = "op:" + opName + "=" + device;
    m_whatIf->setControls(controls); // one undo step, re-runs in the background
    if (auto* dock = findChild<QDockWidget*>("dock_whatif")) {
        dock->show();
        dock->raise();
    }
}

void MainWindow::connectOpWhatIfMenu(QTableView* opsView)
{
    opsView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(opsView, &QWidget::customContextMenuRequested, this, [this, opsView](const QPoint& pos) {
        const QModelIndex index = opsView->indexAt(pos);
        if (!index.isValid())
            return;
        const QString name = index.sibling(index.row(), 0).data().toString();
        QMenu menu(opsView);
        menu.addAction(tr("What-if: run %1 on the CPU").arg(name), this, [this, name] { whatIfMoveOp(name, "cpu"); });
        menu.addAction(tr("What-if: run %1 on the GPU").arg(name), this, [this, name] { whatIfMoveOp(name, "gpu"); });
        menu.exec(opsView->viewport()->mapToGlobal(pos));
    });
}

} // namespace placescope::ui
