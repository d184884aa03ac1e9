// SPDX-License-Identifier: MIT
// The folder `placescope capture` gives the traced processes for their parts (`.placescope-capture-XXXXXX` beside
// the output), and what makes sure none is left behind:
//  - a stopping signal (SIGINT, SIGTERM, SIGHUP) that ends the capture removes it (temp_file_registry);
//  - the capture holds an exclusive flock on it while it runs, so a later capture in the same output folder can
//    tell a live folder from one a SIGKILL left, and removes the latter when it holds no part (nothing was
//    traced into it). A folder with parts is kept: its data can only come from there.
#pragma once

#include "profiler/base/status.h"

#include <string>

namespace placescope::capture {

class PartsFolder
{
public:
    // Removes stale empty parts folders in `outputDir`, then creates, locks and registers a new one.
    static Result<PartsFolder> create(const std::string& outputDir);

    PartsFolder(PartsFolder&& other) noexcept;
    PartsFolder& operator=(PartsFolder&&) = delete;
    PartsFolder(const PartsFolder&) = delete;
    PartsFolder& operator=(const PartsFolder&) = delete;
    ~PartsFolder(); // releases the lock; the folder itself goes with remove()

    const std::string& path() const { return m_path; }
    // Removes the folder and everything in it (the capture is done with it).
    void remove();
    // Leaves the folder where it is (a failed merge keeps the parts for a look); no longer removed on a signal.
    void keep();

private:
    PartsFolder(std::string path, int lockFd)
        : m_path(std::move(path))
        , m_lockFd(lockFd)
    { }

    std::string m_path;
    int m_lockFd = -1;
};

// The prefix of every parts folder's name.
inline constexpr const char* kPartsFolderPrefix = ".placescope-capture-";

} // namespace placescope::capture
