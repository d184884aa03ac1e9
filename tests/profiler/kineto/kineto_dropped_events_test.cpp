// SPDX-License-Identifier: MIT
// Nothing silent (issue 15): every Kineto event is either imported or counted as a problem with its reason.
// B/E (begin/end) pairs become the rows X events would; a damaged ph key, a missing pid, a phase the importer does
// not map, a B without its E, a NUL in a name, bytes after the JSON document are counted; an input given twice is
// refused before anything is written.
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace placescope {
namespace {

class KinetoDroppedEvents : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_kineto_dropped_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& text)
    {
        std::string path = (m_dir / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    // Imports `events` (the elements of traceEvents) plus `after` (bytes after the document) into out.sqlite.
    std::string import(const std::string& events, const std::string& after = "")
    {
        std::string input = write("in.json", "{\"traceEvents\":[\n" + events + "\n]}" + after);
        std::string out = (m_dir / "out.sqlite").string();
        auto summary = importTraces({ input }, out, {});
        EXPECT_TRUE(summary.isOk()) << summary.status().message();
        return out;
    }
    static int64_t queryInt(const std::string& trace, const std::string& sql)
    {
        auto db = openTrace(trace);
        EXPECT_TRUE(db.isOk());
        auto value = db->queryInt(sql);
        EXPECT_TRUE(value.isOk()) << sql;
        return value.isOk() ? *value : -1;
    }
    static std::string queryText(const std::string& trace, const std::string& sql)
    {
        auto db = openTrace(trace);
        EXPECT_TRUE(db.isOk());
        auto statement = db->prepare(sql);
        EXPECT_TRUE(statement.isOk()) << sql;
        if (!statement.isOk() || !statement->step())
            return "<no row>";
        return statement->columnText(0);
    }
    static int64_t problems(const std::string& trace, const std::string& kind)
    {
        return queryInt(trace, "SELECT COALESCE(SUM(count), 0) FROM PS_PROBLEMS WHERE kind = '" + kind + "'");
    }

    std::filesystem::path m_dir;
};

const char* const kAnchor = R"({"ph":"X","cat":"cpu_op","name":"anchor","pid":100,"tid":1,"ts":1,"dur":1})";

TEST_F(KinetoDroppedEvents, BeginEndPairsBecomeNestedOpsAndKernels)
{
    std::string out = import(std::string(kAnchor) + R"(,
{"ph":"B","cat":"cpu_op","name":"outer","pid":100,"tid":1,"ts":10,"args":{"External id":7}},
{"ph":"X","cat":"cpu_op","name":"middle","pid":100,"tid":1,"ts":12,"dur":4},
{"ph":"B","cat":"cpu_op","name":"inner","pid":100,"tid":1,"ts":13},
{"ph":"E","pid":100,"tid":1,"ts":15},
{"ph":"E","pid":100,"tid":1,"ts":20},
{"ph":"X","cat":"cpu_op","name":"after","pid":100,"tid":1,"ts":21,"dur":1},
{"ph":"B","cat":"kernel","name":"k","pid":0,"tid":7,"ts":30,"args":{"stream":7,"device":0}},
{"ph":"E","cat":"kernel","name":"k","pid":0,"tid":7,"ts":34})");
    auto op = [&](const std::string& column, const std::string& name) {
        return queryInt(out,
            "SELECT " + column
                + " FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                  "WHERE s.value = '"
                + name + "'");
    };
    EXPECT_EQ(op("o.start", "outer"), 10000);
    EXPECT_EQ(op("o.end", "outer"), 20000);
    EXPECT_EQ(op("o.externalId", "outer"), 7);
    EXPECT_EQ(op("o.depth", "outer"), 0);
    EXPECT_EQ(op("o.depth", "middle"), 1);
    EXPECT_EQ(op("o.start", "inner"), 13000);
    EXPECT_EQ(op("o.end", "inner"), 15000);
    EXPECT_EQ(op("o.depth", "inner"), 2);
    EXPECT_EQ(op("o.depth", "after"), 0); // the outer op ended at 20 us: nothing holds "after" nested
    EXPECT_EQ(queryInt(out, "SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4000);
    EXPECT_EQ(queryInt(out, "SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL"), 7);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_PROBLEMS"), 0);
}

// Chrome trace format: the args of an E are merged into its B's; where both give one, the E's wins (as Perfetto and
// the trace viewer read them). Kernel args on the E place the kernel; op args on the E reach the op's row.
TEST_F(KinetoDroppedEvents, ArgsOfAnEndAreMergedIntoItsBegin)
{
    std::string out = import(std::string(kAnchor) + R"(,
{"ph":"B","cat":"cpu_op","name":"op","pid":100,"tid":1,"ts":10,"args":{"External id":7,"Sequence number":3}},
{"ph":"E","pid":100,"tid":1,"ts":20,"args":{"External id":8,"Input Dims":[[2,3]],"Input type":["float"]}},
{"ph":"B","cat":"kernel","name":"k","pid":0,"tid":7,"ts":30},
{"ph":"E","cat":"kernel","name":"k","pid":0,"tid":7,"ts":34,"args":{"stream":9,"device":0,"grid":[4,1,1]}})");
    auto op = [&](const std::string& column) {
        return queryText(out,
            "SELECT " + column
                + " FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                  "WHERE s.value = 'op'");
    };
    EXPECT_EQ(op("o.externalId"), "8"); // given by both: the E's
    EXPECT_EQ(op("o.sequenceNumber"), "3"); // the B's alone
    EXPECT_EQ(op("o.inputDims"), "[[2,3]]"); // the E's alone
    EXPECT_EQ(op("o.inputTypes"), "[\"float\"]");
    EXPECT_EQ(queryInt(out, "SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL"), 9);
    EXPECT_EQ(queryInt(out, "SELECT gridX FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_PROBLEMS"), 0);
}

TEST_F(KinetoDroppedEvents, UnpairedBeginOrEndIsCounted)
{
    std::string out = import(std::string(kAnchor) + R"(,
{"ph":"E","cat":"cpu_op","name":"end only","pid":100,"tid":2,"ts":5},
{"ph":"B","cat":"cpu_op","name":"never ends","pid":100,"tid":1,"ts":10})");
    EXPECT_EQ(problems(out, "kineto.unpaired_begin_end"), 2);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1); // the anchor only
}

TEST_F(KinetoDroppedEvents, DamagedPhaseMissingPidAndUnknownPhaseAreCounted)
{
    std::string out = import(std::string(kAnchor) + R"(,
{"ph ":"X","cat":"cpu_op","name":"damaged key","pid":100,"tid":1,"ts":10,"dur":1},
{"ph":7,"cat":"cpu_op","name":"not a string","pid":100,"tid":1,"ts":10,"dur":1},
{"ph":"X","cat":"cpu_op","name":"no pid","tid":1,"ts":10,"dur":1},
{"ph":"C","name":"memory","pid":100,"tid":1,"ts":10,"args":{"bytes":5}})");
    EXPECT_EQ(problems(out, "kineto.missing_phase"), 1);
    EXPECT_EQ(problems(out, "kineto.bad_json_record"), 1); // a field of the wrong type
    EXPECT_EQ(problems(out, "kineto.missing_pid"), 1);
    EXPECT_EQ(problems(out, "kineto.unknown_phase"), 1);
    EXPECT_EQ(queryText(out, "SELECT example FROM PS_PROBLEMS WHERE kind = 'kineto.unknown_phase'"), "C");
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1);
}

TEST_F(KinetoDroppedEvents, NulInANameIsReplacedNotTruncated)
{
    std::string out = import(std::string(kAnchor) + R"(,
{"ph":"X","cat":"cpu_op","name":"aten::a\u0000b","pid":100,"tid":1,"ts":10,"dur":1})");
    // length() of the stored text: a NUL would make SQLite's text functions see "aten::a" (7).
    EXPECT_EQ(queryText(out,
                  "SELECT s.value FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                  "WHERE o.start = 10000"),
        "aten::a?b");
    EXPECT_EQ(queryInt(out,
                  "SELECT length(s.value) FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                  "WHERE o.start = 10000"),
        9);
    EXPECT_EQ(problems(out, "kineto.nul_in_text"), 1);
}

TEST_F(KinetoDroppedEvents, BytesAfterTheDocumentAreCounted)
{
    std::string out = import(kAnchor, "\n{\"traceEvents\":[]}\n");
    EXPECT_EQ(problems(out, "kineto.trailing_data"), 1);
    EXPECT_EQ(queryText(out, "SELECT example FROM PS_PROBLEMS WHERE kind = 'kineto.trailing_data'"),
        "18 bytes, beginning {\"traceEvents\":[]}");
    std::string zeros = import(kAnchor, std::string(3, '\0'));
    EXPECT_EQ(problems(zeros, "kineto.trailing_data"), 1);
    std::string blanks = import(kAnchor, "\n \t\n");
    EXPECT_EQ(problems(blanks, "kineto.trailing_data"), 0);
}

TEST_F(KinetoDroppedEvents, TheSameInputTwiceIsRefused)
{
    std::string input = write("once.json", std::string("{\"traceEvents\":[") + kAnchor + "]}");
    std::filesystem::create_hard_link(input, m_dir / "link.json");
    std::string out = (m_dir / "out.sqlite").string();
    for (const std::string& second : { input, (m_dir / "." / "once.json").string(), (m_dir / "link.json").string() }) {
        auto summary = importTraces({ input, second }, out, {});
        ASSERT_FALSE(summary.isOk()) << second;
        EXPECT_NE(summary.status().message().find(second == input ? "is given twice" : "are the same file"),
            std::string::npos)
            << summary.status().message();
        EXPECT_FALSE(std::filesystem::exists(out));
    }
    // A copy of the file is refused as well: the same bytes under another name.
    std::filesystem::copy_file(input, m_dir / "copy.json");
    auto copied = importTraces({ input, (m_dir / "copy.json").string() }, out, {});
    ASSERT_FALSE(copied.isOk());
    EXPECT_NE(copied.status().message().find("hold the same bytes"), std::string::npos) << copied.status().message();
    EXPECT_FALSE(std::filesystem::exists(out));
    // Two files with their own events (here one byte apart, the size the same) stay two inputs.
    std::string otherAnchor = kAnchor;
    otherAnchor.replace(otherAnchor.find("\"ts\":1"), 6, "\"ts\":2");
    std::string other = write("other.json", std::string("{\"traceEvents\":[") + otherAnchor + "]}");
    ASSERT_EQ(std::filesystem::file_size(other), std::filesystem::file_size(input));
    auto summary = importTraces({ input, other }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 2);
}

// The real traces have none of these events: the new counts must not fire on them.
TEST(KinetoDroppedEventsRealTraces, NoFalseAlarms)
{
    for (const char* name : { "hta_alexnet_a100_1rank.json.gz", "kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }) {
        std::string out = (std::filesystem::temp_directory_path()
            / ("ps_kineto_dropped_real_" + std::to_string(::getpid()) + ".sqlite"))
                              .string();
        std::filesystem::remove(out);
        auto summary = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/" + name }, out, {});
        ASSERT_TRUE(summary.isOk()) << summary.status().message();
        auto db = openTrace(out);
        ASSERT_TRUE(db.isOk());
        auto count = db->queryInt("SELECT COUNT(*) FROM PS_PROBLEMS WHERE kind IN ('kineto.missing_phase', "
                                  "'kineto.missing_pid', 'kineto.unknown_phase', 'kineto.unpaired_begin_end', "
                                  "'kineto.nul_in_text', 'kineto.trailing_data')");
        ASSERT_TRUE(count.isOk());
        EXPECT_EQ(*count, 0) << name;
        EXPECT_GT(*db->queryInt("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 0) << name;
        std::filesystem::remove(out);
    }
}

} // namespace
} // namespace placescope
