// SPDX-License-Identifier: MIT
#include "profiler/base/temp_file_registry.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace placescope {

namespace {

constexpr int kSlots = 64;
constexpr size_t kMaxPath = 4096;
constexpr const char* kSidecars[] = { "-wal", "-shm", "-journal" };

enum SlotState : int
{
    Free = 0,
    Filling = 1,
    Live = 2
};

struct Slot
{
    std::atomic<int> state { Free };
    bool folder = false;
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

// The kernel's directory record that getdents64 fills (glibc has no declaration of it).
struct DirectoryRecord
{
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[1];
};

// Removes the files in `path`, then the folder: raw getdents64 and unlinkat, because opendir/readdir allocate and
// may not run in a signal handler.
void removeFlatFolder(const char* path)
{
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    alignas(DirectoryRecord) char buffer[4096];
    for (;;) {
        const long got = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (got <= 0)
            break;
        for (long at = 0; at < got;) {
            const auto* record = reinterpret_cast<const DirectoryRecord*>(buffer + at);
            at += record->length;
            const char* name = record->name;
            if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
                ::unlinkat(fd, name, 0);
        }
    }
    ::close(fd);
    ::rmdir(path);
}

extern "C" void removeTempFilesAndDie(int signal)
{
    for (Slot& slot : g_slots) {
        if (slot.state.load(std::memory_order_acquire) != Live)
            continue;
        if (slot.folder)
            removeFlatFolder(slot.path);
        else
            unlinkWithSidecars(slot.path);
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

namespace {

void remember(const std::string& path, bool folder)
{
    if (path.size() >= kMaxPath)
        return;
    for (Slot& slot : g_slots) {
        int expected = Free;
        if (slot.state.compare_exchange_strong(expected, Filling, std::memory_order_acquire)) {
            slot.folder = folder;
            std::memcpy(slot.path, path.c_str(), path.size() + 1);
            slot.state.store(Live, std::memory_order_release);
            return;
        }
    }
}

void forget(const std::string& path, bool folder)
{
    for (Slot& slot : g_slots) {
        int expected = Live;
        if (slot.state.load(std::memory_order_acquire) == Live && slot.folder == folder && path == slot.path
            && slot.state.compare_exchange_strong(expected, Free, std::memory_order_acq_rel))
            return;
    }
}

} // namespace

void registerTempFile(const std::string& path) { remember(path, false); }
void unregisterTempFile(const std::string& path) { forget(path, false); }
void registerTempFolder(const std::string& path) { remember(path, true); }
void unregisterTempFolder(const std::string& path) { forget(path, true); }

void removeTempFilesOnSignals()
{
    struct sigaction action
    {
    };
    action.sa_handler = removeTempFilesAndDie;
    sigemptyset(&action.sa_mask);
    for (int signal : { SIGINT, SIGTERM, SIGHUP, SIGPIPE })
        sigaction(signal, &action, nullptr);
}

} // namespace placescope
