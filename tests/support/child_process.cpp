// SPDX-License-Identifier: MIT
#include "tests/support/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

extern char** environ;

namespace placescope::testing {

namespace {

std::vector<char*> rawList(std::vector<std::string>& strings)
{
    std::vector<char*> raw;
    for (std::string& s : strings)
        raw.push_back(s.data());
    raw.push_back(nullptr);
    return raw;
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options)
{
    if (argv.empty())
        return;
    std::vector<std::string> args = argv;
    std::vector<std::string> env = options.environment;
    std::vector<char*> rawArgs = rawList(args);
    std::vector<char*> rawEnv = rawList(env);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!options.stdinPath.empty())
        posix_spawn_file_actions_addopen(&actions, 0, options.stdinPath.c_str(), O_RDONLY, 0);
    if (!options.stdoutPath.empty())
        posix_spawn_file_actions_addopen(&actions, 1, options.stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (options.stderrToStdout)
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
    else if (!options.stderrPath.empty())
        posix_spawn_file_actions_addopen(&actions, 2, options.stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigemptyset(&none);
    for (int stopping : { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE })
        sigaddset(&defaults, stopping);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = -1;
    const int failed = posix_spawn(
        &pid, rawArgs[0], &actions, &attributes, rawArgs.data(), options.environment.empty() ? environ : rawEnv.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    m_pid = failed == 0 ? pid : -1;
}

ChildProcess::~ChildProcess()
{
    if (m_pid > 0 && !m_reaped) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
}

bool ChildProcess::signal(int signal) { return m_pid > 0 && !m_reaped && ::kill(m_pid, signal) == 0; }

int ChildProcess::wait()
{
    if (m_pid <= 0)
        return -1;
    if (m_reaped)
        return m_status;
    // The watchdog kills a child that outlives the safety limit; the child is only reaped after the watchdog has
    // stopped (waitid with WNOWAIT leaves it a zombie), so it never signals a pid the system has given to another.
    std::mutex mutex;
    std::condition_variable ended;
    bool done = false;
    bool killed = false;
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        if (!ended.wait_for(lock, kSafetyLimit, [&] { return done; })) {
            killed = true;
            ::kill(m_pid, SIGKILL);
        }
    });
    siginfo_t info {};
    while (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) { }
    {
        std::lock_guard lock(mutex);
        done = true;
    }
    ended.notify_all();
    watchdog.join();
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_reaped = true;
    m_status = killed ? -1 : status;
    return m_status;
}

bool ChildProcess::waitUntil(const std::function<bool()>& ready)
{
    const auto deadline = std::chrono::steady_clock::now() + kSafetyLimit;
    while (m_pid > 0 && !m_reaped) {
        if (ready())
            return true;
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_reaped = true;
            m_status = status;
            return ready(); // the child may have made it true on its way out
        }
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

bool ChildProcess::waitUntilStopped()
{
    if (m_pid <= 0 || m_reaped)
        return false;
    int status = 0;
    while (true) {
        const pid_t got = ::waitpid(m_pid, &status, WUNTRACED);
        if (got == m_pid)
            break;
        if (got < 0 && errno != EINTR)
            return false;
    }
    if (WIFSTOPPED(status))
        return true;
    m_reaped = true;
    m_status = status;
    return false;
}

bool ChildProcess::resume() { return m_pid > 0 && !m_reaped && ::kill(m_pid, SIGCONT) == 0; }

bool ChildProcess::catches(int signal) const
{
    std::ifstream status("/proc/" + std::to_string(m_pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("SigCgt:", 0) == 0) {
            const unsigned long long caught = std::stoull(line.substr(7), nullptr, 16);
            return (caught >> (signal - 1)) & 1ULL;
        }
    return false;
}

bool ChildProcess::hasChildren() const
{
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ignored)) {
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        if (!std::getline(stat, text))
            continue;
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
        const size_t close = text.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(text.substr(close + 1));
        std::string state;
        long parent = 0;
        if (rest >> state >> parent && parent == m_pid)
            return true;
    }
    return false;
}

int exitCodeOf(int waitStatus) { return waitStatus >= 0 && WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : -1; }

int signalOf(int waitStatus) { return waitStatus >= 0 && WIFSIGNALED(waitStatus) ? WTERMSIG(waitStatus) : 0; }

} // namespace placescope::testing
