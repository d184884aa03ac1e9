// SPDX-License-Identifier: MIT
// MainWindow: the Reports dock (ui/reports/reports_panel.h), tabbed with the tables under the timeline.
#include "ui/reports/reports_panel.h"
#include "ui/window/main_window.h"

#include <QDockWidget>

namespace placescope::ui {

void MainWindow::buildReportsDock()
{
    m_reportsPanel = new ReportsPanel(m_timeline, this);
    auto* dock = new QDockWidget(tr("Reports"), this);
    dock->setObjectName("dock_reports");
    dock->setWidget(m_reportsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (auto* kernels = findChild<QDockWidget*>("dock_" + tr("Kernels")))
        tabifyDockWidget(kernels, dock);
}

} // namespace placescope::ui
