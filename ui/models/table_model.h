// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace placescope::ui {

// How a column's cells read for people. The cells hold raw numbers (durations in ns, counts, bytes); the display
// role formats them through the one units formatter (profiler/base/units.h), and kRawRole gives the numbers back,
// which the tables sort by.
enum class CellFormat
{
    Plain, // as stored (text, or a number as Qt prints it)
    Duration, // ns -> "1.234 ms"
    Saving, // ns per step -> a duration, or "no saving" below 1 ns
    Count, // 12345 -> "12,345"
    Bytes, // binary sizes -> "1.50 MiB"
    Percent, // 12.345 -> "12.3 %"
    Rate, // GB/s -> "12.3 GB/s"
};

// A number shown in words another layer wrote (a finding's saving in the CLI's words, analysis/findings/saving_text.h):
// the display role gives the words, kRawRole the number, so the column sorts by the number.
struct LabeledNumber
{
    double value = 0.0;
    QString text;
    QString tip; // the whole wording where the cell shows a short one (tooltip), empty otherwise
};

// A read-only table of QVariant cells (or LabeledNumber cells), one CellFormat per column (Plain where none is given).
// Used for the kernel, copy, op, problem and findings tables. UI thread only.
class TableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int kRawRole = Qt::UserRole + 1; // the stored cell: numbers stay numbers (the sort role)

    explicit TableModel(QStringList headers, QObject* parent = nullptr);
    TableModel(QStringList headers, std::vector<CellFormat> formats, QObject* parent = nullptr);

    void setRows(std::vector<QVariantList> rows);
    const QVariantList& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }
    // A cell's text as the display role shows it.
    static QString formatCell(const QVariant& cell, CellFormat format);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList m_headers;
    std::vector<CellFormat> m_formats; // one per column
    std::vector<QVariantList> m_rows;
};

} // namespace placescope::ui
