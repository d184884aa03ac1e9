// SPDX-License-Identifier: MIT
#include "ui/models/table_model.h"

namespace placescope::ui {

TableModel::TableModel(QStringList headers, QObject* parent) : QAbstractTableModel(parent), m_headers(std::move(headers))
{
}

void TableModel::setRows(std::vector<QVariantList> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    for (auto& row : m_rows)
        while (row.size() < m_headers.size())
            row.append(QVariant());
    endResetModel();
}

int TableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_headers.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const QVariant& cell = m_rows[static_cast<size_t>(index.row())][index.column()];
    if (role == Qt::DisplayRole || role == Qt::EditRole)
        return cell;
    if (role == Qt::TextAlignmentRole && cell.typeId() != QMetaType::QString)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::DisplayRole && orientation == Qt::Horizontal && section >= 0 && section < m_headers.size())
        return m_headers[section];
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace placescope::ui
