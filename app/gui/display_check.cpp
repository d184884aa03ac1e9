// SPDX-License-Identifier: MIT
#include "app/gui/display_check.h"

#include <QMessageLogContext>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <cstdio>
#include <unistd.h>

namespace placescope::gui {
namespace {

QtMessageHandler g_previous = nullptr;
QStringList g_held; // the messages of start-up, in order
QList<QtMsgType> g_heldTypes;
QList<QByteArray> g_heldCategories;

void holdOrFail(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type != QtFatalMsg) {
        g_held.append(message);
        g_heldTypes.append(type);
        g_heldCategories.append(QByteArray(context.category ? context.category : ""));
        return;
    }
    // The first platform warning says why (could not connect to display ...); else Qt's fatal message.
    QString reason = message;
    for (int i = 0; i < g_held.size(); ++i)
        if (g_heldCategories[i].startsWith("qt.qpa")) {
            reason = g_held[i];
            break;
        }
    reason = reason.simplified();
    const QByteArray line = "placescope-gui: cannot open a display (" + reason.toUtf8()
        + "): run it in a desktop session (DISPLAY or WAYLAND_DISPLAY set), or render with --screenshot out.png\n";
    (void)!::write(STDERR_FILENO, line.constData(), static_cast<size_t>(line.size()));
    ::_exit(1); // nothing was opened or written yet
}

} // namespace

void holdQtStartupMessages() { g_previous = qInstallMessageHandler(holdOrFail); }

void releaseQtStartupMessages()
{
    qInstallMessageHandler(g_previous);
    for (int i = 0; i < g_held.size(); ++i) {
        const QByteArray category = g_heldCategories[i];
        const QMessageLogContext context(nullptr, 0, nullptr, category.isEmpty() ? nullptr : category.constData());
        qt_message_output(g_heldTypes[i], context, g_held[i]);
    }
    g_held.clear();
    g_heldTypes.clear();
    g_heldCategories.clear();
}

} // namespace placescope::gui
