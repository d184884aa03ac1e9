// SPDX-License-Identifier: MIT
// `-o` of every command that writes a file (import, export, analyze, place, whatif), run through the placescope
// binary: an output that is an input or not a regular file is refused with one line and a non-zero exit, and the
// input is left byte for byte; a stale -wal beside the output is not applied to the new file; two imports to one
// path both tell the truth; a folder the user cannot write is one clear line. Every case also checks the files
// left: nothing but what the test put there (no temporary file).
#include "profiler/store/sqlite_db.h"
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;
using testing::readFile;

std::string data(const std::string& relative) { return std::string(PLACESCOPE_DATA_DIR) + "/" + relative; }

class OutputCliTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const std::string name = std::string("ps_output_cli_") + std::to_string(::getpid()) + "_"
            + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_dir = fs::temp_directory_path() / name;
        m_logs = fs::temp_directory_path() / (name + "_logs");
        fs::remove_all(m_dir);
        fs::remove_all(m_logs);
        fs::create_directories(m_dir);
        fs::create_directories(m_logs);
        // The non-root case runs as nobody: it must reach the inputs.
        fs::permissions(m_dir, fs::perms::all & ~(fs::perms::group_write | fs::perms::others_write));
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::permissions(m_dir, fs::perms::owner_all, fs::perm_options::add, ignored);
        for (const auto& entry : fs::recursive_directory_iterator(m_dir, ignored))
            if (entry.is_directory(ignored))
                fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
        fs::remove_all(m_dir);
        fs::remove_all(m_logs);
    }

    std::string path(const std::string& name) const { return (m_dir / name).string(); }

    // Starts placescope (or `prefix` then placescope) with `args`, stdout and stderr to files outside m_dir.
    testing::StartedRun start(
        const std::vector<std::string>& args, int slot, const std::vector<std::string>& prefix = {})
    {
        return testing::startPlacescope(args, m_logs, slot, prefix);
    }
    static CliRun finish(testing::StartedRun& started) { return testing::finishPlacescope(started); }
    CliRun run(const std::vector<std::string>& args, const std::vector<std::string>& prefix = {})
    {
        return testing::runPlacescope(args, m_logs, prefix);
    }

    // The names in the test's folder, sorted (before any SQLite open, which may add its own files).
    std::vector<std::string> names() const
    {
        std::vector<std::string> result;
        for (const auto& entry : fs::directory_iterator(m_dir))
            result.push_back(entry.path().filename().string());
        std::sort(result.begin(), result.end());
        return result;
    }

    // A copy of a small Kineto trace as the input, so the test may check it byte for byte.
    std::string copyInput(
        const std::string& name, const std::string& source = "traces/hta_benchmark_simple_add_trace.json.gz")
    {
        fs::copy_file(data(source), path(name));
        return path(name);
    }
    // A Placescope trace imported from the small Kineto trace.
    std::string importedTrace(const std::string& name)
    {
        const std::string input = (m_logs / "source.json.gz").string();
        fs::copy_file(
            data("traces/hta_benchmark_simple_add_trace.json.gz"), input, fs::copy_options::overwrite_existing);
        CliRun imported = run({ "import", input, "-o", path(name), "-q" });
        EXPECT_EQ(imported.exitCode, 0) << imported.err;
        return path(name);
    }

    // A refused command: non-zero exit, exactly one line on stderr matching `expect`.
    static void expectRefused(const CliRun& r, const std::string& expect)
    {
        EXPECT_NE(r.exitCode, 0);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_TRUE(std::regex_search(r.err, std::regex(expect))) << r.err << " does not match " << expect;
    }

    fs::path m_dir;
    fs::path m_logs;
};

bool isCharacterDevice(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

bool isFifo(const std::string& path)
{
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

int64_t count(const std::string& trace, const std::string& sql)
{
    auto db = SqliteDb::open(trace, SqliteDb::Mode::ReadOnly);
    if (!db.isOk())
        return -1;
    auto n = db->queryInt(sql);
    return n.isOk() ? *n : -1;
}

std::string integrity(const std::string& trace)
{
    auto db = SqliteDb::open(trace, SqliteDb::Mode::ReadOnly);
    if (!db.isOk())
        return db.status().message();
    auto check = db->prepare("PRAGMA integrity_check");
    if (!check.isOk() || !check->step())
        return "integrity_check did not run";
    return check->columnText(0);
}

// ---- -o equal to an input ----

TEST_F(OutputCliTest, ImportRefusesOutputThatIsTheInput)
{
    const std::string input = copyInput("in.json.gz");
    const std::string before = readFile(input);
    expectRefused(run({ "import", input, "-o", input }),
        "^placescope import: -o .*in.json.gz is the input .*in.json.gz: refusing to overwrite it");
    EXPECT_EQ(readFile(input), before);
    EXPECT_EQ(names(), std::vector<std::string> { "in.json.gz" });
}

TEST_F(OutputCliTest, ImportRefusesInputSpelledWithDot)
{
    const std::string input = copyInput("in.json.gz");
    const std::string before = readFile(input);
    expectRefused(run({ "import", input, "-o", m_dir.string() + "/./in.json.gz" }), "is the input");
    EXPECT_EQ(readFile(input), before);
    EXPECT_EQ(names(), std::vector<std::string> { "in.json.gz" });
}

TEST_F(OutputCliTest, ImportRefusesHardLinkToInput)
{
    const std::string input = copyInput("in.json.gz");
    const std::string before = readFile(input);
    ASSERT_EQ(::link(input.c_str(), path("hard.json.gz").c_str()), 0);
    expectRefused(run({ "import", input, "-o", path("hard.json.gz") }), "hard.json.gz is the input");
    EXPECT_EQ(readFile(input), before);
    EXPECT_EQ(readFile(path("hard.json.gz")), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "hard.json.gz", "in.json.gz" }));
}

TEST_F(OutputCliTest, ImportRefusesSymlinkToInput)
{
    const std::string input = copyInput("in.json.gz");
    const std::string before = readFile(input);
    fs::create_symlink("in.json.gz", path("soft.json.gz"));
    expectRefused(run({ "import", input, "-o", path("soft.json.gz") }), "soft.json.gz is the input");
    EXPECT_EQ(readFile(input), before);
    EXPECT_TRUE(fs::is_symlink(path("soft.json.gz")));
    EXPECT_EQ(names(), (std::vector<std::string> { "in.json.gz", "soft.json.gz" }));
}

TEST_F(OutputCliTest, ImportRefusesOutputThatIsTheSecondInput)
{
    const std::string first = copyInput("rank0.json.gz");
    const std::string second = copyInput("rank1.json.gz");
    const std::string before = readFile(second);
    expectRefused(run({ "import", first, second, "-o", second }), "rank1.json.gz is the input");
    EXPECT_EQ(readFile(second), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "rank0.json.gz", "rank1.json.gz" }));
}

TEST_F(OutputCliTest, ExportRefusesOutputThatIsTheTrace)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string before = readFile(trace);
    expectRefused(run({ "export", trace, "-o", m_dir.string() + "/./run.sqlite" }),
        "^placescope export: -o .*/\\./run.sqlite is the input .*run.sqlite: refusing");
    EXPECT_EQ(readFile(trace), before);
    EXPECT_EQ(names(), std::vector<std::string> { "run.sqlite" });
}

TEST_F(OutputCliTest, AnalyzeRefusesOutputThatIsTheTrace)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string before = readFile(trace);
    expectRefused(run({ "analyze", trace, "-o", trace }), "^placescope analyze: -o .*run.sqlite is the input");
    EXPECT_EQ(readFile(trace), before);
    EXPECT_EQ(names(), std::vector<std::string> { "run.sqlite" });
}

TEST_F(OutputCliTest, AnalyzeRefusesOutputThatIsTheModel)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string model = copyInput("model.onnx", "models/mnist.onnx");
    const std::string before = readFile(model);
    expectRefused(run({ "analyze", trace, "--model", model, "-o", model }), "model.onnx is the input");
    EXPECT_EQ(readFile(model), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "model.onnx", "run.sqlite" }));
}

TEST_F(OutputCliTest, PlaceRefusesOutputThatIsTheModel)
{
    const std::string model = copyInput("model.onnx", "models/mnist.onnx");
    const std::string before = readFile(model);
    expectRefused(run({ "place", "--model", model, "-o", m_dir.string() + "/./model.onnx" }),
        "^placescope place: -o .*model.onnx is the input");
    EXPECT_EQ(readFile(model), before);
    EXPECT_EQ(names(), std::vector<std::string> { "model.onnx" });
}

TEST_F(OutputCliTest, PlaceRefusesOutputThatIsTheTrace)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string model = copyInput("model.onnx", "models/mnist.onnx");
    const std::string before = readFile(trace);
    expectRefused(run({ "place", "--model", model, "--trace", trace, "-o", trace }), "run.sqlite is the input");
    EXPECT_EQ(readFile(trace), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "model.onnx", "run.sqlite" }));
}

TEST_F(OutputCliTest, WhatIfRefusesOutputThatIsTheTrace)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string before = readFile(trace);
    ASSERT_EQ(::link(trace.c_str(), path("same.sqlite").c_str()), 0);
    expectRefused(run({ "whatif", trace, "--edit", "pinned", "-o", path("same.sqlite") }),
        "^placescope whatif: -o .*same.sqlite is the input");
    EXPECT_EQ(readFile(trace), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "run.sqlite", "same.sqlite" }));
}

// whatif a --compare c -o c overwrote the measured run it was asked to compare with, and exited 0 (issue 27).
TEST_F(OutputCliTest, WhatIfRefusesOutputThatIsTheComparedRun)
{
    const std::string trace = importedTrace("run.sqlite");
    const std::string compared = importedTrace("after.sqlite");
    const std::string before = readFile(compared);
    expectRefused(run({ "whatif", trace, "--edit", "pinned", "--compare", compared, "-o", compared }),
        "^placescope whatif: -o .*after.sqlite is the input");
    EXPECT_EQ(readFile(compared), before);
    EXPECT_EQ(names(), (std::vector<std::string> { "after.sqlite", "run.sqlite" }));
}

// ---- -o naming something that is not a regular file ----

TEST_F(OutputCliTest, ImportRefusesAFifo)
{
    const std::string input = copyInput("in.json.gz");
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0644), 0);
    expectRefused(run({ "import", input, "-o", path("out.fifo") }),
        "^placescope import: -o .*out.fifo is a FIFO \\(named pipe\\), not a regular file: refusing");
    EXPECT_TRUE(isFifo(path("out.fifo")));
    EXPECT_EQ(names(), (std::vector<std::string> { "in.json.gz", "out.fifo" }));
}

TEST_F(OutputCliTest, ExportRefusesAFifo)
{
    const std::string trace = importedTrace("run.sqlite");
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0644), 0);
    expectRefused(run({ "export", trace, "-o", path("out.fifo") }), "^placescope export: -o .*out.fifo is a FIFO");
    EXPECT_TRUE(isFifo(path("out.fifo")));
    EXPECT_EQ(names(), (std::vector<std::string> { "out.fifo", "run.sqlite" }));
}

TEST_F(OutputCliTest, AnalyzeRefusesAFifo)
{
    const std::string trace = importedTrace("run.sqlite");
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0644), 0);
    expectRefused(run({ "analyze", trace, "-o", path("out.fifo") }), "^placescope analyze: -o .*out.fifo is a FIFO");
    EXPECT_TRUE(isFifo(path("out.fifo")));
    EXPECT_EQ(names(), (std::vector<std::string> { "out.fifo", "run.sqlite" }));
}

TEST_F(OutputCliTest, PlaceRefusesAFifo)
{
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0644), 0);
    expectRefused(run({ "place", "--model", data("models/mnist.onnx"), "-o", path("out.fifo") }),
        "^placescope place: -o .*out.fifo is a FIFO");
    EXPECT_TRUE(isFifo(path("out.fifo")));
    EXPECT_EQ(names(), std::vector<std::string> { "out.fifo" });
}

TEST_F(OutputCliTest, WhatIfRefusesAFifo)
{
    const std::string trace = importedTrace("run.sqlite");
    ASSERT_EQ(::mkfifo(path("out.fifo").c_str(), 0644), 0);
    expectRefused(run({ "whatif", trace, "-o", path("out.fifo") }), "^placescope whatif: -o .*out.fifo is a FIFO");
    EXPECT_TRUE(isFifo(path("out.fifo")));
    EXPECT_EQ(names(), (std::vector<std::string> { "out.fifo", "run.sqlite" }));
}

TEST_F(OutputCliTest, ImportRefusesADirectory)
{
    const std::string input = copyInput("in.json.gz");
    fs::create_directories(m_dir / "folder");
    expectRefused(run({ "import", input, "-o", path("folder") }), "folder is a directory, not a regular file");
    EXPECT_TRUE(fs::is_directory(path("folder")));
    EXPECT_TRUE(fs::is_empty(path("folder")));
    EXPECT_EQ(names(), (std::vector<std::string> { "folder", "in.json.gz" }));
}

TEST_F(OutputCliTest, ImportRefusesACharacterDevice)
{
    // A copy of /dev/null's device number at a path of the test's own: the real /dev/null is never risked.
    const std::string input = copyInput("in.json.gz");
    if (::mknod(path("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        GTEST_SKIP() << "cannot create a device node here (not root, or nodev): " << std::strerror(errno);
    expectRefused(run({ "import", input, "-o", path("null") }),
        "^placescope import: -o .*null is a character device, not a regular file: refusing");
    EXPECT_TRUE(isCharacterDevice(path("null")));
    EXPECT_TRUE(isCharacterDevice("/dev/null"));
    EXPECT_EQ(names(), (std::vector<std::string> { "in.json.gz", "null" }));
}

TEST_F(OutputCliTest, EmptyOutputPathIsOneLine)
{
    const std::string input = copyInput("in.json.gz");
    expectRefused(run({ "import", input, "-o", "" }), "^placescope import: no output file given \\(-o is empty\\)\n$");
    EXPECT_EQ(names(), std::vector<std::string> { "in.json.gz" });
}

// ---- stale SQLite sidecars beside the output ----

TEST_F(OutputCliTest, ImportRemovesAStaleWalOfTheOutput)
{
    const std::string input = copyInput("in.json.gz");
    const std::string out = importedTrace("out.sqlite");
    {
        // A write-ahead log of another database, not checkpointed: what a killed writer of an earlier
        // out.sqlite leaves. Applied to the new file, it would overwrite its pages.
        auto other = SqliteDb::open((m_logs / "other.sqlite").string(), SqliteDb::Mode::Create);
        ASSERT_TRUE(other.isOk());
        ASSERT_TRUE(other
                        ->exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                               "CREATE TABLE stale(x); INSERT INTO stale VALUES (zeroblob(100000));")
                        .isOk());
        fs::copy_file((m_logs / "other.sqlite-wal").string(), out + "-wal");
        fs::copy_file((m_logs / "other.sqlite-shm").string(), out + "-shm");
    }
    CliRun imported = run({ "import", input, "-o", out, "-q" }); // -q: nothing on stderr but a warning or error
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_EQ(imported.err, "");
    // One self-contained file: no sidecar beside it, nothing temporary left.
    EXPECT_EQ(names(), (std::vector<std::string> { "in.json.gz", "out.sqlite" }));
    EXPECT_EQ(integrity(out), "ok");
    EXPECT_EQ(count(out, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'stale'"), 0);
    EXPECT_GT(count(out, "SELECT COUNT(*) FROM PS_META"), 0);
}

// ---- two imports to one path ----

TEST_F(OutputCliTest, TwoImportsToOnePathBothTellTheTruth)
{
    const std::string small = copyInput("small.json.gz");
    const std::string large = copyInput("large.json.gz", "traces/hta_alexnet_a100_1rank.json.gz");
    const std::string smallTrace = importedTrace("small.sqlite");
    ASSERT_EQ(run({ "import", large, "-o", path("large.sqlite"), "-q" }).exitCode, 0);
    const std::string kernels = "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
    const int64_t smallKernels = count(smallTrace, kernels);
    const int64_t largeKernels = count(path("large.sqlite"), kernels);
    ASSERT_NE(smallKernels, largeKernels);
    const std::vector<std::string> expectedNames { "large.json.gz", "large.sqlite", "out.sqlite", "small.json.gz",
        "small.sqlite" };
    for (int round = 0; round < 4; ++round) {
        testing::StartedRun a = start({ "import", small, "-o", path("out.sqlite") }, 1);
        testing::StartedRun b = start({ "import", large, "-o", path("out.sqlite") }, 2);
        CliRun first = finish(a);
        CliRun second = finish(b);
        // Each wrote a whole file of its own and moved it into place: both succeed, the last rename wins.
        EXPECT_EQ(first.exitCode, 0) << first.err;
        EXPECT_EQ(second.exitCode, 0) << second.err;
        EXPECT_EQ(names(), expectedNames) << "round " << round;
        EXPECT_EQ(integrity(path("out.sqlite")), "ok");
        const int64_t got = count(path("out.sqlite"), kernels);
        EXPECT_TRUE(got == smallKernels || got == largeKernels) << got;
    }
}

// ---- a folder the user cannot write ----

TEST_F(OutputCliTest, ImportIntoAFolderTheUserCannotWrite)
{
    const std::string input = copyInput("in.json.gz");
    fs::create_directories(m_dir / "readonly");
    fs::permissions(m_dir / "readonly",
        fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec
            | fs::perms::others_read | fs::perms::others_exec);
    // root writes anywhere: run as nobody then.
    std::vector<std::string> prefix;
    if (::geteuid() == 0) {
        if (!fs::exists("/usr/bin/setpriv"))
            GTEST_SKIP() << "running as root without setpriv to drop to an unprivileged user";
        prefix = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
        // nobody must reach the input (a TMPDIR under /root would make this a test of something else).
        for (fs::path p = m_dir; !p.empty() && p != p.root_path(); p = p.parent_path()) {
            struct stat st;
            if (::stat(p.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH))
                GTEST_SKIP() << p << " is not open to other users";
        }
    }
    const std::string out = path("readonly/x.sqlite");
    expectRefused(run({ "import", input, "-o", out }, prefix),
        "^placescope import: cannot write .*readonly/x.sqlite: Permission denied\n$");
    EXPECT_TRUE(fs::is_empty(m_dir / "readonly"));
    EXPECT_EQ(names(), (std::vector<std::string> { "in.json.gz", "readonly" }));
}

} // namespace
} // namespace placescope
