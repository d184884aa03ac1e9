// SPDX-License-Identifier: MIT
#include "profiler/capture/capture_runner.h"

#include "profiler/base/output_file.h"
#include "profiler/capture/capture_report.h"
#include "profiler/capture/driver_probe.h"
#include "profiler/capture/part_files.h"
#include "profiler/capture/part_merger.h"
#include "profiler/capture/parts_folder.h"
#include "profiler/importers/importer.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace placescope::capture {
namespace {

namespace fs = std::filesystem;

volatile sig_atomic_t s_childPid = 0;

// The launcher forwards a signal that was sent to it alone (kill, a job scheduler). A signal from the terminal
// (Ctrl-C) already reached the program, which shares the launcher's process group: forwarding it would
// deliver it twice.
void forwardSignal(int signal, siginfo_t* info, void*)
{
    bool sentToUs = info && (info->si_code == SI_USER || info->si_code == SI_QUEUE || info->si_code == SI_TKILL);
    if (s_childPid > 0 && sentToUs && info->si_pid != s_childPid)
        kill(s_childPid, signal);
}

class SignalForwarding
{
public:
    SignalForwarding()
    {
        struct sigaction action
        {
        };
        action.sa_sigaction = &forwardSignal;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        for (int i = 0; i < 3; ++i)
            sigaction(kSignals[i], &action, &m_previous[i]);
    }
    ~SignalForwarding()
    {
        for (int i = 0; i < 3; ++i)
            sigaction(kSignals[i], &m_previous[i], nullptr);
        s_childPid = 0;
    }

private:
    static constexpr int kSignals[3] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction m_previous[3] {};
};

int64_t realtimeNs()
{
    timespec now {};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

std::vector<std::string> childEnvironment(const CaptureRequest& request, const CaptureConfig& config)
{
    std::map<std::string, std::string> overrides = configToEnvironment(config);
    overrides["CUDA_INJECTION64_PATH"] = request.injectLibraryPath;
    // NVTX ranges reach CUPTI through our library (it forwards to its libcupti); a user's own NVTX injection wins.
    if ((request.kinds & kKindNvtx) && !std::getenv("NVTX_INJECTION64_PATH"))
        overrides["NVTX_INJECTION64_PATH"] = request.injectLibraryPath;
    std::vector<std::string> env;
    for (char** entry = environ; *entry; ++entry) {
        std::string text = *entry;
        std::string name = text.substr(0, text.find('='));
        if (!overrides.count(name))
            env.push_back(std::move(text));
    }
    for (const auto& [name, value] : overrides)
        env.push_back(name + "=" + value);
    return env;
}

// Starts the program; on failure returns -1 and the reason (exec errors come back through a CLOEXEC pipe). The caller
// holds the forwarded signals blocked; the child puts them back to their defaults and restores `childMask` before
// exec, so that one arriving while it starts is neither caught by the launcher's handler in the child nor lost.
pid_t startProgram(
    const CaptureRequest& request, const std::vector<std::string>& env, std::string& error, const sigset_t& childMask)
{
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        return -1;
    }
    std::vector<char*> argv, envp;
    for (const std::string& arg : request.command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    for (const std::string& entry : env)
        envp.push_back(const_cast<char*>(entry.c_str()));
    envp.push_back(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        close(pipeFds[0]);
        for (int forwarded : { SIGINT, SIGTERM, SIGHUP })
            std::signal(forwarded, SIG_DFL);
        sigprocmask(SIG_SETMASK, &childMask, nullptr);
        execvpe(argv[0], argv.data(), envp.data());
        int code = errno;
        (void)!write(pipeFds[1], &code, sizeof code);
        _exit(kExitCannotRun);
    }
    close(pipeFds[1]);
    if (pid < 0) {
        error = std::strerror(errno);
        close(pipeFds[0]);
        return -1;
    }
    int code = 0;
    ssize_t got = read(pipeFds[0], &code, sizeof code);
    close(pipeFds[0]);
    if (got == static_cast<ssize_t>(sizeof code)) {
        waitpid(pid, nullptr, 0);
        error = std::strerror(code);
        return -1;
    }
    return pid;
}

// How the program ended, for a capture that traced nothing: its own failure, named as such, so that a program
// exiting 3 is not read as the capture's "no trace" code (3) and a killed one not as a missing GPU. Empty when it
// exited 0.
std::string programEnd(const std::string& program, int waitStatus)
{
    const std::string name = fs::path(program).filename().string();
    if (WIFEXITED(waitStatus) && WEXITSTATUS(waitStatus) != 0)
        return name + " exited with status " + std::to_string(WEXITSTATUS(waitStatus))
            + " (capture exits with it) and nothing was traced";
    if (WIFSIGNALED(waitStatus))
        return name + " was killed by signal " + std::to_string(WTERMSIG(waitStatus)) + " ("
            + strsignal(WTERMSIG(waitStatus)) + "; capture exits with " + std::to_string(128 + WTERMSIG(waitStatus))
            + ") and nothing was traced";
    return {};
}

int exitCodeOf(int waitStatus)
{
    if (WIFEXITED(waitStatus))
        return WEXITSTATUS(waitStatus);
    if (WIFSIGNALED(waitStatus))
        return 128 + WTERMSIG(waitStatus);
    return 1;
}

bool processAlive(int64_t pid) { return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

// After the program ended: traced children that outlive it get a few seconds to finish their parts. A part
// left unfinished is still valid up to its last flush.
void waitForStragglers(const std::string& partsDir)
{
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
        bool waiting = false;
        for (const PartStatus& status : readStatusFiles(partsDir))
            waiting = waiting || (!status.done && processAlive(status.pid));
        if (!waiting)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

} // namespace

std::string defaultInjectLibraryPath()
{
    if (const char* path = std::getenv("PLACESCOPE_INJECT_LIBRARY"); path && *path)
        return path;
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return "libplacescope_inject.so";
    fs::path dir = exe.parent_path();
    // The build tree (bin/ and lib/), an installed tree (bin/ and lib/placescope/), or beside the executable.
    for (const fs::path& candidate : { dir / "../lib/libplacescope_inject.so",
             dir / "../lib/placescope/libplacescope_inject.so", dir / "libplacescope_inject.so" })
        if (fs::exists(candidate, error))
            return fs::weakly_canonical(candidate, error).string();
    return (dir / "../lib/libplacescope_inject.so").string();
}

int runCapture(const CaptureRequest& request)
{
    CaptureLog log(request.log, request.liveLine, request.quiet);
    if (request.command.empty()) {
        log.line("no program to run: placescope capture -o run.sqlite -- <program> [args]");
        return kExitUsage;
    }
    std::error_code error;
    if (!fs::exists(request.injectLibraryPath, error)) {
        log.line("the tracer library is missing (" + request.injectLibraryPath
            + "); rebuild Placescope with CUDA 13 or set PLACESCOPE_INJECT_LIBRARY");
        return kExitUsage;
    }
    fs::path output = fs::absolute(request.outputPath, error);
    fs::path outputDir = output.parent_path();
    if (!fs::is_directory(outputDir, error)) {
        log.line("cannot write " + request.outputPath + ": folder " + outputDir.string() + " does not exist");
        return kExitUsage;
    }
    // Refused before the program runs: -o naming a device, a FIFO or a folder (the merge would refuse it too).
    if (Status usable = checkOutputPath(request.outputPath); !usable.isOk()) {
        log.line(usable.message());
        return kExitUsage;
    }
    // Parts go beside the output (same file system, and not in a small /tmp), in a folder of their own, removed on
    // every way out: below, by a stopping signal, or by the next capture here after a SIGKILL.
    auto folder = PartsFolder::create(outputDir.string());
    if (!folder.isOk()) {
        log.line(folder.status().message());
        return kExitUsage;
    }
    PartsFolder& partsFolder = folder.value();
    const std::string partsDir = partsFolder.path();

    CaptureConfig config;
    config.kinds = request.kinds;
    config.bufferBytes = request.bufferBytes;
    config.maxBufferedBytes = std::max<int64_t>(256 << 20, 8 * request.bufferBytes);
    config.partsDir = partsDir;
    int64_t launchNs = realtimeNs();
    if (request.delaySeconds > 0)
        config.windowStartNs = launchNs + static_cast<int64_t>(request.delaySeconds * 1e9);
    if (request.durationSeconds > 0)
        config.windowEndNs = (config.windowStartNs ? config.windowStartNs : launchNs)
            + static_cast<int64_t>(request.durationSeconds * 1e9);

    int exitCode = 0;
    int waitStatus = 0;
    {
        SignalForwarding forwarding;
        // The forwarded signals are held from before the fork until the child's pid is known: one that arrives while
        // the program starts is then forwarded to it instead of being lost (issue 27).
        sigset_t forwarded, previousMask;
        sigemptyset(&forwarded);
        for (int signal : { SIGINT, SIGTERM, SIGHUP })
            sigaddset(&forwarded, signal);
        sigprocmask(SIG_BLOCK, &forwarded, &previousMask);
        std::string startError;
        pid_t child = startProgram(request, childEnvironment(request, config), startError, previousMask);
        if (child > 0)
            s_childPid = child;
        sigprocmask(SIG_SETMASK, &previousMask, nullptr);
        if (child < 0) {
            log.line("cannot run " + request.command[0] + ": " + startError);
            partsFolder.remove();
            return kExitCannotRun;
        }
        auto nextDraw = std::chrono::steady_clock::now();
        while (true) {
            pid_t done = waitpid(child, &waitStatus, WNOHANG);
            if (done == child || (done < 0 && errno != EINTR))
                break;
            if (std::chrono::steady_clock::now() >= nextDraw) {
                log.live(readStatusFiles(partsDir));
                nextDraw += std::chrono::milliseconds(500);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        exitCode = exitCodeOf(waitStatus);
    }
    waitForStragglers(partsDir);
    log.clearLive();
    std::vector<PartStatus> statuses = readStatusFiles(partsDir);
    std::vector<PartError> errors = readErrorFiles(partsDir);
    std::vector<std::string> parts = listPartFiles(partsDir);
    int failureCode = exitCode != 0 ? exitCode : kExitNoTrace;

    if (parts.empty()) {
        std::string cause = errors.empty() ? diagnoseNoTrace() : errors.front().message;
        const std::string ended = programEnd(request.command[0], waitStatus);
        log.line("no trace written: " + (ended.empty() ? cause : ended + "; " + cause));
        partsFolder.remove();
        return failureCode;
    }
    std::vector<MergeInput> inputs;
    for (const std::string& part : parts)
        inputs.push_back({ part, {}, 0 });
    if (!request.torchMemoryTrace.empty()) {
        if (auto memory = importTorchMemory(request.torchMemoryTrace, partsDir, log))
            inputs.push_back(*memory);
    }
    auto merged = mergeParts(inputs, output.string());
    if (!merged.isOk()) {
        log.line("no trace written: the capture parts could not be merged (" + merged.status().message()
            + "); they are kept in " + partsDir);
        partsFolder.keep();
        return exitCode != 0 ? exitCode : kExitMergeFailed;
    }
    for (const PartError& failed : errors)
        log.note("process " + std::to_string(failed.pid) + " was not traced: " + failed.message);
    log.summary(output.string(), merged.value(), statuses);
    partsFolder.remove();
    return exitCode;
}

} // namespace placescope::capture
