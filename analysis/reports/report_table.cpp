// SPDX-License-Identifier: MIT
#include "analysis/reports/report_table.h"

#include "profiler/base/csv_field.h"
#include "profiler/base/text_table.h"
#include "profiler/base/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace placescope {
namespace {

// Names longer than this are clipped in text tables only (CSV and JSON keep them whole).
constexpr size_t kTextNameWidth = 100;

std::string realText(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return buffer;
}

std::string cellText(const ReportCell& cell, ColumnKind kind, int64_t originNs)
{
    if (std::holds_alternative<std::monostate>(cell))
        return "-";
    if (const auto* text = std::get_if<std::string>(&cell))
        return text->size() <= kTextNameWidth ? *text : text->substr(0, kTextNameWidth - 3) + "...";
    if (const auto* real = std::get_if<double>(&cell))
        return realText(*real);
    const int64_t value = std::get<int64_t>(cell);
    switch (kind) {
    case ColumnKind::Ns:
        return formatNanoseconds(static_cast<double>(value));
    case ColumnKind::Timestamp:
        return std::string(1, '+').append(formatNanoseconds(static_cast<double>(value - originNs)));
    case ColumnKind::Count:
    case ColumnKind::Bytes:
        return withThousands(value);
    case ColumnKind::Text:
    case ColumnKind::Real:
        break;
    }
    return std::to_string(value);
}

std::string renderText(const ReportTable& table)
{
    std::string out = table.title + "\n";
    const size_t n = table.columns.size();
    TextTable text;
    text.rows.reserve(table.rows.size());
    for (size_t c = 0; c < n; ++c) {
        text.header.push_back(table.columns[c].header);
        text.align.push_back(table.columns[c].kind == ColumnKind::Text ? Align::Left : Align::Right);
    }
    for (const auto& row : table.rows) {
        std::vector<std::string> line(n);
        for (size_t c = 0; c < n; ++c)
            line[c] = cellText(row[c], table.columns[c].kind, table.originNs);
        text.rows.push_back(std::move(line));
    }
    out += table.rows.empty() ? " no rows\n" : renderTextTable(text);
    for (const auto& note : table.notes)
        out += "Note: " + note + "\n";
    return out;
}

std::string renderCsv(const ReportTable& table)
{
    std::string out;
    for (size_t c = 0; c < table.columns.size(); ++c) {
        if (c)
            out += ',';
        out += csvField(table.columns[c].key);
    }
    out += "\n";
    for (const auto& row : table.rows) {
        for (size_t c = 0; c < row.size(); ++c) {
            if (c)
                out += ',';
            const ReportCell& cell = row[c];
            if (const auto* text = std::get_if<std::string>(&cell))
                out += csvField(*text);
            else if (const auto* value = std::get_if<int64_t>(&cell))
                out += std::to_string(*value);
            else if (const auto* real = std::get_if<double>(&cell)) {
                char buffer[48];
                std::snprintf(buffer, sizeof buffer, "%.6g", *real);
                out += buffer;
            }
        }
        out += "\n";
    }
    return out;
}

std::string renderJson(const ReportTable& table)
{
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : table.rows) {
        nlohmann::ordered_json object = nlohmann::ordered_json::object();
        for (size_t c = 0; c < row.size(); ++c) {
            const ReportCell& cell = row[c];
            nlohmann::ordered_json& field = object[table.columns[c].key];
            if (const auto* text = std::get_if<std::string>(&cell))
                field = *text;
            else if (const auto* value = std::get_if<int64_t>(&cell))
                field = *value;
            else if (const auto* real = std::get_if<double>(&cell))
                field = *real;
        }
        rows.push_back(std::move(object));
    }
    return rows.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace

std::string formatCell(const ReportTable& table, size_t row, size_t column)
{
    const ReportCell& cell = table.rows.at(row).at(column);
    if (const auto* text = std::get_if<std::string>(&cell))
        return *text;
    return cellText(cell, table.columns.at(column).kind, table.originNs);
}

size_t ReportTable::column(const std::string& key) const
{
    for (size_t c = 0; c < columns.size(); ++c)
        if (columns[c].key == key)
            return c;
    return columns.size();
}

bool parseTableFormat(const std::string& text, TableFormat& format)
{
    if (text == "text")
        format = TableFormat::Text;
    else if (text == "csv")
        format = TableFormat::Csv;
    else if (text == "json")
        format = TableFormat::Json;
    else
        return false;
    return true;
}

std::string renderTable(const ReportTable& table, TableFormat format)
{
    switch (format) {
    case TableFormat::Csv:
        return renderCsv(table);
    case TableFormat::Json:
        return renderJson(table);
    case TableFormat::Text:
        break;
    }
    return renderText(table);
}

} // namespace placescope
