// SPDX-License-Identifier: MIT
// A fresh folder of the test's own under TMPDIR, removed with everything in it when the TempDir goes. The one way a
// test gets a place to write: names are unique per process and per TempDir, so tests that CTest runs in parallel
// (and two TempDirs of one test) never share a file.
#pragma once

#include <filesystem>
#include <string>

namespace placescope::testing {

class TempDir
{
public:
    // `name` says what the folder is for (it appears in the folder's name, to find a leftover).
    explicit TempDir(const std::string& name = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& child) const { return m_path / child; }
    // `child`'s path inside the folder as a string, for argument lists.
    std::string file(const std::string& child) const { return (m_path / child).string(); }
    // Writes `bytes` to `child` inside the folder (replacing it) and returns its path, for a test's input files.
    std::string write(const std::string& child, const std::string& bytes) const;

private:
    std::filesystem::path m_path;
};

// A whole file's bytes ("" for a file that cannot be read), to copy or damage a test input.
std::string fileBytes(const std::string& path);

} // namespace placescope::testing
