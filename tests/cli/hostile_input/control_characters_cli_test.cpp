// SPDX-License-Identifier: MIT
// A file name, pattern or word with a newline made a two-line error, and one with an escape sequence sent it to the
// terminal raw (ESC [ 2 J clears the screen). Every line the CLI writes on stderr shows control characters escaped.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace placescope::testing {
namespace {

const std::string kTrace = std::string(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite";

void expectEscaped(const CliRun& r, int exitCode, const std::string& shown)
{
    expectOneLineError(r, exitCode, shown);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

TEST(ControlCharactersCli, ANameWithANewlineOrAnEscapeStaysOnOneLine)
{
    TempDir dir("control_characters");
    const std::string newline = dir.file("a\nb.sqlite");
    const std::string escape = dir.file("x\x1b[2J\x1b]0;title\x07.sqlite");
    const std::string shownNewline = dir.file("a\\nb.sqlite");
    const std::string shownEscape = dir.file("x\\x1b[2J\\x1b]0;title\\x07.sqlite");
    for (const auto& [name, shown] : { std::pair { newline, shownNewline }, std::pair { escape, shownEscape } }) {
        expectEscaped(runPlacescope({ "stats", name }, dir.path()), 1, "placescope stats: " + shown);
        expectEscaped(runPlacescope({ "query", name, "SELECT 1" }, dir.path()), 1, shown);
        expectEscaped(runPlacescope({ "diff", kTrace, name }, dir.path()), 1, shown);
        expectEscaped(runPlacescope({ "export", name, "-o", dir.file("out.json") }, dir.path()), 1, shown);
        expectEscaped(runPlacescope({ "import", name, "-o", dir.file("out.sqlite") }, dir.path()), 1, shown);
        expectEscaped(runPlacescope({ "place", "--model", name }, dir.path()), 1, shown);
    }
    // An existing file under such a name: the summary line of a command that wrote one is one line too.
    const std::string json = dir.file("run\n\x1b[31m.json");
    std::filesystem::copy_file(
        std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz", dir / "run.json.gz");
    const CliRun imported = runPlacescope({ "import", dir.file("run.json.gz"), "-o", json + ".sqlite" }, dir.path());
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_EQ(imported.err.find('\x1b'), std::string::npos) << imported.err;
    EXPECT_NE(imported.err.find("wrote " + dir.file("run\\n\\x1b[31m.json.sqlite")), std::string::npos) << imported.err;
    EXPECT_EQ(std::count(imported.err.begin(), imported.err.end(), '\n'), 1) << imported.err;
}

TEST(ControlCharactersCli, AnUnknownWordOrPatternWithControlCharactersIsShownEscaped)
{
    TempDir dir("control_characters_words");
    expectEscaped(runPlacescope({ "imp\x1b[2Jort" }, dir.path()), 2, "unknown command 'imp\\x1b[2Jort'");
    expectEscaped(runPlacescope({ "stats", kTrace, "--to\np" }, dir.path()), 2, "--to\\np");
    expectEscaped(runPlacescope({ "whatif", kTrace, "--edit", "kernels:(\n=x0.5" }, dir.path()), 2, "kernels:(\\n");
    expectEscaped(runPlacescope({ "report", "no\x1bsuch", kTrace }, dir.path()), 2, "no\\x1bsuch");
}

} // namespace
} // namespace placescope::testing
