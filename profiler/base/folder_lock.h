// SPDX-License-Identifier: MIT
// An exclusive flock on a folder, held while the object lives. Serialises what processes do to one folder's names:
// OutputFile's removal of stale sidecars and its rename, capture's creation of a parts folder and its removal of
// stale ones. A folder the process may write but not read cannot be locked: then nothing is held.
#pragma once

#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace placescope {

class FolderLock
{
public:
    explicit FolderLock(const std::string& folder)
        : m_fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    {
        if (m_fd >= 0)
            while (::flock(m_fd, LOCK_EX) != 0 && errno == EINTR) { }
    }
    ~FolderLock()
    {
        if (m_fd >= 0)
            ::close(m_fd); // releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

private:
    int m_fd;
};

} // namespace placescope
