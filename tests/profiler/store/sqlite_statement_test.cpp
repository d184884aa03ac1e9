// SPDX-License-Identifier: MIT
// SqliteStatement skips binding a parameter the NULL or the integer it holds already; every row must still get
// exactly the values bound for it, whatever the rows before it had, and after reset().
#include "profiler/store/sqlite_db.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace placescope {
namespace {

TEST(SqliteStatementTest, NullAndValueBindsAlternateCorrectlyAcrossExecutions)
{
    auto db = SqliteDb::open(":memory:", SqliteDb::Mode::Create);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    ASSERT_TRUE(db->exec("CREATE TABLE t (n INTEGER, a INTEGER, b TEXT)").isOk());
    auto insert = db->prepare("INSERT INTO t (n, a, b) VALUES (?,?,?)");
    ASSERT_TRUE(insert.isOk());
    // Each pattern follows the one before it: value->NULL, NULL->NULL, NULL->value, value->value.
    const std::vector<std::pair<std::optional<int64_t>, std::optional<std::string>>> rows = {
        { std::nullopt, std::nullopt },
        { 5, "x" },
        { std::nullopt, std::nullopt },
        { std::nullopt, std::nullopt },
        { 7, std::nullopt },
        { 8, "y" },
        { std::nullopt, "z" },
    };
    for (size_t i = 0; i < rows.size(); ++i) {
        insert->bind(1, static_cast<int64_t>(i));
        insert->bind(2, rows[i].first);
        if (rows[i].second)
            insert->bind(3, std::string_view(*rows[i].second));
        else
            insert->bindNull(3);
        ASSERT_TRUE(insert->execute().isOk());
    }
    // reset() clears every binding: a row bound after it with nothing but `n` has NULLs elsewhere.
    insert->bind(2, int64_t { 9 });
    insert->reset();
    insert->bind(1, static_cast<int64_t>(rows.size()));
    ASSERT_TRUE(insert->execute().isOk());
    insert->bind(1, static_cast<int64_t>(rows.size() + 1));
    insert->bindNull(2); // NULL already after reset(): skipped, still NULL
    insert->bindNull(3);
    ASSERT_TRUE(insert->execute().isOk());

    auto read = db->prepare("SELECT n, a, b FROM t ORDER BY n");
    ASSERT_TRUE(read.isOk());
    size_t n = 0;
    while (read->step()) {
        ASSERT_EQ(read->columnInt(0), static_cast<int64_t>(n));
        std::optional<int64_t> a = read->isNull(1) ? std::nullopt : std::optional<int64_t>(read->columnInt(1));
        std::optional<std::string> b = read->isNull(2) ? std::nullopt : std::optional<std::string>(read->columnText(2));
        if (n < rows.size()) {
            EXPECT_EQ(a, rows[n].first) << "row " << n;
            EXPECT_EQ(b, rows[n].second) << "row " << n;
        } else {
            EXPECT_EQ(a, std::nullopt) << "row " << n;
            EXPECT_EQ(b, std::nullopt) << "row " << n;
        }
        ++n;
    }
    EXPECT_EQ(n, rows.size() + 2);
}

// One parameter through every change of kind: an integer repeated, then text, then the same integer again (which
// must be bound anew), NULL, a double, and reset().
TEST(SqliteStatementTest, RepeatedIntegersAreSkippedOnlyWhileTheParameterHoldsThem)
{
    auto db = SqliteDb::open(":memory:", SqliteDb::Mode::Create);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    ASSERT_TRUE(db->exec("CREATE TABLE t (n INTEGER, v)").isOk());
    auto insert = db->prepare("INSERT INTO t (n, v) VALUES (?,?)");
    ASSERT_TRUE(insert.isOk());
    int64_t n = 0;
    auto row = [&](auto bindValue) {
        insert->bind(1, n++);
        bindValue();
        ASSERT_TRUE(insert->execute().isOk());
    };
    row([&] { insert->bind(2, int64_t { 5 }); });
    row([&] { insert->bind(2, int64_t { 5 }); });
    row([&] { insert->bind(2, std::string_view("5")); });
    row([&] { insert->bind(2, int64_t { 5 }); });
    row([&] { insert->bindNull(2); });
    row([&] { insert->bind(2, int64_t { 5 }); });
    row([&] { insert->bind(2, 5.5); });
    row([&] { insert->bind(2, int64_t { 5 }); });
    row([&] { insert->bind(2, int64_t { 6 }); });
    insert->reset();
    row([&] { insert->bind(2, int64_t { 6 }); }); // NULL after reset(): bound anew
    row([] {}); // and kept for the next row
    const std::vector<std::string> expected = { "integer 5", "integer 5", "text 5", "integer 5", "null ", "integer 5",
        "real 5.5", "integer 5", "integer 6", "integer 6", "integer 6" };
    auto read = db->prepare("SELECT typeof(v) || ' ' || COALESCE(v, '') FROM t ORDER BY n");
    ASSERT_TRUE(read.isOk());
    std::vector<std::string> got;
    while (read->step())
        got.push_back(read->columnText(0));
    EXPECT_EQ(got, expected);
}

} // namespace
} // namespace placescope
