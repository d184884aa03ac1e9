// SPDX-License-Identifier: MIT
#include "ui/reports/report_table_model.h"

#include <variant>

namespace placescope::ui {

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ReportTableModel::setTable(ReportTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto row = static_cast<size_t>(index.row()), column = static_cast<size_t>(index.column());
    const ReportCell& cell = m_table.rows[row][column];
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(formatCell(m_table, row, column));
    case Qt::ToolTipRole:
        return std::holds_alternative<std::string>(cell) ? QString::fromStdString(std::get<std::string>(cell))
                                                         : QVariant();
    case Qt::TextAlignmentRole:
        return m_table.columns[column].kind == ColumnKind::Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case kRawRole:
        if (const auto* value = std::get_if<int64_t>(&cell))
            return QVariant::fromValue<qlonglong>(*value);
        if (const auto* real = std::get_if<double>(&cell))
            return *real;
        if (const auto* text = std::get_if<std::string>(&cell))
            return QString::fromStdString(*text);
        return {};
    default:
        return {};
    }
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    const ReportColumn& column = m_table.columns[static_cast<size_t>(section)];
    if (role == Qt::DisplayRole)
        return QString::fromStdString(column.header);
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(column.key); // the JSON / CSV key
    return {};
}

std::optional<ReportTableModel::TimelineTarget> ReportTableModel::timelineTarget(int row) const
{
    if (row < 0 || row >= rowCount())
        return std::nullopt;
    const auto& cells = m_table.rows[static_cast<size_t>(row)];
    auto integer = [&](const char* key) -> std::optional<int64_t> {
        const size_t c = m_table.column(key);
        if (c >= cells.size() || !std::holds_alternative<int64_t>(cells[c]))
            return std::nullopt;
        return std::get<int64_t>(cells[c]);
    };
    auto text = [&](const char* key) -> QString {
        const size_t c = m_table.column(key);
        if (c >= cells.size() || !std::holds_alternative<std::string>(cells[c]))
            return {};
        return QString::fromStdString(std::get<std::string>(cells[c]));
    };
    TimelineTarget target;
    if (auto rowId = integer("kernel_rowid")) {
        target.kind = TimelineTarget::Kind::KernelRow;
        target.rowId = *rowId;
        return target;
    }
    if (auto start = integer("bucket_start_ns"), width = integer("bucket_ns"); start && width) {
        target.kind = TimelineTarget::Kind::Range;
        target.startNs = *start;
        target.endNs = *start + *width;
        return target;
    }
    for (const char* key : { "name", "kernel", "op" })
        if (QString name = text(key); !name.isEmpty()) {
            target.kind = TimelineTarget::Kind::Name;
            target.name = name;
            return target;
        }
    return std::nullopt;
}

} // namespace placescope::ui
