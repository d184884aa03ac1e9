// SPDX-License-Identifier: MIT
#include "ui/window/temp_copies.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace placescope::ui {
namespace {

const QString kPrefix = "placescope-gui-";

// True unless the system says no such process exists (a process of another user still counts as running).
bool processRuns(qint64 pid)
{
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

} // namespace

std::unique_ptr<QTemporaryDir> createTempCopiesDir()
{
    return std::make_unique<QTemporaryDir>(
        QDir::tempPath() + "/" + kPrefix + QString::number(QCoreApplication::applicationPid()) + "-XXXXXX");
}

int removeStaleTempCopies()
{
    static const QRegularExpression withPid("^placescope-gui-(\\d+)-[A-Za-z0-9]{6}$");
    static const QRegularExpression unnamed("^placescope-gui-[A-Za-z0-9]{6}$");
    const QDateTime dayAgo = QDateTime::currentDateTime().addDays(-1);
    int removed = 0;
    const auto entries
        = QDir(QDir::tempPath()).entryInfoList({ kPrefix + "*" }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QFileInfo& entry : entries) {
        if (entry.ownerId() != static_cast<uint>(::getuid()))
            continue; // another user's: not ours to remove
        const auto match = withPid.match(entry.fileName());
        const bool stale = match.hasMatch()
            ? !processRuns(match.captured(1).toLongLong())
            : unnamed.match(entry.fileName()).hasMatch() && entry.lastModified() < dayAgo;
        if (stale && QDir(entry.absoluteFilePath()).removeRecursively())
            ++removed;
    }
    return removed;
}

} // namespace placescope::ui
