// SPDX-License-Identifier: MIT
#include "profiler/store/early_indexer.h"

#include <algorithm>

namespace placescope {

EarlyIndexer::EarlyIndexer(std::string_view indexesSql)
{
    size_t start = 0;
    while (start < indexesSql.size()) {
        size_t end = indexesSql.find(';', start);
        if (end == std::string_view::npos)
            end = indexesSql.size();
        std::string_view statement = indexesSql.substr(start, end - start);
        start = end + 1;
        size_t create = statement.find("CREATE INDEX");
        size_t on = statement.find(" ON ", create);
        size_t paren = statement.find('(', on);
        if (create == std::string_view::npos || on == std::string_view::npos || paren == std::string_view::npos)
            continue; // comments, blanks
        std::string table(statement.substr(on + 4, paren - on - 4));
        auto found = std::find_if(m_tables.begin(), m_tables.end(), [&](const Table& t) { return t.name == table; });
        if (found == m_tables.end()) {
            m_tables.push_back(Table { table, {}, {}, -1, 0, false });
            found = m_tables.end() - 1;
        }
        found->createSql.append(statement.substr(create)).append(";\n");
    }
}

Status EarlyIndexer::rowsWritten(SqliteDb& db, uint64_t rows)
{
    m_rowsSinceCheck += rows;
    if (m_rowsSinceCheck < kCheckEveryRows)
        return Status::ok();
    m_rowsSinceCheck = 0;
    return check(db);
}

Status EarlyIndexer::check(SqliteDb& db)
{
    for (Table& table : m_tables) {
        if (table.created)
            continue;
        if (!table.lastRowid.isValid()) {
            // The largest rowid is the right edge of the table's b-tree: a few page reads, however large it is.
            PLACESCOPE_ASSIGN_OR_RETURN(table.lastRowid, db.prepare("SELECT max(rowid) FROM " + table.name));
        }
        int64_t rowid = table.lastRowid.step() && !table.lastRowid.isNull(0) ? table.lastRowid.columnInt(0) : 0;
        table.lastRowid.reset();
        PLACESCOPE_RETURN_IF_ERROR(table.lastRowid.status());
        if (rowid != table.seenRowid || rowid < kMinRows) {
            table.seenRowid = rowid;
            table.quietChecks = 0;
            continue;
        }
        if (++table.quietChecks < kQuietChecks)
            continue;
        table.lastRowid = SqliteStatement(); // finalized before the schema changes
        PLACESCOPE_RETURN_IF_ERROR(db.exec(table.createSql));
        table.created = true;
        m_indexedTables.push_back(table.name);
    }
    return Status::ok();
}

void EarlyIndexer::close()
{
    for (Table& table : m_tables)
        table.lastRowid = SqliteStatement();
}

} // namespace placescope
