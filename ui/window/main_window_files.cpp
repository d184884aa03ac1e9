// SPDX-License-Identifier: MIT
// MainWindow: files. A dropped file opens as what its content says (an ONNX model as a model, anything else as a
// trace, whose open refuses what is not one in one line); recent models beside recent files.
#include "placement/graph/model_loader.h"
#include "ui/window/main_window.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QUrl>

namespace placescope::ui {

QString MainWindow::modelFileFilter()
{
    return tr(
        "Models (*.onnx *.json *.json.gz *.sqlite);;ONNX models (*.onnx);;PyTorch execution traces (*.json *.json.gz);;"
        "Placescope traces, their framework ops (*.sqlite);;All files (*)");
}

void MainWindow::buildFileHandling()
{
    setAcceptDrops(true);
    auto* file = qobject_cast<QMenu*>(m_recentMenu->parent());
    m_recentModelsMenu = new QMenu(tr("Recent models"), file);
    file->insertMenu(m_recentMenu->menuAction(), m_recentModelsMenu);
    file->insertAction(m_recentModelsMenu->menuAction(), m_recentMenu->menuAction()); // files first, then models
    rebuildRecentModelsMenu();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::openTraceOrModel(const QString& path)
{
    auto kind = sniffGraphSource(path.toStdString());
    if (kind.isOk() && *kind == GraphSourceKind::Onnx)
        openModel(path);
    else
        openFile(path); // refuses what is not a trace in one line
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // Each file as what it is; of several traces the last one stays open (a newer open drops an older one).
    for (const QUrl& url : event->mimeData()->urls())
        openTraceOrModel(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::rememberRecentModel(const QString& path)
{
    if (!QFileInfo(path).isFile())
        return;
    QSettings settings;
    QStringList recent = settings.value("recentModels").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    settings.setValue("recentModels", recent.mid(0, 8));
    if (m_recentModelsMenu)
        rebuildRecentModelsMenu();
}

void MainWindow::rebuildRecentModelsMenu()
{
    m_recentModelsMenu->clear();
    for (const QString& path : QSettings().value("recentModels").toStringList())
        m_recentModelsMenu->addAction(path, this, [this, path] { openModel(path); });
    m_recentModelsMenu->setEnabled(!m_recentModelsMenu->isEmpty());
}

} // namespace placescope::ui
