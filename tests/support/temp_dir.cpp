// SPDX-License-Identifier: MIT
#include "tests/support/temp_dir.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <system_error>

namespace placescope::testing {

TempDir::TempDir(const std::string& name)
{
    static std::atomic<int> s_count { 0 };
    m_path = std::filesystem::temp_directory_path()
        / ("ps_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(s_count++));
    std::filesystem::remove_all(m_path); // a folder of a dead process that had this pid
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir()
{
    // Folders a test made unreadable or unwritable (read-only inputs, a folder another user cannot enter) are opened
    // up again so that everything goes; a test that made something unremovable otherwise reports that itself.
    namespace fs = std::filesystem;
    std::error_code ignored;
    fs::permissions(m_path, fs::perms::owner_all, fs::perm_options::add, ignored);
    for (const auto& entry : fs::recursive_directory_iterator(m_path, ignored))
        if (entry.is_directory(ignored) && !entry.is_symlink(ignored))
            fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(m_path, ignored);
}

std::string TempDir::write(const std::string& child, const std::string& bytes) const
{
    const std::string path = file(child);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path;
}

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace placescope::testing
