// SPDX-License-Identifier: MIT
#include "ui/compare/delta_table_model.h"

#include "analysis/diff/diff_format.h"

#include <cmath>

namespace placescope::ui {

void DeltaTableModel::setRows(std::shared_ptr<const RunDiff> diff, const std::vector<DeltaRow>* rows, bool stepShares)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_rows = m_diff ? rows : nullptr;
    m_stepShares = stepShares;
    endResetModel();
}

int DeltaTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_rows ? 0 : static_cast<int>(m_rows->size());
}

int DeltaTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DeltaTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const DeltaRow& r = rowAt(index.row());
    const double share = m_stepShares ? m_diff->shareOfComparedDelta(r.deltaNs()) : std::nan("");
    if (role == kRawRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(r.name);
        case Change:
            return QString(changeName(r.change()));
        case CountA:
            return static_cast<qlonglong>(r.countA);
        case CountB:
            return static_cast<qlonglong>(r.countB);
        case TimeA:
            return static_cast<qlonglong>(r.nsA);
        case TimeB:
            return static_cast<qlonglong>(r.nsB);
        case Delta:
            return static_cast<qlonglong>(r.deltaNs());
        case Share:
            return std::isnan(share) ? QVariant() : QVariant(share);
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        auto text = [](const std::string& s) { return QString::fromStdString(s); };
        switch (index.column()) {
        case Name:
            return text(r.name);
        case Change:
            return QString(changeName(r.change()));
        case CountA:
            return text(diff_format::count(r.countA));
        case CountB:
            return text(diff_format::count(r.countB));
        case TimeA:
            return text(diff_format::duration(r.nsA));
        case TimeB:
            return text(diff_format::duration(r.nsB));
        case Delta:
            return text(diff_format::signedDuration(r.deltaNs()));
        case Share:
            return text(diff_format::share(share));
        }
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Name)
        return QString::fromStdString(r.name);
    if (role == Qt::TextAlignmentRole && index.column() > Change)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Kernel");
    case Change:
        return tr("Change");
    case CountA:
        return tr("Count A");
    case CountB:
        return tr("Count B");
    case TimeA:
        return tr("Time A");
    case TimeB:
        return tr("Time B");
    case Delta:
        return tr("Delta (B - A)");
    case Share:
        return tr("Share of step delta");
    }
    return {};
}

} // namespace placescope::ui
