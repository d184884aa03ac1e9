// SPDX-License-Identifier: MIT
#include "profiler/store/batched_insert.h"

#include <algorithm>

namespace placescope {

std::string multiRowInsertSql(std::string_view head, std::string_view rowValues, int rows)
{
    std::string sql(head);
    sql += " VALUES ";
    for (int row = 0; row < rows; ++row) {
        if (row > 0)
            sql += ',';
        sql += rowValues;
    }
    return sql;
}

int countParameters(std::string_view rowValues)
{
    return static_cast<int>(std::count(rowValues.begin(), rowValues.end(), '?'));
}

} // namespace placescope
