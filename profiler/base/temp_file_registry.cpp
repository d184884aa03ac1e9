// SPDX-License-Identifier: MIT
#include "profiler/base/temp_file_registry.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace placescope {

namespace {

constexpr int kSlots = 64;
constexpr size_t kMaxPath = 4096;
constexpr const char* kSidecars[] = { "-wal", "-shm", "-journal" };

enum SlotState : int { Free = 0, Filling = 1, Live = 2 };

struct Slot
{
    std::atomic<int> state { Free };
    char path[kMaxPath];
};

Slot g_slots[kSlots];

void unlinkWithSidecars(const char* path)
{
    ::unlink(path);
    char sidecar[kMaxPath + 16];
    const size_t length = std::strlen(path);
    for (const char* suffix : kSidecars) {
        const size_t suffixLength = std::strlen(suffix);
        std::memcpy(sidecar, path, length);
        std::memcpy(sidecar + length, suffix, suffixLength + 1);
        ::unlink(sidecar);
    }
}

extern "C" void removeTempFilesAndDie(int signal)
{
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == Live)
            unlinkWithSidecars(slot.path);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void registerTempFile(const std::string& path)
{
    if (path.size() >= kMaxPath)
        return;
    for (Slot& slot : g_slots) {
        int expected = Free;
        if (slot.state.compare_exchange_strong(expected, Filling, std::memory_order_acquire)) {
            std::memcpy(slot.path, path.c_str(), path.size() + 1);
            slot.state.store(Live, std::memory_order_release);
            return;
        }
    }
}

void unregisterTempFile(const std::string& path)
{
    for (Slot& slot : g_slots) {
        int expected = Live;
        if (slot.state.load(std::memory_order_acquire) == Live && path == slot.path
            && slot.state.compare_exchange_strong(expected, Free, std::memory_order_acq_rel))
            return;
    }
}

void removeTempFilesOnSignals()
{
    struct sigaction action {};
    action.sa_handler = removeTempFilesAndDie;
    sigemptyset(&action.sa_mask);
    for (int signal : { SIGINT, SIGTERM, SIGHUP, SIGPIPE })
        sigaction(signal, &action, nullptr);
}

} // namespace placescope
