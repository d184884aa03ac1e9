// SPDX-License-Identifier: MIT
// A Kineto trace saved by a Windows editor: with a UTF-8 byte order mark it was "not a trace" (now imported, the BOM
// skipped); as UTF-16 it was "not a trace" too (now one line that says it is UTF-16 and how to convert it).
#include "tests/support/cli_run.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace placescope::testing {
namespace {

const std::string kTrace = R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":5,)"
                           R"("args":{"device":0,"stream":7}}]})";

TEST(TextEncodingCli, AUtf8ByteOrderMarkIsSkipped)
{
    TempDir dir("text_encoding_bom");
    std::ofstream(dir / "bom.json", std::ios::binary) << "\xEF\xBB\xBF" << kTrace;
    const CliRun r = runPlacescope({ "import", dir.file("bom.json"), "-o", dir.file("bom.sqlite"), "-q" }, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(queryInt(dir.file("bom.sqlite"), "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
}

TEST(TextEncodingCli, Utf16JsonIsNamedAsSuch)
{
    TempDir dir("text_encoding_utf16");
    for (const bool withBom : { true, false }) {
        std::string utf16 = withBom ? std::string("\xFF\xFE", 2) : std::string();
        for (char c : kTrace) {
            utf16 += c;
            utf16 += '\0';
        }
        std::ofstream(dir / "utf16.json", std::ios::binary) << utf16;
        expectOneLineError(runPlacescope({ "import", dir.file("utf16.json"), "-o", dir.file("u.sqlite") }, dir.path()),
            1, "utf16.json is UTF-16 text; a trace's JSON is UTF-8: convert it (iconv -f UTF-16 -t UTF-8)");
        EXPECT_FALSE(std::filesystem::exists(dir / "u.sqlite"));
    }
}

} // namespace
} // namespace placescope::testing
