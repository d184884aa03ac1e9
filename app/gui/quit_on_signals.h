// SPDX-License-Identifier: MIT
// SIGINT, SIGTERM and SIGHUP end placescope-gui as closing its window does: the windows are destroyed, so their
// temporary folders (imported copies of Kineto and nsys files) are removed, and then the process dies of the same
// signal (the exit status says so). The handler only writes the signal's number to a pipe (async-signal-safe);
// a QSocketNotifier on the other end quits every event loop. A second signal while quitting kills at once.
#pragma once

#include <memory>

class QSocketNotifier;

namespace placescope::gui {

class QuitOnSignals
{
public:
    // Installs the handlers; needs the QApplication. One per process (the executable's main owns it).
    QuitOnSignals();
    // Declared before the windows, so destroyed after them: when a signal asked to quit, dies of it here.
    ~QuitOnSignals();
    QuitOnSignals(const QuitOnSignals&) = delete;
    QuitOnSignals& operator=(const QuitOnSignals&) = delete;

    // The signal that asked the application to quit, 0 if none.
    int received() const { return m_received; }

private:
    std::unique_ptr<QSocketNotifier> m_notifier;
    int m_received = 0;
};

} // namespace placescope::gui
