// SPDX-License-Identifier: MIT
#include "ui/models/table_model.h"

#include "profiler/base/units.h"

#include <cmath>

namespace placescope::ui {

TableModel::TableModel(QStringList headers, QObject* parent)
    : TableModel(std::move(headers), {}, parent)
{ }

TableModel::TableModel(QStringList headers, std::vector<CellFormat> formats, QObject* parent)
    : QAbstractTableModel(parent)
    , m_headers(std::move(headers))
    , m_formats(std::move(formats))
{
    m_formats.resize(static_cast<size_t>(m_headers.size()), CellFormat::Plain);
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

QString TableModel::formatCell(const QVariant& cell, CellFormat format)
{
    if (!cell.isValid() || format == CellFormat::Plain || cell.typeId() == QMetaType::QString)
        return cell.toString();
    const double value = cell.toDouble();
    switch (format) {
    case CellFormat::Plain:
        break;
    case CellFormat::Duration:
        return QString::fromStdString(formatNanoseconds(value));
    case CellFormat::Saving:
        return std::fabs(value) < 1.0 ? QObject::tr("no saving") : QString::fromStdString(formatNanoseconds(value));
    case CellFormat::Count:
        return QString::fromStdString(withThousands(cell.toLongLong()));
    case CellFormat::Bytes:
        return QString::fromStdString(formatBytes(cell.toLongLong()));
    case CellFormat::Percent:
        return QString::fromStdString(::placescope::formatPercentFixed(value, 1));
    case CellFormat::Rate:
        return QString::fromStdString(::placescope::formatRate(value * 1e9));
    }
    return cell.toString();
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
    const CellFormat format = m_formats[static_cast<size_t>(index.column())];
    if (cell.metaType() == QMetaType::fromType<LabeledNumber>()) {
        const auto labeled = cell.value<LabeledNumber>();
        if (role == kRawRole || role == Qt::EditRole)
            return labeled.value;
        if (role == Qt::DisplayRole)
            return labeled.text;
        if (role == Qt::ToolTipRole && !labeled.tip.isEmpty())
            return labeled.tip;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return {};
    }
    if (role == kRawRole || role == Qt::EditRole)
        return cell;
    if (role == Qt::DisplayRole)
        return format == CellFormat::Plain ? cell : QVariant(formatCell(cell, format));
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
