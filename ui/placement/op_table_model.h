// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

namespace placescope::ui {

class PlacementSession;

// The placement panel's per-op table: one row per op of the placement problem (weights folded away) with its
// device in the current proposal, where the open trace says it ran (the measured placement: device and, from an
// ONNX Runtime profile, provider), input layout, costs on each device, whether those are measured or estimated,
// and whether the user pinned it. Numbers stay numbers so a QSortFilterProxyModel sorts them right. Follows its
// PlacementSession: a new model resets the rows, a new plan only changes the device and pin columns (selection and
// sort survive). UI thread only.
class OpTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Op,
        Type,
        Device,
        RanOn,
        Layout,
        CpuCostUs,
        GpuCostUs,
        Times,
        Pinned,
        ColumnCount
    };
    enum Role
    {
        GraphOpRole = Qt::UserRole + 1,
        ModelOpRole
    };

    explicit OpTableModel(PlacementSession* session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant cell(int graphOp, int column) const;

    PlacementSession* m_session;
    int m_rows = 0;
};

} // namespace placescope::ui
