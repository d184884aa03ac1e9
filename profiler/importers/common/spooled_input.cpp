// SPDX-License-Identifier: MIT
#include "profiler/importers/common/spooled_input.h"

#include "profiler/base/temp_file_registry.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
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

// Copies everything readable from `from` to `to`; errno-style code, 0 on success.
int copyAll(int from, int to)
{
    char buffer[1 << 16];
    for (;;) {
        ssize_t n = ::read(from, buffer, sizeof buffer);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (const int error = writeAll(to, buffer, static_cast<size_t>(n)))
            return error;
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
    int error = writeAll(to, head.data(), head.size());
    if (error == 0)
        error = copyAll(from, to);
    if (!standardInput)
        ::close(from);
    const bool closed = ::close(to) == 0;
    if (error != 0 || !closed)
        return Status::error("cannot read " + spooled.m_name
            + " into a temporary file: " + std::strerror(error ? error : errno)); // the destructor removes the file
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
