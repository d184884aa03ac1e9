// SPDX-License-Identifier: MIT
#include "profiler/importers/nsys_sqlite/nsys_table.h"

#include <sstream>

namespace placescope {

std::set<std::string> tableColumns(SqliteDb& db, const std::string& table)
{
    std::set<std::string> columns;
    if (!db.hasTable(table)) // a view of that name is no table: it is never read (the importer counts it)
        return columns;
    auto stmt = db.prepare("SELECT name FROM pragma_table_info(?1)");
    if (!stmt.isOk())
        return columns;
    stmt->bind(1, std::string_view(table));
    while (stmt->step())
        columns.insert(stmt->columnText(0));
    return columns;
}

Result<NsysTable> NsysTable::open(
    SqliteDb& db, const std::string& table, const std::vector<Column>& columns, const std::string& orderBy)
{
    NsysTable result;
    result.m_present = tableColumns(db, table);
    result.m_exists = !result.m_present.empty();
    if (!result.m_exists)
        return result;
    std::ostringstream select;
    std::ostringstream joins;
    select << "SELECT ";
    int sqlColumn = 0;
    for (size_t i = 0; i < columns.size(); ++i) {
        const Column& column = columns[i];
        if (i)
            select << ", ";
        bool present = result.m_present.count(column.name) > 0;
        std::string ref = present ? "t." + quoteIdentifier(column.name) : "NULL";
        select << ref;
        result.m_sqlIndex.push_back(sqlColumn++);
        result.m_names.push_back(column.name);
        if (column.stringId) {
            if (present) {
                std::string alias = "s" + std::to_string(i);
                select << ", " << alias << ".value";
                joins << " LEFT JOIN StringIds " << alias << " ON " << alias << ".id = " << ref;
            } else {
                select << ", NULL";
            }
            ++sqlColumn;
        }
    }
    select << " FROM " << quoteIdentifier(table) << " t" << joins.str();
    if (!orderBy.empty() && result.m_present.count(orderBy))
        select << " ORDER BY t." << quoteIdentifier(orderBy);
    PLACESCOPE_ASSIGN_OR_RETURN(result.m_statement, db.prepare(select.str()));
    return result;
}

bool NsysTable::next() { return m_exists && m_statement.step(); }

std::optional<int64_t> NsysTable::integer(int index) const
{
    int column = sqlIndex(index);
    if (m_statement.isNull(column))
        return std::nullopt;
    if (!m_statement.isNumber(column)) {
        if (m_onNotNumber)
            m_onNotNumber(m_names[static_cast<size_t>(index)]);
        return std::nullopt;
    }
    return m_statement.columnInt(column);
}

std::optional<double> NsysTable::real(int index) const
{
    int column = sqlIndex(index);
    if (m_statement.isNull(column))
        return std::nullopt;
    return m_statement.columnDouble(column);
}

std::string NsysTable::text(int index) const
{
    int column = sqlIndex(index);
    return m_statement.isNull(column) ? std::string() : m_statement.columnText(column);
}

std::optional<std::string> NsysTable::string(int index) const
{
    int column = sqlIndex(index) + 1;
    if (m_statement.isNull(column))
        return std::nullopt;
    return m_statement.columnText(column);
}

} // namespace placescope
