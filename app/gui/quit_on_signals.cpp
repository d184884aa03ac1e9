// SPDX-License-Identifier: MIT
#include "app/gui/quit_on_signals.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <iterator>
#include <unistd.h>

namespace placescope::gui {
namespace {

constexpr int kSignals[] = { SIGINT, SIGTERM, SIGHUP };
int s_pipe[2] = { -1, -1 };
struct sigaction s_previous[std::size(kSignals)] {};

extern "C" void writeSignalToPipe(int signal)
{
    const int saved = errno;
    const unsigned char byte = static_cast<unsigned char>(signal);
    (void)!::write(s_pipe[1], &byte, 1);
    errno = saved;
}

void restorePrevious()
{
    for (size_t i = 0; i < std::size(kSignals); ++i)
        ::sigaction(kSignals[i], &s_previous[i], nullptr);
}

} // namespace

QuitOnSignals::QuitOnSignals()
{
    if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return; // no pipe: signals keep their default action (the process dies, as before)
    m_notifier = std::make_unique<QSocketNotifier>(s_pipe[0], QSocketNotifier::Read);
    QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this] {
        unsigned char byte = 0;
        if (::read(s_pipe[0], &byte, 1) != 1 || m_received != 0)
            return;
        m_received = byte;
        restorePrevious(); // a second signal while the windows close ends the process at once
        QCoreApplication::exit(128 + m_received); // every running event loop returns (dialogs and waits too)
    });
    struct sigaction action
    {
    };
    action.sa_handler = writeSignalToPipe;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i) {
        ::sigaction(kSignals[i], nullptr, &s_previous[i]);
        // A signal the parent set to be ignored (nohup, a background job's SIGINT) stays ignored.
        if (!(s_previous[i].sa_flags & SA_SIGINFO) && s_previous[i].sa_handler == SIG_IGN)
            continue;
        ::sigaction(kSignals[i], &action, nullptr);
    }
}

QuitOnSignals::~QuitOnSignals()
{
    restorePrevious();
    m_notifier.reset();
    if (s_pipe[0] >= 0) {
        ::close(s_pipe[0]);
        ::close(s_pipe[1]);
        s_pipe[0] = s_pipe[1] = -1;
    }
    if (m_received != 0)
        std::raise(m_received);
}

} // namespace placescope::gui
