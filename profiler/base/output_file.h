// SPDX-License-Identifier: MIT
// OutputFile: the one way Placescope writes a file the user named (every `-o`, the capture's merged trace, the
// GUI's imports). Writers fill a temporary file beside the output and commit() renames it into place, so:
//   - nothing the user must keep is replaced: an output that is one of the command's inputs (same inode, or the
//     same resolved path: `d/./x`, a hard or symbolic link) or that is not a regular file (a device such as
//     /dev/null, a FIFO, a directory, a socket) is refused before any work, with a one-line message;
//   - an output that exists keeps its mode (a private 0600 file stays private, also while it is written) and
//     its group; one owned by another user is refused (root replaces it and keeps its owner); a symbolic link is
//     written through only when it is the user's own (or root's): another user's link is refused;
//   - the temporary name is unique per process and created exclusively (O_EXCL), so two processes writing one
//     output never share a file: the last rename wins and both exit codes tell the truth;
//   - commit() removes stale SQLite sidecars of the output (-wal, -shm, -journal) before the rename, under an
//     exclusive lock on the output's folder, so an old write-ahead log is never applied to the new file;
//   - a writer that fails or is destroyed without commit() removes its temporary file (and its SQLite
//     sidecars): a failed command leaves nothing behind. One killed outright (SIGKILL, SIGQUIT, a crash) cannot:
//     the next create() for the same output removes such leftovers, the `.partial` files of that output no live
//     process holds locked (flock) whose pid is gone.
// Not thread-safe; one OutputFile per output, used from one thread.
#pragma once

#include "profiler/base/status.h"

#include <string>
#include <string_view>
#include <vector>

namespace placescope {

// The checks OutputFile::create() makes, without creating anything: for commands that do long work before they
// write (analyze, whatif, place) and should refuse a bad -o at once. `inputs` are the files the command reads.
Status checkOutputPath(const std::string& path, const std::vector<std::string>& inputs = {});

class OutputFile
{
public:
    // Checks `path` against `inputs` and its kind, then creates an empty temporary file in the output's folder.
    // A symbolic link of the user's (or root's) as output is written through: its target is replaced and the link
    // kept; another user's link is refused.
    static Result<OutputFile> create(const std::string& path, const std::vector<std::string>& inputs = {});
    // Takes over a file that already exists (the capture's crash-safe "<path>.partial", which a writer made and
    // flushed before knowing it would finish it): checked like create(), committed and cleaned up the same way.
    static Result<OutputFile> adopt(const std::string& path, const std::string& existingTempPath);

    OutputFile(OutputFile&& other) noexcept;
    OutputFile& operator=(OutputFile&& other) noexcept;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile(); // removes the temporary file unless committed

    const std::string& path() const { return m_path; } // as the user gave it, for messages
    const std::string& tempPath() const { return m_tempPath; } // where the writer writes (closed before commit())

    // Moves the finished temporary file to the output path. After a failure the temporary file is removed.
    Status commit();
    // Removes the temporary file now (what the destructor does).
    void discard();
    // Stops owning the temporary file, which stays where it is: the capture's part files, which another process
    // reads and finishes.
    void release();

private:
    OutputFile() = default;

    std::string m_path; // as given
    std::string m_target; // the file replaced: m_path, or a symbolic link's target
    std::string m_tempPath; // empty once committed or discarded
    // Open on the temporary file with an exclusive flock while this process may still write it: the next
    // create() for the output tells a leftover of a killed process (no lock) from a live writer's file.
    int m_lockFd = -1;
    void unlock();
};

// Writes `content` to `path` through an OutputFile: the text outputs (reports, proposals).
Status writeFileAtomically(
    const std::string& path, std::string_view content, const std::vector<std::string>& inputs = {});

} // namespace placescope
