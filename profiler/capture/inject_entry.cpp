// SPDX-License-Identifier: MIT
// Entry points of libplacescope_inject.so, the library CUDA loads into every traced process through
// CUDA_INJECTION64_PATH (the driver calls InitializeInjection from cuInit) and NVTX through
// NVTX_INJECTION64_PATH (InitializeInjectionNvtx2, forwarded to the libcupti this library uses, so NVTX ranges
// become CUPTI marker records).
//
// The rules here: never crash or hang the traced program. When tracing cannot start, the reason goes to the
// parts directory as one line for `placescope capture` to print, and the program runs on untouched. A normal
// exit stops the tracer from atexit; SIGINT/SIGTERM chain to the program's own handlers after asking for a
// flush, or, when the signal would kill the process, finish the part first (bounded wait). A forked child
// inherits none of this: its copy of the tracer has no writer thread and is forgotten.
#include "profiler/capture/capture_config.h"
#include "profiler/capture/cupti_api.h"
#include "profiler/capture/part_files.h"
#include "profiler/capture/tracer.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <pthread.h>
#include <unistd.h>

#define PLACESCOPE_EXPORT extern "C" __attribute__((visibility("default")))

namespace placescope::capture {
namespace {

std::mutex s_initMutex;
pid_t s_initializedPid = 0;
std::atomic<Tracer*> s_tracer { nullptr };
std::atomic<pid_t> s_tracerPid { 0 };
struct sigaction s_previous[NSIG];
bool s_processHooksInstalled = false;

std::optional<int64_t> envInt(const char* name)
{
    const char* text = std::getenv(name);
    if (!text || !*text)
        return std::nullopt;
    char* end = nullptr;
    long long value = std::strtoll(text, &end, 10);
    if (*end != '\0')
        return std::nullopt;
    return value;
}

ProcessIdentity thisProcess()
{
    ProcessIdentity process;
    process.pid = getpid();
    process.localRank = envInt("LOCAL_RANK");
    process.rank = envInt("RANK");
    if (!process.rank)
        process.rank = process.localRank;
    process.worldSize = envInt("WORLD_SIZE");
    std::ifstream comm("/proc/self/comm"); // the executable's name only: never argv or the environment
    std::getline(comm, process.name);
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        process.hostname = host;
    return process;
}

Tracer* ownTracer()
{
    Tracer* tracer = s_tracer.load();
    return tracer && s_tracerPid.load() == getpid() ? tracer : nullptr;
}

void stopAtExit()
{
    if (Tracer* tracer = ownTracer())
        tracer->stop(std::chrono::seconds(10));
}

bool isDefaultAction(const struct sigaction& action)
{
    return !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_DFL;
}

void onSignal(int signal, siginfo_t* info, void* context)
{
    int savedErrno = errno;
    const struct sigaction previous = s_previous[signal];
    Tracer* tracer = ownTracer();
    if (isDefaultAction(previous)) {
        // The signal ends the process: finish the part first (bounded), then die of the signal as before.
        if (tracer)
            (void)tracer->stopFromSignal(5000);
        sigaction(signal, &previous, nullptr);
        raise(signal); // delivered when this handler returns (the signal is blocked inside it)
    } else {
        // The program handles it (Python's KeyboardInterrupt...) and may go on: flush, don't wait.
        if (tracer)
            (void)tracer->requestFlushFromSignal(0);
        if (previous.sa_flags & SA_SIGINFO)
            previous.sa_sigaction(signal, info, context);
        else if (previous.sa_handler != SIG_IGN)
            previous.sa_handler(signal);
    }
    errno = savedErrno;
}

void installSignalHandler(int signal)
{
    struct sigaction current
    {
    };
    if (sigaction(signal, nullptr, &current) != 0
        || (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN))
        return; // an ignored signal stays ignored
    s_previous[signal] = current;
    struct sigaction action
    {
    };
    action.sa_sigaction = &onSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, nullptr);
}

void forgetInForkedChild()
{
    s_tracer.store(nullptr);
    s_tracerPid.store(0);
    Tracer::abandonAfterFork();
}

} // namespace
} // namespace placescope::capture

using namespace placescope::capture;

PLACESCOPE_EXPORT int InitializeInjection(void)
{
    std::lock_guard lock(s_initMutex);
    if (s_initializedPid == getpid())
        return 1;
    s_initializedPid = getpid();
    auto config = configFromEnvironment([](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    });
    if (!config.isOk())
        return 1; // loaded outside `placescope capture`: stay out of the way
    // Leaked on purpose: the tracer must outlive every CUPTI callback and atexit handler of the process.
    static CuptiApi* api = new RealCuptiApi();
    ProcessIdentity process = thisProcess();
    auto tracer = Tracer::start(*api, config.value(), process);
    if (!tracer.isOk()) {
        (void)writeErrorFile(config->partsDir, process.pid, tracer.status().message());
        return 1;
    }
    s_tracer.store(tracer.value().release());
    s_tracerPid.store(getpid());
    if (!s_processHooksInstalled) {
        s_processHooksInstalled = true;
        std::atexit(&stopAtExit);
        pthread_atfork(nullptr, nullptr, &forgetInForkedChild);
    }
    installSignalHandler(SIGINT);
    installSignalHandler(SIGTERM);
    return 1;
}

namespace {

// NVTX looks for these in the library named by NVTX_INJECTION64_PATH. We forward to the libcupti this library
// is linked with (the one already loaded in the process, e.g. PyTorch's), so there is one CUPTI per process.
int forwardNvtx(const char* symbol, void* getExportTable)
{
    Dl_info info {};
    if (!dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) || !info.dli_fname)
        return 0;
    void* cupti = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (!cupti)
        return 0;
    using InitFn = int (*)(void*);
    auto init = reinterpret_cast<InitFn>(dlsym(cupti, symbol));
    int result = init ? init(getExportTable) : 0;
    dlclose(cupti);
    return result;
}

} // namespace

// A program's first NVTX call often comes before its first CUDA call: start tracing then, so the ranges opened
// before CUDA initializes are recorded too (the driver's later InitializeInjection call finds it started).
PLACESCOPE_EXPORT int InitializeInjectionNvtx2(void* getExportTable)
{
    InitializeInjection();
    return forwardNvtx("InitializeInjectionNvtx2", getExportTable);
}

PLACESCOPE_EXPORT int InitializeInjectionNvtx(void* getExportTable)
{
    InitializeInjection();
    return forwardNvtx("InitializeInjectionNvtx", getExportTable);
}
