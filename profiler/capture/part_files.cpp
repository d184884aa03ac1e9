// SPDX-License-Identifier: MIT
#include "profiler/capture/part_files.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace placescope::capture {
namespace {

namespace fs = std::filesystem;

// Writes `text` to dir/name through a temporary file and a rename, so a reader never sees half a line.
Status writeAtomically(const std::string& dir, const std::string& name, const std::string& text)
{
    std::string finalPath = dir + "/" + name;
    std::string tempPath = finalPath + ".tmp";
    FILE* file = std::fopen(tempPath.c_str(), "w");
    if (!file)
        return Status::error("cannot write " + tempPath);
    bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    written = std::fclose(file) == 0 && written;
    if (!written || std::rename(tempPath.c_str(), finalPath.c_str()) != 0)
        return Status::error("cannot write " + finalPath);
    return Status::ok();
}

// Lists dir/<prefix><pid><suffix> files as (pid, path), sorted by pid.
std::vector<std::pair<int64_t, std::string>> listByPid(
    const std::string& dir, const std::string& prefix, const std::string& suffix)
{
    std::vector<std::pair<int64_t, std::string>> files;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0
            || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        files.emplace_back(std::stoll(digits), it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

std::string partTracePath(const std::string& dir, int64_t pid)
{
    return dir + "/part-" + std::to_string(pid) + ".sqlite";
}

std::vector<std::string> listPartFiles(const std::string& dir)
{
    std::vector<std::string> paths;
    for (auto& [pid, path] : listByPid(dir, "part-", ".sqlite.partial"))
        paths.push_back(path);
    return paths;
}

Status writeStatusFile(const std::string& dir, const PartStatus& status)
{
    char line[160];
    std::snprintf(line, sizeof line, "%" PRId64 " %" PRId64 " %" PRId64 " %d\n", status.events, status.buffersInFlight,
        status.droppedRecords, status.done ? 1 : 0);
    return writeAtomically(dir, "status-" + std::to_string(status.pid), line);
}

std::vector<PartStatus> readStatusFiles(const std::string& dir)
{
    std::vector<PartStatus> statuses;
    for (auto& [pid, path] : listByPid(dir, "status-", "")) {
        std::ifstream in(path);
        PartStatus status;
        int done = 0;
        status.pid = pid;
        if (in >> status.events >> status.buffersInFlight >> status.droppedRecords >> done) {
            status.done = done != 0;
            statuses.push_back(status);
        }
    }
    return statuses;
}

Status writeErrorFile(const std::string& dir, int64_t pid, const std::string& message)
{
    std::string line = message;
    std::replace(line.begin(), line.end(), '\n', ' ');
    return writeAtomically(dir, "error-" + std::to_string(pid), line + "\n");
}

std::vector<PartError> readErrorFiles(const std::string& dir)
{
    std::vector<PartError> errors;
    for (auto& [pid, path] : listByPid(dir, "error-", "")) {
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);
        if (!line.empty())
            errors.push_back({ pid, line });
    }
    return errors;
}

} // namespace placescope::capture
