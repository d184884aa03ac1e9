// SPDX-License-Identifier: MIT
#include "profiler/capture/parts_folder.h"

#include "profiler/base/folder_lock.h"
#include "profiler/base/temp_file_registry.h"
#include "profiler/capture/part_files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <unistd.h>

namespace placescope::capture {
namespace {

namespace fs = std::filesystem;

// A parts folder left by a capture that was killed (SIGKILL, a crash): nobody holds its lock. Removed when it holds
// no part; one with parts stays (see the header).
void removeStaleFolders(const std::string& outputDir)
{
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(outputDir, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kPartsFolderPrefix, 0) != 0 || !entry.is_directory(error) || entry.is_symlink(error))
            continue;
        const int fd = ::open(entry.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && listPartFiles(entry.path().string()).empty())
            fs::remove_all(entry.path(), error);
        ::close(fd);
    }
}

} // namespace

Result<PartsFolder> PartsFolder::create(const std::string& outputDir)
{
    // Under the output folder's lock: another capture's new folder is locked before this one looks at it.
    FolderLock folderLock(outputDir);
    removeStaleFolders(outputDir);
    std::string path = (fs::path(outputDir) / (std::string(kPartsFolderPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(path.data()))
        return Status::error("cannot create a parts folder in " + outputDir + ": " + std::strerror(errno));
    // Registered first: a signal from here on removes it.
    registerTempFolder(path);
    // O_CLOEXEC: the traced program must not hold the lock (it would outlive a killed capture).
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const std::string reason = std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        unregisterTempFolder(path);
        std::error_code ignored;
        fs::remove_all(path, ignored);
        return Status::error("cannot lock the parts folder " + path + ": " + reason);
    }
    return PartsFolder(std::move(path), fd);
}

PartsFolder::PartsFolder(PartsFolder&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_lockFd(other.m_lockFd)
{
    other.m_path.clear();
    other.m_lockFd = -1;
}

PartsFolder::~PartsFolder()
{
    if (m_lockFd >= 0)
        ::close(m_lockFd);
}

void PartsFolder::remove()
{
    if (m_path.empty())
        return;
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
    unregisterTempFolder(m_path);
}

void PartsFolder::keep()
{
    if (!m_path.empty())
        unregisterTempFolder(m_path);
}

} // namespace placescope::capture
