// SPDX-License-Identifier: MIT
// The diff's prediction error (analysis/diff's PredictionError, exactly as `placescope diff` computed it) as a table,
// one row per figure: the mean step, each compared step, the summed kernel time, then each class of GPU work over
// the compared steps and over the whole trace. Columns: figure, predicted, measured, error (predicted - measured),
// relative error. The display role formats with the CLI's formatters (diff_format); kRawRole gives the integer
// nanoseconds and the relative error as a fraction, which tests compare with `diff --format json`'s
// prediction_error. Empty when neither side is a prediction checked against a measured run. UI thread only.
#pragma once

#include "analysis/diff/run_diff.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace placescope::ui {

class PredictionErrorModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Figure,
        Predicted,
        Measured,
        Error,
        Relative,
        ColumnCount
    };
    static constexpr int kRawRole = Qt::UserRole + 1;

    struct Row
    {
        std::string figure; // "mean step", "step 2", "kernel time, whole trace", "GEMM, compared steps", ...
        int64_t predictedNs = 0, measuredNs = 0;
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setError(const std::optional<PredictionError>& error);
    const Row& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
};

} // namespace placescope::ui
