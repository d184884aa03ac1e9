// SPDX-License-Identifier: MIT
#include "placement/graph/graph_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace placescope {

namespace {

Result<std::string> readPrefix(const std::string& path, size_t limit)
{
    struct stat info
    {
    };
    if (::stat(path.c_str(), &info) != 0)
        return Status::error(path + ": cannot open: " + std::strerror(errno));
    if (S_ISDIR(info.st_mode))
        return Status::error(path + ": is a directory, not a model file");
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return Status::error(path + ": cannot open: " + std::strerror(errno));
    std::string bytes;
    if (S_ISREG(info.st_mode))
        bytes.reserve(std::min<size_t>(limit, static_cast<size_t>(info.st_size)));
    char buffer[1 << 16];
    bool failed = false;
    while (bytes.size() < limit) {
        const size_t want = std::min(sizeof buffer, limit - bytes.size());
        const size_t got = std::fread(buffer, 1, want, file);
        bytes.append(buffer, got);
        if (got < want) {
            failed = std::ferror(file) != 0;
            break;
        }
    }
    std::fclose(file);
    if (failed)
        return Status::error(path + ": read error");
    if (bytes.empty())
        return Status::error(path + ": empty file");
    return bytes;
}

} // namespace

Result<std::string> readGraphFile(const std::string& path) { return readPrefix(path, static_cast<size_t>(-1)); }

Result<std::string> readGraphFileHead(const std::string& path, size_t count) { return readPrefix(path, count); }

} // namespace placescope
