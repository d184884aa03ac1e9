// SPDX-License-Identifier: MIT
// Temporary files for the graph source tests: unique per test, removed when the object goes away.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace placescope::test {

inline std::string modelPath(const std::string& name) { return std::string(PLACESCOPE_DATA_DIR) + "/models/" + name; }

inline std::string tracePath(const std::string& name) { return std::string(PLACESCOPE_DATA_DIR) + "/traces/" + name; }

class TempFile
{
public:
    explicit TempFile(const std::string& suffix)
    {
        // Outside a test (SetUpTestSuite) there is no test name: the suite's name and the process id serve.
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        const auto* suite = ::testing::UnitTest::GetInstance()->current_test_suite();
        const std::string owner = info ? std::string(info->test_suite_name()) + "_" + info->name()
                                       : std::string(suite ? suite->name() : "suite");
        m_path = (std::filesystem::temp_directory_path()
            / ("placescope_graph_" + owner + "_" + std::to_string(::getpid()) + suffix))
                     .string();
        std::filesystem::remove(m_path);
    }
    ~TempFile()
    {
        // A test may write the file in WAL mode itself; its -wal/-shm go with it.
        for (const char* companion : { "", "-wal", "-shm" })
            std::filesystem::remove(m_path + companion);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const { return m_path; }
    void write(const std::string& bytes) const
    {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

private:
    std::string m_path;
};

inline std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace placescope::test
