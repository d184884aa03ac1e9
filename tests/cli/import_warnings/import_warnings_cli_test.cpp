// SPDX-License-Identifier: MIT
// `placescope import` of a Kineto trace that loses records (a damaged ph key, a B without its E) exits 0, writes the
// trace, and says in one warning line what was lost and how much; --quiet silences it; a trace that loses nothing
// gets no warning.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::runPlacescope;

class ImportWarnings : public ::testing::Test
{
protected:
    void SetUp() override { m_dir = m_temp.path(); }
    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(path(name), std::ios::binary) << text;
        return path(name);
    }
    static int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

    placescope::testing::TempDir m_temp { "import_warnings" };

    fs::path m_dir;
};

const char* const kLossy = R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"kept","pid":100,"tid":1,"ts":1,"dur":1},
{"ph ":"X","cat":"cpu_op","name":"damaged key","pid":100,"tid":1,"ts":2,"dur":1},
{"ph":"B","cat":"cpu_op","name":"never ends","pid":100,"tid":1,"ts":3}
]})";

TEST_F(ImportWarnings, LostRecordsAreNamedInOneWarningLine)
{
    const std::string input = write("lossy.json", kLossy);
    const CliRun run = runPlacescope({ "import", input, "-o", path("lossy.sqlite") }, m_dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(fs::is_regular_file(path("lossy.sqlite")));
    EXPECT_EQ(lines(run.err), 2) << run.err; // the summary and the warning
    EXPECT_NE(run.err.find("placescope import: warning: not all of the input was imported: "), std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("1 kineto.missing_phase"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("1 kineto.unpaired_begin_end"), std::string::npos) << run.err;

    const CliRun quiet = runPlacescope({ "import", input, "-o", path("quiet.sqlite"), "--quiet" }, m_dir);
    ASSERT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
}

TEST_F(ImportWarnings, NoWarningWhenNothingWasLost)
{
    const std::string input = write("clean.json", R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"a","pid":100,"tid":1,"ts":1,"dur":1},
{"ph":"B","cat":"cpu_op","name":"b","pid":100,"tid":1,"ts":3},{"ph":"E","pid":100,"tid":1,"ts":4}]})");
    const CliRun run = runPlacescope({ "import", input, "-o", path("clean.sqlite") }, m_dir);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(lines(run.err), 1) << run.err;
    EXPECT_EQ(run.err.find("warning:"), std::string::npos) << run.err;
}

} // namespace
} // namespace placescope
