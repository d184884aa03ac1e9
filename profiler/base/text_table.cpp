// SPDX-License-Identifier: MIT
#include "profiler/base/text_table.h"

#include <algorithm>

namespace placescope {

std::string renderTextTable(const TextTable& table)
{
    const size_t columns = !table.header.empty() ? table.header.size()
        : table.rows.empty()                     ? 0
                                                 : table.rows.front().size();
    std::vector<size_t> widths(columns, 0);
    auto measure = [&](const std::vector<std::string>& line) {
        for (size_t c = 0; c < columns && c < line.size(); ++c)
            widths[c] = std::max(widths[c], line[c].size());
    };
    measure(table.header);
    for (const auto& row : table.rows)
        measure(row);
    auto alignOf = [&](size_t c) {
        return c < table.align.size() ? table.align[c] : c + 1 == columns ? Align::Left : Align::Right;
    };
    std::string out;
    auto append = [&](const std::vector<std::string>& line) {
        std::string text = table.indent;
        for (size_t c = 0; c < columns; ++c) {
            const std::string& cell = c < line.size() ? line[c] : std::string();
            const std::string pad(widths[c] - cell.size(), ' ');
            text += alignOf(c) == Align::Right ? pad + cell : cell + pad;
            if (c + 1 < columns)
                text += "  ";
        }
        text.erase(text.find_last_not_of(' ') + 1);
        out += text + "\n";
    };
    if (!table.header.empty())
        append(table.header);
    for (const auto& row : table.rows)
        append(row);
    return out;
}

std::string renderTextTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows)
{
    TextTable table;
    table.header = std::move(header);
    table.rows = std::move(rows);
    return renderTextTable(table);
}

} // namespace placescope
