// SPDX-License-Identifier: MIT
// The diff's per-name rows (analysis/diff's DeltaRow, exactly as `placescope diff` computed them) as a table:
// name, change, count and time on each side, the delta and its share of the step delta. The display role formats
// with the CLI's formatters (diff_format); DeltaTableModel::kRawRole gives the integer nanoseconds and counts, which
// sorting uses and tests compare with the CLI's JSON. Rows start in the diff's order (largest |delta| first).
// UI thread only.
#pragma once

#include "analysis/diff/run_diff.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace placescope::ui {

class DeltaTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Change,
        CountA,
        CountB,
        TimeA,
        TimeB,
        Delta,
        Share,
        ColumnCount
    };
    static constexpr int kRawRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    // `stepShares`: whether the rows are summed over the compared steps (shares of the compared steps' delta) or
    // cover the whole trace (no share: the whole trace is not a step).
    void setRows(std::shared_ptr<const RunDiff> diff, const std::vector<DeltaRow>* rows, bool stepShares);
    const DeltaRow& rowAt(int row) const { return (*m_rows)[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const RunDiff> m_diff; // keeps m_rows alive
    const std::vector<DeltaRow>* m_rows = nullptr;
    bool m_stepShares = false;
};

} // namespace placescope::ui
