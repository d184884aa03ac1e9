// SPDX-License-Identifier: MIT
// Inputs that are not files: a FIFO is read once into a temporary file that holds all of it and goes away with
// the SpooledInput; a regular file is read in place; importing through a FIFO gives the same trace as the file.
#include "profiler/importers/common/spooled_input.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class SpooledInputTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("ps_spooled_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // A FIFO fed with `content` by another thread (a FIFO's open blocks until both ends are there).
    std::string fifoWith(const std::string& content, std::thread& feeder)
    {
        const std::string fifo = (m_dir / "input.fifo").string();
        EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        feeder = std::thread([fifo, content] { std::ofstream(fifo, std::ios::binary) << content; });
        return fifo;
    }

    fs::path m_dir;
};

TEST_F(SpooledInputTest, AFifoIsReadOnceIntoATemporaryFileThatGoesAway)
{
    const std::string content = readAll(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz");
    ASSERT_FALSE(content.empty());
    std::thread feeder;
    const std::string fifo = fifoWith(content, feeder);
    std::string temporary;
    {
        auto spooled = SpooledInput::open(fifo);
        feeder.join();
        ASSERT_TRUE(spooled.isOk()) << spooled.status().message();
        EXPECT_TRUE(spooled->spooled());
        EXPECT_EQ(spooled->name(), fifo);
        temporary = spooled->readPath();
        EXPECT_NE(temporary, fifo);
        EXPECT_EQ(readAll(temporary), content);
    }
    EXPECT_FALSE(fs::exists(temporary));
}

// /dev/zero and a FIFO fed without end: the head is no trace's, so the copy never starts (it filled the temporary
// folder before).
TEST_F(SpooledInputTest, AnEndlessStreamThatIsNoTraceIsRefusedFromItsHead)
{
    const auto notATrace = [](std::string_view head) { return checkTraceHead(head, "input"); };
    auto zero = SpooledInput::open("/dev/zero", notATrace);
    ASSERT_FALSE(zero.isOk());
    EXPECT_EQ(zero.status().message(), checkTraceHead(std::string(16, '\0'), "input").message());

    const std::string fifo = (m_dir / "endless.fifo").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ::signal(SIGPIPE, SIG_IGN); // the feeder learns the reader left from EPIPE
    std::thread feeder([fifo] {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        const std::string line(4096, 'y');
        while (fd >= 0 && ::write(fd, line.data(), line.size()) > 0) { }
        if (fd >= 0)
            ::close(fd);
    });
    auto endless = SpooledInput::open(fifo, notATrace);
    feeder.join(); // ends only because the reader closed the FIFO
    ASSERT_FALSE(endless.isOk());
    EXPECT_NE(endless.status().message().find("input is not a trace"), std::string::npos) << endless.status().message();
}

TEST_F(SpooledInputTest, ARegularFileIsReadInPlace)
{
    const std::string file = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";
    auto spooled = SpooledInput::open(file);
    ASSERT_TRUE(spooled.isOk());
    EXPECT_FALSE(spooled->spooled());
    EXPECT_EQ(spooled->readPath(), file);
}

TEST_F(SpooledInputTest, ImportingThroughAFifoGivesTheSameTraceAsTheFile)
{
    const std::string file = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";
    const std::string direct = (m_dir / "direct.sqlite").string(), piped = (m_dir / "piped.sqlite").string();
    ASSERT_TRUE(importTraces({ file }, direct, ImportOptions {}).isOk());
    std::thread feeder;
    const std::string fifo = fifoWith(readAll(file), feeder);
    auto imported = importTraces({ fifo }, piped, ImportOptions {});
    feeder.join();
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    for (const char* sql : { "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL",
             "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL", "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS" }) {
        auto a = openTrace(direct), b = openTrace(piped);
        ASSERT_TRUE(a.isOk() && b.isOk());
        EXPECT_EQ(a->queryInt(sql).value(), b->queryInt(sql).value()) << sql;
    }
    auto b = openTrace(piped);
    auto name = b->prepare("SELECT value FROM PS_META WHERE key = 'source_file'");
    ASSERT_TRUE(name.isOk() && name->step());
    EXPECT_EQ(name->columnText(0), "input.fifo"); // the user's name, not the temporary copy's
}

} // namespace
} // namespace placescope
