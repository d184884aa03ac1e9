// SPDX-License-Identifier: MIT
#include "profiler/importers/common/spooled_input.h"

#include "profiler/base/temp_file_registry.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace placescope {

namespace {

std::string temporaryFolder()
{
    const char* folder = std::getenv("TMPDIR");
    return folder && *folder ? folder : "/tmp";
}

// Reads from `from` until `buffer` holds at least `atLeast` bytes or the stream ends; errno-style code, 0 on
// success (a pipe may deliver its head in pieces).
int readHead(int from, std::string& buffer, size_t atLeast)
{
    char chunk[1 << 12];
    while (buffer.size() < atLeast) {
        ssize_t n = ::read(from, chunk, sizeof chunk);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        buffer.append(chunk, static_cast<size_t>(n));
    }
    return 0;
}

int writeAll(int to, const char* data, size_t size)
{
    for (size_t written = 0; written < size;) {
        ssize_t w = ::write(to, data + written, size - written);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        written += static_cast<size_t>(w);
    }
    return 0;
}

// The room a spooled stream must leave in the temporary folder: a stream that never ends (`yes '{},' | gzip`, a
// gzip bomb) is valid input for as long as it runs, so the copy stops before the folder is full, not when it is.
// PLACESCOPE_SPOOL_RESERVE_BYTES overrides it (tests; a machine whose temporary folder is shared).
int64_t spoolReserveBytes(const std::string& folder)
{
    if (const char* given = std::getenv("PLACESCOPE_SPOOL_RESERVE_BYTES"); given && *given)
        return std::strtoll(given, nullptr, 10);
    struct statvfs fs;
    const int64_t fivePercent = ::statvfs(folder.c_str(), &fs) == 0
        ? static_cast<int64_t>(fs.f_blocks) * static_cast<int64_t>(fs.f_frsize) / 20
        : 0;
    return std::max<int64_t>(int64_t(1) << 30, fivePercent);
}

int64_t freeBytes(const std::string& folder)
{
    struct statvfs fs;
    if (::statvfs(folder.c_str(), &fs) != 0)
        return INT64_MAX; // cannot tell: the write itself fails when the folder is full
    return static_cast<int64_t>(fs.f_bavail) * static_cast<int64_t>(fs.f_frsize);
}

// Copies everything readable from `from` to `to`, checking the temporary folder's free room every 64 MiB (and at
// once); the error names the stream.
Status copyAll(int from, int to, const std::string& name)
{
    const std::string folder = temporaryFolder();
    const int64_t reserve = spoolReserveBytes(folder);
    constexpr int64_t kCheckEvery = int64_t(64) << 20;
    char buffer[1 << 16];
    int64_t copied = 0;
    int64_t nextCheck = 0;
    for (;;) {
        if (copied >= nextCheck) {
            if (freeBytes(folder) < reserve)
                return Status::error(name + " did not end before the temporary folder " + folder + " was down to "
                    + formatBytes(reserve) + " free (" + formatBytes(copied)
                    + " of it read); give the trace as a file, or set TMPDIR to a folder with more room");
            nextCheck = copied + kCheckEvery;
        }
        ssize_t n = ::read(from, buffer, sizeof buffer);
        if (n == 0)
            return Status::ok();
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Status::error("cannot read " + name + " into a temporary file: " + std::strerror(errno));
        }
        if (const int error = writeAll(to, buffer, static_cast<size_t>(n)))
            return Status::error("cannot read " + name + " into a temporary file: " + std::strerror(error));
        copied += n;
    }
}

} // namespace

Result<SpooledInput> SpooledInput::open(const std::string& input, const HeadCheck& checkHead)
{
    SpooledInput spooled;
    spooled.m_name = input == "-" ? "stdin" : input;
    spooled.m_readPath = input;
    struct stat st;
    const bool standardInput = input == "-";
    if (!standardInput && (::stat(input.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
        return spooled; // a file, a folder or nothing: the importer's own checks say what is wrong
    const int from = standardInput ? STDIN_FILENO : ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
    if (from < 0)
        return Status::error("cannot read " + input + ": " + std::strerror(errno));
    std::string head;
    const int headError = readHead(from, head, 16);
    Status headStatus = headError != 0
        ? Status::error("cannot read " + spooled.m_name + ": " + std::strerror(headError))
        : (checkHead && !head.empty() ? checkHead(head) : Status::ok());
    if (!headStatus.isOk()) {
        if (!standardInput)
            ::close(from);
        return headStatus;
    }
    std::string pattern = temporaryFolder() + "/placescope-input-XXXXXX";
    const int to = ::mkstemp(pattern.data());
    if (to < 0) {
        const int error = errno;
        if (!standardInput)
            ::close(from);
        return Status::error("cannot spool " + spooled.m_name + " to a temporary file in " + temporaryFolder() + ": "
            + std::strerror(error));
    }
    registerTempFile(pattern);
    spooled.m_tempPath = pattern;
    spooled.m_readPath = pattern;
    const int error = writeAll(to, head.data(), head.size());
    Status copied = error == 0
        ? copyAll(from, to, spooled.m_name)
        : Status::error("cannot read " + spooled.m_name + " into a temporary file: " + std::strerror(error));
    if (!standardInput)
        ::close(from);
    const bool closed = ::close(to) == 0;
    if (copied.isOk() && !closed)
        copied = Status::error("cannot read " + spooled.m_name + " into a temporary file: " + std::strerror(errno));
    if (!copied.isOk())
        return copied; // the destructor removes the file
    return spooled;
}

SpooledInput::SpooledInput(SpooledInput&& other) noexcept
    : m_readPath(std::move(other.m_readPath))
    , m_name(std::move(other.m_name))
    , m_tempPath(std::move(other.m_tempPath))
{
    other.m_tempPath.clear();
}

SpooledInput& SpooledInput::operator=(SpooledInput&& other) noexcept
{
    if (this != &other) {
        if (!m_tempPath.empty()) {
            ::unlink(m_tempPath.c_str());
            unregisterTempFile(m_tempPath);
        }
        m_readPath = std::move(other.m_readPath);
        m_name = std::move(other.m_name);
        m_tempPath = std::move(other.m_tempPath);
        other.m_tempPath.clear();
    }
    return *this;
}

SpooledInput::~SpooledInput()
{
    if (m_tempPath.empty())
        return;
    ::unlink(m_tempPath.c_str());
    unregisterTempFile(m_tempPath);
}

} // namespace placescope
