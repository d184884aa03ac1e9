// SPDX-License-Identifier: MIT
// A trace copied while a writer was in the middle of a transaction carries a hot rollback journal beside it. Reading
// it means rolling the journal back, which writes the file, so every reading command refuses it; the line said it was
// a write-ahead log (trace.sqlite-wal, which does not exist) and told the user to merge a log there is none of.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

namespace placescope::testing {
namespace {

const std::string kSample = std::string(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite";

void exec(sqlite3* db, const char* sql)
{
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sql;
}

// dir/trace.sqlite with a hot journal: a transaction whose pages spilled into the file (a tiny page cache) is copied,
// file and journal, while it is still open, as a backup of a running writer would be.
void makeHotJournal(const TempDir& dir)
{
    const std::filesystem::path writer = dir / "writer.sqlite";
    std::filesystem::copy_file(kSample, writer);
    std::filesystem::permissions(writer, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(writer.c_str(), &db), SQLITE_OK);
    exec(db, "PRAGMA journal_mode=DELETE");
    exec(db, "PRAGMA cache_size=2");
    exec(db, "BEGIN");
    exec(db, "CREATE TABLE filler(x BLOB)");
    for (int i = 0; i < 200; ++i)
        exec(db, "INSERT INTO filler VALUES (zeroblob(4000))");
    exec(db, "UPDATE StringIds SET value = value");
    ASSERT_TRUE(std::filesystem::exists(writer.string() + "-journal"));
    std::filesystem::copy_file(writer, dir / "trace.sqlite");
    std::filesystem::copy_file(writer.string() + "-journal", dir / "trace.sqlite-journal");
    exec(db, "ROLLBACK");
    sqlite3_close(db);
}

TEST(HotJournalCli, EveryReadingCommandNamesTheHotJournalAndWritesNothing)
{
    TempDir dir("hot_journal");
    makeHotJournal(dir);
    if (::testing::Test::HasFatalFailure())
        return;
    const std::string trace = dir.file("trace.sqlite");
    const std::string before = readFile(trace);
    const std::string journalBefore = readFile(trace + "-journal");
    const std::vector<std::vector<std::string>> commands
        = { { "stats", trace }, { "query", trace, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" },
              { "analyze", trace }, { "report", "idle", trace }, { "whatif", trace }, { "diff", trace, kSample },
              { "export", trace, "-o", dir.file("out.json") }, { "import", trace, "-o", dir.file("out.sqlite") } };
    for (const auto& args : commands) {
        const CliRun r = runPlacescope(args, dir.path());
        expectOneLineError(r, 1,
            trace + ": its rollback journal " + trace + "-journal holds a write that was cut off (a hot journal)");
        EXPECT_EQ(r.err.find("write-ahead"), std::string::npos) << r.err;
        EXPECT_EQ(readFile(trace), before) << args.front() << " changed the trace";
        EXPECT_EQ(readFile(trace + "-journal"), journalBefore) << args.front() << " changed the journal";
        EXPECT_FALSE(std::filesystem::exists(trace + "-wal"));
        EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
        EXPECT_FALSE(std::filesystem::exists(dir / "out.sqlite"));
    }
}

} // namespace
} // namespace placescope::testing
