// SPDX-License-Identifier: MIT
// "No stream" on a synchronization row: nsys and Kineto write 4294967295 for a context sync's stream (and for a
// sync without an event), and so do our imports. Files written before kept NULL there. Both must read the same:
// the same sync waits, the same findings and the same what-if replay (issue 16).
#include "analysis/findings/analyzer.h"
#include "analysis/render/report_writer.h"
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "tests/whatif/replay/whatif_fixture.h"

#include <unistd.h>

#include <filesystem>

namespace placescope::testing {
namespace {

int64_t count(const std::string& path, const std::string& sql)
{
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    EXPECT_TRUE(db.isOk());
    auto statement = db->prepare(sql);
    EXPECT_TRUE(statement.isOk()) << sql;
    return statement.isOk() && statement->step() ? statement->columnInt(0) : -1;
}

std::string jsonReport(const std::string& path)
{
    auto db = openTrace(path);
    EXPECT_TRUE(db.isOk()) << db.status().message();
    auto report = analyzeTrace(*db, AnalysisOptions {});
    EXPECT_TRUE(report.isOk()) << report.status().message();
    return report.isOk() ? renderJsonReport(*report) : std::string();
}

class NoStreamSync : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path() / ("ps_nostream_" + std::to_string(::getpid()));
        std::filesystem::create_directories(m_dir);
        m_current = (m_dir / "current.sqlite").string();
        m_legacy = (m_dir / "legacy.sqlite").string();
        // AlexNet on an A100 (Kineto): 16 stream syncs, 5 context syncs whose stream Kineto writes as 4294967295.
        ASSERT_TRUE(
            importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz" }, m_current, {})
                .isOk());
        std::filesystem::copy_file(m_current, m_legacy);
        auto db = SqliteDb::open(m_legacy, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(
            db->exec("UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET streamId = NULL WHERE streamId = 4294967295;"
                     "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET eventId = NULL WHERE eventId = 4294967295")
                .isOk());
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::filesystem::path m_dir;
    std::string m_current, m_legacy;
};

TEST_F(NoStreamSync, KinetoImportWritesNsysNoStreamId)
{
    const std::string sync = "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE ";
    EXPECT_EQ(count(m_current, sync + "syncType = 4 AND streamId = 4294967295"), 5);
    EXPECT_EQ(count(m_current, sync + "syncType = 3 AND streamId = 7"), 16);
    EXPECT_EQ(count(m_current, sync + "streamId IS NULL OR eventId IS NULL"), 0);
    // Only the 20 stream waits name an event (Kineto's wait_on_cuda_event_id, with the record it resolved stored as
    // an event record, issue 25); every other row says "no event" as nsys does.
    EXPECT_EQ(count(m_current, sync + "syncType = 2 AND eventId <> 4294967295"), 20);
    EXPECT_EQ(count(m_current, sync + "eventId = 4294967295"), count(m_current, sync + "syncType <> 2"));
    EXPECT_EQ(count(m_current, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"), 20);
    // The legacy copy really holds the old form.
    EXPECT_EQ(count(m_legacy, sync + "syncType = 4 AND streamId IS NULL"), 5);
}

TEST_F(NoStreamSync, ReadersTakeTheNoStreamIdAsTheyTookNull)
{
    auto currentDb = openTrace(m_current);
    auto legacyDb = openTrace(m_legacy);
    ASSERT_TRUE(currentDb.isOk() && legacyDb.isOk());
    auto current = TraceData::load(*currentDb);
    auto legacy = TraceData::load(*legacyDb);
    ASSERT_TRUE(current.isOk() && legacy.isOk());
    ASSERT_EQ(current->syncWaits.size(), legacy->syncWaits.size());
    int contextSyncs = 0;
    for (size_t i = 0; i < current->syncWaits.size(); ++i) {
        const SyncWait& a = current->syncWaits[i];
        const SyncWait& b = legacy->syncWaits[i];
        EXPECT_EQ(std::make_tuple(a.startNs, a.endNs, a.globalPid, a.deviceId, a.streamId, a.correlationId, a.syncType),
            std::make_tuple(b.startNs, b.endNs, b.globalPid, b.deviceId, b.streamId, b.correlationId, b.syncType));
        if (a.syncType == 4) {
            ++contextSyncs;
            EXPECT_EQ(a.streamId, -1);
        }
    }
    EXPECT_EQ(contextSyncs, 5);

    // Findings, with their simulated savings, are the same.
    const std::string report = jsonReport(m_current);
    EXPECT_NE(report.find("\"findings\""), std::string::npos);
    EXPECT_EQ(report, jsonReport(m_legacy));

    // The what-if replay too: removing the syncs predicts the same steps, both through TraceData and from the store.
    WhatIfRun a = runEdits(m_current, { "no-sync" });
    WhatIfRun b = runEdits(m_legacy, { "no-sync" });
    EXPECT_GT(a.result.predicted.spanNs, 0);
    EXPECT_EQ(a.result.replay.spanNs, a.result.measured.spanNs);
    EXPECT_EQ(std::make_tuple(
                  a.result.replay.stepNs, a.result.replay.spanNs, a.result.predicted.stepNs, a.result.predicted.spanNs),
        std::make_tuple(
            b.result.replay.stepNs, b.result.replay.spanNs, b.result.predicted.stepNs, b.result.predicted.spanNs));
    WhatIfRun c = runEditsFromStore(m_current, { "no-sync" });
    EXPECT_EQ(c.result.predicted.spanNs, a.result.predicted.spanNs);
}

} // namespace
} // namespace placescope::testing
