// SPDX-License-Identifier: MIT
// BatchedInsert: full multi-row statements and the single-row tail land every row once, in order, with
// constants from the row template; a failing step reports its error, and so does a statement that fails to
// compile when it is first needed.
#include "profiler/store/batched_insert.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace placescope {
namespace {

struct Pair
{
    int64_t key = 0;
    std::string text;
};

// Text is bound in place, as TraceWriter does: a row must outlive its statement's step.
void bindPair(SqliteStatement& statement, int first, const Pair& row)
{
    statement.bind(first, row.key);
    statement.bindBorrowed(first + 1, row.text);
}

// Long enough to live on the heap, so a row freed before its step would show as changed text.
std::string rowText(int i) { return "row " + std::to_string(i) + std::string(40, '.'); }

class BatchedInsertTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_path = (std::filesystem::temp_directory_path() / ("batched_insert_" + std::to_string(::getpid()) + ".sqlite"))
                     .string();
        std::filesystem::remove(m_path);
        auto db = SqliteDb::open(m_path, SqliteDb::Mode::Create);
        ASSERT_TRUE(db.isOk()) << db.status().message();
        m_db = std::move(*db);
        ASSERT_TRUE(m_db.exec("CREATE TABLE t (key INTEGER UNIQUE, marker INTEGER, text TEXT)").isOk());
    }
    void TearDown() override
    {
        m_db.close();
        std::filesystem::remove(m_path);
    }

    std::string m_path;
    SqliteDb m_db;
};

TEST_F(BatchedInsertTest, SqlRepeatsTheRowTemplate)
{
    EXPECT_EQ(
        multiRowInsertSql("INSERT INTO t (a, b)", "(?,1,?)", 3), "INSERT INTO t (a, b) VALUES (?,1,?),(?,1,?),(?,1,?)");
    EXPECT_EQ(countParameters("(?,1,?)"), 2);
}

TEST_F(BatchedInsertTest, EveryRowLandsOnceInOrderAcrossFullStatementsAndTheTail)
{
    BatchedInsert<Pair> insert;
    insert.define(m_db, "INSERT INTO t (key, marker, text)", "(?,7,?)", bindPair);
    const int rows = 3 * kRowsPerInsertStatement + 5; // three full statements and a tail of five
    for (int i = 0; i < rows; ++i) {
        ASSERT_TRUE(insert.add(Pair { i * 10, rowText(i) }).isOk());
        if (i == kRowsPerInsertStatement - 2) { // not yet a full statement: nothing written
            EXPECT_EQ(*m_db.queryInt("SELECT count(*) FROM t"), 0);
        }
    }
    EXPECT_EQ(*m_db.queryInt("SELECT count(*) FROM t"), 3 * kRowsPerInsertStatement);
    ASSERT_TRUE(insert.flush().isOk());
    EXPECT_EQ(*m_db.queryInt("SELECT count(*) FROM t"), rows);
    auto read = m_db.prepare("SELECT key, marker, text FROM t ORDER BY rowid");
    ASSERT_TRUE(read.isOk());
    for (int i = 0; i < rows; ++i) {
        ASSERT_TRUE(read->step());
        EXPECT_EQ(read->columnInt(0), i * 10);
        EXPECT_EQ(read->columnInt(1), 7);
        EXPECT_EQ(read->columnText(2), rowText(i));
    }
    EXPECT_FALSE(read->step());
    ASSERT_TRUE(insert.flush().isOk()); // nothing left: writes nothing more
    EXPECT_EQ(*m_db.queryInt("SELECT count(*) FROM t"), rows);
    insert.close();
}

TEST_F(BatchedInsertTest, AFailingStatementReportsItsError)
{
    BatchedInsert<Pair> insert;
    insert.define(m_db, "INSERT INTO t (key, marker, text)", "(?,0,?)", bindPair);
    Status last;
    for (int i = 0; i < kRowsPerInsertStatement; ++i)
        last = insert.add(Pair { 1, "same key" }); // violates UNIQUE when the full statement runs
    EXPECT_FALSE(last.isOk());
    ASSERT_TRUE(insert.add(Pair { 2, "tail" }).isOk());
    ASSERT_TRUE(insert.add(Pair { 2, "tail again" }).isOk());
    EXPECT_FALSE(insert.flush().isOk()); // the second tail row fails in the single-row statement
    insert.close();
}

// Statements compile on first use: a bad one fails when its first full statement or its tail runs, and a table
// that never gets rows never compiles.
TEST_F(BatchedInsertTest, StatementsCompileOnFirstUse)
{
    BatchedInsert<Pair> unused;
    unused.define(m_db, "INSERT INTO no_such_table (key, text)", "(?,?)", bindPair);
    EXPECT_TRUE(unused.flush().isOk()); // nothing waiting: nothing compiled

    BatchedInsert<Pair> insert;
    insert.define(m_db, "INSERT INTO no_such_table (key, text)", "(?,?)", bindPair);
    for (int i = 0; i + 1 < kRowsPerInsertStatement; ++i)
        ASSERT_TRUE(insert.add(Pair { i, rowText(i) }).isOk());
    Status full = insert.add(Pair { 99, rowText(99) });
    EXPECT_FALSE(full.isOk());
    EXPECT_NE(full.message().find("no_such_table"), std::string::npos) << full.message();
    ASSERT_TRUE(insert.add(Pair { 100, rowText(100) }).isOk());
    EXPECT_FALSE(insert.flush().isOk());
    insert.close();
}

} // namespace
} // namespace placescope
