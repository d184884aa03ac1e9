// SPDX-License-Identifier: MIT
// SqliteStatement skips binding NULL to a parameter that is NULL already; every row must still get exactly the
// values bound for it, whatever mix of values and NULLs the rows before it had, and after reset().
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
        { std::nullopt, std::nullopt }, { 5, "x" }, { std::nullopt, std::nullopt }, { std::nullopt, std::nullopt },
        { 7, std::nullopt },            { 8, "y" }, { std::nullopt, "z" },
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

} // namespace
} // namespace placescope
