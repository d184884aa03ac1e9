// SPDX-License-Identifier: MIT
// Two one-GPU runs on different GPU ids (issue 26: "0 ns -> 124 ms, share 265.9 %" for a run on GPU 3 against one on
// GPU 1): the CloverLeaf nsys export against a copy of itself whose every device id was moved from 0 to 3. Paired by
// position (auto), the GPUs compare as one with no delta and a note says so; paired by id they stay apart.
#include "analysis/diff/run_diff.h"
#include "analysis/diff/run_profile.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace placescope {
namespace {

class DevicePairing_ : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new std::filesystem::path(
            std::filesystem::temp_directory_path() / ("ps_device_pairing_" + std::to_string(::getpid())));
        std::filesystem::create_directories(*s_dir);
        const std::string gpu0 = (*s_dir / "gpu0.sqlite").string(), gpu3 = (*s_dir / "gpu3.sqlite").string();
        auto imported
            = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite" },
                gpu0, ImportOptions {});
        ASSERT_TRUE(imported.isOk()) << imported.status().message();
        std::filesystem::copy_file(gpu0, gpu3);
        auto db = openTrace(gpu3, TraceAccess::ReadWrite);
        ASSERT_TRUE(db.isOk()) << db.status().message();
        // Every table with a deviceId column: the same run, recorded on GPU 3.
        std::vector<std::string> tables;
        auto list = db->prepare("SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c "
                                "WHERE m.type = 'table' AND c.name = 'deviceId'");
        ASSERT_TRUE(list.isOk());
        while (list->step())
            tables.push_back(list->columnText(0));
        ASSERT_FALSE(tables.empty());
        for (const std::string& table : tables)
            ASSERT_TRUE(db->exec("UPDATE " + table + " SET deviceId = deviceId + 3").isOk()) << table;
        s_a = new RunProfile(std::move(profileRun(gpu0, ProfileOptions {}).value()));
        s_b = new RunProfile(std::move(profileRun(gpu3, ProfileOptions {}).value()));
    }
    static void TearDownTestSuite()
    {
        std::filesystem::remove_all(*s_dir);
        delete s_dir;
        delete s_a;
        delete s_b;
    }
    static std::vector<const Figure*> busyRows(const RunDiff& diff)
    {
        std::vector<const Figure*> rows;
        for (const Figure& f : diff.figures)
            if (f.section == "GPU busy, whole trace")
                rows.push_back(&f);
        return rows;
    }
    static bool notesSay(const RunDiff& diff, const std::string& text)
    {
        for (const std::string& note : diff.notes)
            if (note.find(text) != std::string::npos)
                return true;
        return false;
    }

    static std::filesystem::path* s_dir;
    static RunProfile *s_a, *s_b;
};
std::filesystem::path* DevicePairing_::s_dir = nullptr;
RunProfile* DevicePairing_::s_a = nullptr;
RunProfile* DevicePairing_::s_b = nullptr;

TEST_F(DevicePairing_, AutoPairsOneGpuRunsByPositionAndSaysSo)
{
    auto diff = diffRuns(*s_a, *s_b, DiffOptions {});
    ASSERT_TRUE(diff.isOk()) << diff.status().message();
    const auto rows = busyRows(*diff);
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0]->name, "GPU 0 / GPU 3");
    EXPECT_GT(rows[0]->a, 0);
    EXPECT_EQ(rows[0]->a, rows[0]->b); // the same run: nothing changed
    EXPECT_TRUE(notesSay(*diff, "paired by position (GPU 0 with GPU 3)")) << ::testing::PrintToString(diff->notes);
    // The per-lane breakdown over the steps pairs the same way: every figure of it unchanged.
    size_t laneFigures = 0;
    for (const Figure& f : diff->figures)
        if (f.section.find("over the steps") != std::string::npos) {
            ++laneFigures;
            EXPECT_EQ(f.a, f.b) << f.section << ": " << f.name;
            EXPECT_NE(f.section.find("GPU 0 / GPU 3"), std::string::npos) << f.section;
        }
    EXPECT_GT(laneFigures, 0U);
}

TEST_F(DevicePairing_, ByIdKeepsTheGpusApart)
{
    DiffOptions options;
    options.devices = DevicePairing::ById;
    auto diff = diffRuns(*s_a, *s_b, options);
    ASSERT_TRUE(diff.isOk()) << diff.status().message();
    const auto rows = busyRows(*diff);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0]->name, "GPU 0");
    EXPECT_EQ(rows[0]->b, 0);
    EXPECT_EQ(rows[1]->name, "GPU 3");
    EXPECT_EQ(rows[1]->a, 0);
    EXPECT_FALSE(notesSay(*diff, "paired by position"));
    DevicePairing parsed = DevicePairing::Auto;
    EXPECT_TRUE(parseDevicePairing("position", parsed));
    EXPECT_EQ(parsed, DevicePairing::ByPosition);
    EXPECT_FALSE(parseDevicePairing("rank", parsed));
}

} // namespace
} // namespace placescope
