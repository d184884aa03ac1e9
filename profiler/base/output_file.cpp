// SPDX-License-Identifier: MIT
#include "profiler/base/output_file.h"

#include "profiler/base/folder_lock.h"
#include "profiler/base/temp_file_registry.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <sys/file.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

// SQLite's files beside a database. Beside a new output they are stale: SQLite would apply an old -wal or roll
// back an old -journal into the new file. Beside a temporary file they are its own, removed with it.
constexpr const char* kSqliteSidecars[] = { "-wal", "-shm", "-journal" };

const char* kindName(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

std::string errnoText(int error) { return std::strerror(error); }

// The file an output replaces: a symbolic link's final target, so the rename keeps the link and the target's
// folder holds the temporary file (a rename cannot cross file systems). A dangling link resolves to itself.
std::string resolveTarget(const std::string& path)
{
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
        return path;
    std::error_code error;
    fs::path resolved = fs::weakly_canonical(path, error);
    return error ? path : resolved.string();
}

// The same path once `.`, `..` and links are resolved, as far as the path exists.
fs::path resolvedPath(const std::string& path)
{
    std::error_code error;
    fs::path resolved = fs::weakly_canonical(path, error);
    return error ? fs::absolute(path, error).lexically_normal() : resolved;
}

// The kind and identity checks, on the file that would be replaced.
Status checkTarget(const std::string& path, const std::string& target, const std::vector<std::string>& inputs)
{
    if (path.empty())
        return Status::error("no output file given (-o is empty)");
    // Commands that can write to standard output take "-" before they get here; for the others (a trace is a
    // SQLite file, which cannot be streamed) "-" would otherwise become a file named "-".
    if (path == "-")
        return Status::error("-o - (standard output) is not possible for this output: give a file path");
    struct stat out;
    const bool exists = ::stat(target.c_str(), &out) == 0;
    if (exists && !S_ISREG(out.st_mode))
        return Status::error("-o " + path + " is " + kindName(out.st_mode)
            + ", not a regular file: refusing to replace it (give a file path)");
    // A link someone else made (in /tmp, or a shared folder) could point at any file of the user's: written
    // through, it would replace that file. Only the user's own links (and root's) are followed.
    struct stat link;
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && link.st_uid != ::geteuid() && link.st_uid != 0)
        return Status::error("-o " + path + " is a symbolic link of another user (uid " + std::to_string(link.st_uid)
            + "): refusing to write through it (remove it or give another path)");
    // Replacing another user's file would hand it to this user. Root keeps the owner instead (commit()).
    if (exists && out.st_uid != ::geteuid() && ::geteuid() != 0)
        return Status::error("-o " + path + " belongs to another user (uid " + std::to_string(out.st_uid)
            + "): refusing to replace it (remove it or give another path)");
    const fs::path resolvedOut = resolvedPath(target);
    for (const std::string& input : inputs) {
        if (input.empty())
            continue;
        struct stat in;
        // Same inode catches hard links and bind mounts; the resolved path catches an input that cannot be
        // stat'ed yet still names the output.
        bool same = exists && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino;
        if (!same)
            same = resolvedPath(input) == resolvedOut;
        if (same)
            return Status::error(
                "-o " + path + " is the input " + input + ": refusing to overwrite it (write to another file)");
    }
    // The folder must take a new file (the temporary one): said now, not after a long analysis or replay.
    const std::string folder = fs::path(target).parent_path().string();
    if (::access(folder.empty() ? "." : folder.c_str(), W_OK | X_OK) != 0)
        return Status::error("cannot write " + path + ": " + errnoText(errno));
    return Status::ok();
}

// The permission bits an output replacing an existing file gets: the file's own (a private 0600 file stays
// private), without set-user/group-id bits, which no written document should carry.
mode_t keptMode(const struct stat& existing) { return existing.st_mode & 0777; }

// Makes the temporary file no more open than the file it will replace, while the writer fills it: the file's group
// and other bits, with read and write for the writer.
void restrictLikeExisting(const std::string& temp, const std::string& target)
{
    struct stat existing;
    if (::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
        ::chmod(temp.c_str(), keptMode(existing) | S_IRUSR | S_IWUSR);
}

// Removes `path` and its SQLite sidecars, ignoring what is not there.
void removeWithSidecars(const std::string& path)
{
    ::unlink(path.c_str());
    for (const char* suffix : kSqliteSidecars)
        ::unlink((path + suffix).c_str());
}

// Temporary files of `target` ("<name>.<pid>-<n>.partial") left by processes killed before they could remove them:
// no live OutputFile holds their flock and their pid is gone (both: a process of another pid namespace sharing the
// folder holds its lock; one of an older Placescope, without the lock, still has its pid). Called under the
// folder's lock, which create() holds from making its own file until it is locked. Only the user's own files go
// (root's: any).
void removeStalePartials(const std::string& target)
{
    const fs::path targetPath(target);
    const std::string prefix = targetPath.filename().string() + ".";
    const fs::path folder = targetPath.parent_path().empty() ? fs::path(".") : targetPath.parent_path();
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        constexpr std::string_view kSuffix = ".partial";
        if (name.size() <= prefix.size() + kSuffix.size() || name.compare(0, prefix.size(), prefix) != 0
            || name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
            continue;
        const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - kSuffix.size());
        const size_t dash = middle.find('-');
        if (dash == 0 || dash == std::string::npos || dash + 1 == middle.size()
            || middle.find_first_not_of("0123456789-") != std::string::npos
            || middle.find('-', dash + 1) != std::string::npos || dash > 9)
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(middle.substr(0, dash)));
        if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH)
            continue; // alive (or not ours to ask about)
        const int fd = ::open(entry.path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st;
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_uid == ::geteuid() || ::geteuid() == 0)
            && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
            removeWithSidecars(entry.path().string());
        ::close(fd);
    }
}

} // namespace

Status checkOutputPath(const std::string& path, const std::vector<std::string>& inputs)
{
    return checkTarget(path, resolveTarget(path), inputs);
}

Result<OutputFile> OutputFile::create(const std::string& path, const std::vector<std::string>& inputs)
{
    OutputFile file;
    file.m_path = path;
    file.m_target = resolveTarget(path);
    PLACESCOPE_RETURN_IF_ERROR(checkTarget(path, file.m_target, inputs));
    // Unique per process (pid) and per output in it (counter); O_EXCL makes it ours even where pids repeat
    // (containers sharing a folder, NFS). Mode 0666 lets the umask decide, as for any file the user creates.
    static std::atomic<unsigned> counter { 0 };
    const std::string folder = fs::path(file.m_target).parent_path().string();
    FolderLock lock(folder.empty() ? "." : folder); // no other create() sees our file before it is locked
    removeStalePartials(file.m_target);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string temp
            = file.m_target + "." + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".partial";
        int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) { }
            file.m_lockFd = fd; // held until commit() or discard()
            restrictLikeExisting(temp, file.m_target);
            registerTempFile(temp); // a command stopped by a signal removes it (temp_file_registry.h)
            file.m_tempPath = std::move(temp);
            return file;
        }
        if (errno != EEXIST)
            return Status::error("cannot write " + path + ": " + errnoText(errno));
    }
    return Status::error("cannot write " + path + ": no free temporary name beside it");
}

Result<OutputFile> OutputFile::adopt(const std::string& path, const std::string& existingTempPath)
{
    OutputFile file;
    file.m_path = path;
    file.m_target = resolveTarget(path);
    file.m_tempPath = existingTempPath; // owned from here: removed if the check below fails
    registerTempFile(existingTempPath);
    PLACESCOPE_RETURN_IF_ERROR(checkTarget(path, file.m_target, {}));
    restrictLikeExisting(existingTempPath, file.m_target);
    return file;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_target(std::move(other.m_target))
    , m_tempPath(std::move(other.m_tempPath))
    , m_lockFd(other.m_lockFd)
{
    other.m_tempPath.clear();
    other.m_lockFd = -1;
}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept
{
    if (this != &other) {
        discard();
        m_path = std::move(other.m_path);
        m_target = std::move(other.m_target);
        m_tempPath = std::move(other.m_tempPath);
        m_lockFd = other.m_lockFd;
        other.m_tempPath.clear();
        other.m_lockFd = -1;
    }
    return *this;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::unlock()
{
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_lockFd = -1;
}

void OutputFile::discard()
{
    if (m_tempPath.empty())
        return;
    removeWithSidecars(m_tempPath);
    unregisterTempFile(m_tempPath);
    m_tempPath.clear();
    unlock();
}

void OutputFile::release()
{
    unregisterTempFile(m_tempPath); // another process finishes it: a signal here must not remove it
    m_tempPath.clear();
    unlock();
}

Status OutputFile::commit()
{
    if (m_tempPath.empty())
        return Status::error("cannot write " + m_path + ": the output was already finished");
    std::string folder = fs::path(m_target).parent_path().string();
    Status status = Status::ok();
    {
        FolderLock lock(folder.empty() ? "." : folder);
        // Checked again under the lock: the output may have become something else while the writer worked.
        struct stat st;
        if (::stat(m_target.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            status = Status::error("-o " + m_path + " is " + kindName(st.st_mode)
                + ", not a regular file: refusing to replace it (give a file path)");
        else if (::stat(m_target.c_str(), &st) == 0) {
            // The replaced file's mode, owner (root may keep another user's; create() refused it to others) and
            // group (where the user may give it) go to the new one.
            if (::chmod(m_tempPath.c_str(), keptMode(st)) != 0)
                status = Status::error("cannot write " + m_path + ": cannot keep its mode: " + errnoText(errno));
            else if (st.st_uid != ::geteuid() && ::chown(m_tempPath.c_str(), st.st_uid, st.st_gid) != 0)
                status = Status::error("cannot write " + m_path + ": cannot keep its owner: " + errnoText(errno));
            else if (st.st_uid == ::geteuid())
                (void)!::chown(m_tempPath.c_str(), static_cast<uid_t>(-1), st.st_gid); // not a member: the user's
        }
        for (const char* suffix : kSqliteSidecars) {
            if (!status.isOk())
                break;
            const std::string sidecar = m_target + suffix;
            if (::lstat(sidecar.c_str(), &st) == 0 && ::unlink(sidecar.c_str()) != 0)
                status = Status::error(
                    "cannot remove the stale " + sidecar + " (it would corrupt the new file): " + errnoText(errno));
        }
        if (status.isOk() && ::rename(m_tempPath.c_str(), m_target.c_str()) != 0)
            status = Status::error("cannot write " + m_path + ": " + errnoText(errno));
    }
    if (!status.isOk()) {
        discard();
        return status;
    }
    // The temporary file is the output now; what SQLite left beside the temporary name (nothing, once the
    // database was closed) goes with it.
    for (const char* suffix : kSqliteSidecars)
        ::unlink((m_tempPath + suffix).c_str());
    unregisterTempFile(m_tempPath);
    m_tempPath.clear();
    unlock();
    return Status::ok();
}

Status writeFileAtomically(const std::string& path, std::string_view content, const std::vector<std::string>& inputs)
{
    PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::create(path, inputs));
    FILE* file = std::fopen(output.tempPath().c_str(), "wb");
    if (!file)
        return Status::error("cannot write " + path + ": " + errnoText(errno));
    int error = 0;
    errno = 0;
    if (std::fwrite(content.data(), 1, content.size(), file) != content.size())
        error = errno ? errno : EIO;
    if (std::fclose(file) != 0 && error == 0)
        error = errno ? errno : EIO;
    if (error != 0)
        return Status::error("cannot write " + path + ": " + errnoText(error)); // the temporary file goes with output
    return output.commit();
}

} // namespace placescope
