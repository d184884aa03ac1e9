// SPDX-License-Identifier: MIT
// BatchedInsert: appends rows of one table with a multi-row INSERT ... VALUES (...),(...),... that carries
// kRowsPerStatement rows per step. SQLite's cost per statement step (transaction checks, statement journal,
// halt and reset) is most of the cost of inserting a narrow row; sharing one step among 32 rows halves the
// writer's time on a Kineto import (bench/import). Rows wait in a small typed queue until a statement's worth
// is there; flush() writes the rest one row at a time, so rows land in the order they were added. A row lives
// until its statement has run, so its text can be bound in place (SqliteStatement::bindBorrowed).
// Not thread-safe, like the connection it writes to.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace placescope {

inline constexpr int kRowsPerInsertStatement = 32;

// "INSERT INTO t (a, b) VALUES (?,?),(?,?),..." with `rows` copies of `rowValues` ("(?,?)").
std::string multiRowInsertSql(std::string_view head, std::string_view rowValues, int rows);
// The number of '?' parameters in `rowValues`.
int countParameters(std::string_view rowValues);

template <typename Row> class BatchedInsert
{
public:
    // Binds one row's values starting at parameter `first` (1-based, as in SQLite).
    using BindRow = void (*)(SqliteStatement& statement, int first, const Row& row);

    BatchedInsert() = default;

    // head: "INSERT INTO t (a, b)"; rowValues: "(?,?)", which may hold constants ("(?,NULL,?)"). The statements
    // are compiled when first needed, on the thread that writes: a table that gets no rows costs nothing, and
    // an importer's first events are not kept waiting for some forty statements to compile.
    void define(SqliteDb& db, std::string_view head, std::string_view rowValues, BindRow bind)
    {
        m_db = &db;
        m_head = head;
        m_rowValues = rowValues;
        m_bind = bind;
        m_parameters = countParameters(rowValues);
        m_rows.reserve(kRowsPerInsertStatement);
    }

    Status add(Row&& row)
    {
        m_rows.push_back(std::move(row));
        if (m_rows.size() < static_cast<size_t>(kRowsPerInsertStatement))
            return Status::ok();
        if (Status compiled = compile(m_full, kRowsPerInsertStatement); !compiled.isOk()) {
            m_rows.clear();
            return compiled;
        }
        for (size_t i = 0; i < m_rows.size(); ++i)
            m_bind(m_full, static_cast<int>(i) * m_parameters + 1, m_rows[i]);
        Status status = m_full.execute(); // before the rows go: their text may be bound in place
        m_rows.clear();
        return status;
    }

    // Writes the rows still waiting for a full statement.
    Status flush()
    {
        if (m_rows.empty())
            return Status::ok();
        Status first = compile(m_single, 1);
        if (!first.isOk()) {
            m_rows.clear();
            return first;
        }
        for (const Row& row : m_rows) {
            m_bind(m_single, 1, row);
            Status status = m_single.execute();
            if (first.isOk())
                first = status;
        }
        m_rows.clear();
        return first;
    }

    // Drops the statements (before their connection closes) and any rows not yet written.
    void close()
    {
        m_single = SqliteStatement();
        m_full = SqliteStatement();
        m_rows.clear();
    }

private:
    Status compile(SqliteStatement& statement, int rows)
    {
        if (statement.isValid())
            return Status::ok();
        if (!m_db)
            return Status::error("BatchedInsert used before define()");
        PLACESCOPE_ASSIGN_OR_RETURN(statement, m_db->prepare(multiRowInsertSql(m_head, m_rowValues, rows)));
        return Status::ok();
    }

    SqliteDb* m_db = nullptr;
    std::string m_head;
    std::string m_rowValues;
    BindRow m_bind = nullptr;
    int m_parameters = 0;
    SqliteStatement m_single;
    SqliteStatement m_full;
    std::vector<Row> m_rows;
};

} // namespace placescope
