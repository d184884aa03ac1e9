// SPDX-License-Identifier: MIT
// A trace says what it is in its SQLite header (PRAGMA application_id 'PSCT', user_version = schema version), and
// readers tell it from other SQLite files by that first: another application's file, a plain database and a
// damaged trace each get their own one-line message; traces written before the stamp (id 0, PS_META) and real
// nsys exports (id 0, no PS_META: the trace-file contract) keep working.
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_identity.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

const std::string kNsysExport
    = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";

class TraceIdentity : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("ps_trace_identity_" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string path(const std::string& name) const { return (m_dir / name).string(); }

    // The real nsys sample imported: a trace as every import writes it.
    std::string importedTrace()
    {
        const std::string out = path("trace.sqlite");
        auto summary = importTraces({ kNsysExport }, out, ImportOptions {});
        EXPECT_TRUE(summary.isOk()) << summary.status().message();
        return out;
    }
    // A SQLite file with one table, then `pragmas`.
    std::string sqliteFile(const std::string& name, const std::string& sql)
    {
        auto db = SqliteDb::open(path(name), SqliteDb::Mode::Create);
        EXPECT_TRUE(db.isOk());
        EXPECT_TRUE(db->exec(sql).isOk()) << sql;
        return path(name);
    }
    static int64_t pragma(const std::string& file, const std::string& name)
    {
        auto db = SqliteDb::open(file, SqliteDb::Mode::ReadOnly);
        EXPECT_TRUE(db.isOk());
        auto value = db->queryInt("PRAGMA " + name);
        EXPECT_TRUE(value.isOk());
        return value.isOk() ? *value : -1;
    }
    static std::string openError(const std::string& file)
    {
        auto db = openTrace(file);
        return db.isOk() ? std::string("opened") : db.status().message();
    }

    fs::path m_dir;
};

TEST_F(TraceIdentity, EveryWrittenTraceCarriesPsctAndItsSchemaVersion)
{
    const std::string trace = importedTrace();
    EXPECT_EQ(pragma(trace, "application_id"), kTraceApplicationId);
    EXPECT_EQ(pragma(trace, "user_version"), kTraceSchemaVersion);
    // Where file(1) and shared-mime-info read it: header bytes 68-71, big-endian.
    std::ifstream in(trace, std::ios::binary);
    char header[72] = {};
    in.read(header, sizeof header);
    EXPECT_EQ(std::string(header + 68, 4), "PSCT");
    EXPECT_EQ(openError(trace), "opened");
}

TEST_F(TraceIdentity, NsysExportsStillImportAndAreToldApartFromTraces)
{
    auto db = SqliteDb::open(kNsysExport, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    auto kind = identifySqliteFile(*db);
    ASSERT_TRUE(kind.isOk());
    EXPECT_EQ(*kind, SqliteFileKind::NsysExport);
    EXPECT_NE(openError(kNsysExport).find("is an Nsight Systems export; run `placescope import"), std::string::npos);
    // nsys-style SQL runs unchanged on the imported trace (the stamp is header data, not a table).
    auto trace = openTrace(importedTrace());
    ASSERT_TRUE(trace.isOk());
    auto kernels
        = trace->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName");
    ASSERT_TRUE(kernels.isOk());
    EXPECT_EQ(*kernels, 1312); // docs/commands/stats.md: 1,312 kernels in the sample
}

TEST_F(TraceIdentity, TracesWrittenBeforeTheStampStillOpen)
{
    const std::string trace = importedTrace();
    {
        auto db = SqliteDb::open(trace, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(db->exec("PRAGMA application_id=0").isOk());
    }
    EXPECT_EQ(pragma(trace, "application_id"), 0);
    EXPECT_EQ(openError(trace), "opened");
}

TEST_F(TraceIdentity, AnotherApplicationsFileIsNamedAsSuch)
{
    // A GeoPackage: application_id 'GPKG', even with a table named like ours.
    const std::string file
        = sqliteFile("map.gpkg", "PRAGMA application_id=1196444487; CREATE TABLE PS_META(key, value);");
    const std::string error = openError(file);
    EXPECT_NE(
        error.find("is a SQLite file of another application (application_id 0x47504B47 ('GPKG'))"), std::string::npos)
        << error;
    auto imported = importTraces({ file }, path("out.sqlite"), ImportOptions {});
    ASSERT_FALSE(imported.isOk());
    EXPECT_NE(imported.status().message().find("another application"), std::string::npos)
        << imported.status().message();
    EXPECT_FALSE(fs::exists(path("out.sqlite")));
}

TEST_F(TraceIdentity, PlainDatabaseAndDamagedTraceGetTheirOwnMessages)
{
    const std::string plain = sqliteFile("plain.sqlite", "CREATE TABLE t(x);");
    EXPECT_NE(openError(plain).find("is a SQLite database but not a Placescope trace"), std::string::npos)
        << openError(plain);
    const std::string damaged = sqliteFile("damaged.sqlite", "PRAGMA application_id=1347634004; CREATE TABLE t(x);");
    EXPECT_NE(openError(damaged).find("is a Placescope trace without its PS_META table"), std::string::npos)
        << openError(damaged);
}

TEST_F(TraceIdentity, ApplicationIdsAreDescribedInHexAndAsATag)
{
    EXPECT_EQ(describeApplicationId(kTraceApplicationId), "0x50534354 ('PSCT')");
    EXPECT_EQ(describeApplicationId(0x0F055112), "0x0F055112"); // not printable: hex only (Fossil's id)
    EXPECT_EQ(describeApplicationId(-1), "0xFFFFFFFF");
}

} // namespace
} // namespace placescope
