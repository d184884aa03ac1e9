// SPDX-License-Identifier: MIT
// ReportTable: the one row model every `placescope report` fills, so the CLI, a future GUI Reports panel and the HTML
// report read the same rows. Columns have a JSON key, a header for people and a kind that says how text shows the
// value (a duration through units.h, a count with thousands separators); CSV and JSON keep raw values (integer ns
// for times, bytes for sizes). Notes are one-line remarks about scope or missing data, never rows.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace placescope {

enum class ColumnKind
{
    Text,
    Count, // integer, "12,345"
    Ns, // integer duration in ns, "1.234 ms"
    Timestamp, // integer absolute ns; text shows it relative to the table's origin ("+1.234 ms")
    Bytes, // integer bytes, "12,345"
    Real, // a ratio or mean ("0.83")
};

struct ReportColumn
{
    std::string key; // JSON / CSV name, snake_case, times end in _ns
    std::string header; // text header
    ColumnKind kind = ColumnKind::Text;
};

// An empty cell (std::monostate) is JSON null, an empty CSV field and "-" in text.
using ReportCell = std::variant<std::monostate, int64_t, double, std::string>;

struct ReportTable
{
    std::string title;
    std::vector<ReportColumn> columns;
    std::vector<std::vector<ReportCell>> rows; // each row has columns.size() cells
    std::vector<std::string> notes;
    int64_t originNs = 0; // what Timestamp columns are shown relative to in text

    size_t column(const std::string& key) const; // index of `key`; columns.size() if absent
};

enum class TableFormat
{
    Text,
    Csv,
    Json
};

// A cell as the text table shows it: "-" when empty, durations and relative timestamps through units.h, counts and
// bytes with thousands separators, reals with two decimals; text whole (the text table clips long names, this does
// not). The GUI's Reports panel shows the same strings.
std::string formatCell(const ReportTable& table, size_t row, size_t column);

// "text", "csv" or "json"; false for anything else.
bool parseTableFormat(const std::string& text, TableFormat& format);

// Text: the title, an aligned table (numbers right-aligned) and the notes. CSV: a header of keys and one line per
// row (RFC 4180 quoting). JSON: a list of row objects with the column keys. CSV and JSON carry no notes (the
// caller prints them to stderr), so scripts read nothing but rows.
std::string renderTable(const ReportTable& table, TableFormat format);

} // namespace placescope
