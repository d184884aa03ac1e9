// SPDX-License-Identifier: MIT
#include "ui/jobs/wait_until.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>

namespace placescope::ui {

bool waitUntil(const std::function<bool()>& condition, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        // Blocks until an event comes; the timer bounds the sleep by the deadline, and by 50 ms for a condition
        // that changes without an event on this thread (a window manager's state).
        QTimer wake;
        wake.setSingleShot(true);
        wake.start(static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 0, 50)));
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        // Outside an event loop deleteLater() would wait for the next one: finished jobs' watchers go now.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    return true;
}

} // namespace placescope::ui
