// SPDX-License-Identifier: MIT
#include "ui/compare/prediction_error_model.h"

#include "analysis/diff/diff_format.h"

namespace placescope::ui {

void PredictionErrorModel::setError(const std::optional<PredictionError>& error)
{
    beginResetModel();
    m_rows.clear();
    if (error) {
        const PredictionError& e = *error;
        m_rows.push_back({ "mean step", e.predictedNs, e.measuredNs });
        for (const PredictionError::Step& s : e.steps)
            m_rows.push_back({ "step " + std::to_string(s.position), s.predictedNs, s.measuredNs });
        m_rows.push_back({ "kernel time, whole trace", e.kernelPredictedNs, e.kernelMeasuredNs });
        for (const PredictionError::Class& c : e.classes)
            m_rows.push_back({ c.name + ", compared steps", c.predictedNs, c.measuredNs });
        for (const PredictionError::Class& c : e.classes)
            m_rows.push_back({ c.name + ", whole trace", c.wholePredictedNs, c.wholeMeasuredNs });
    }
    endResetModel();
}

int PredictionErrorModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PredictionErrorModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PredictionErrorModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = rowAt(index.row());
    const double relative = PredictionError::relative(r.predictedNs, r.measuredNs);
    if (role == kRawRole) {
        switch (index.column()) {
        case Figure:
            return QString::fromStdString(r.figure);
        case Predicted:
            return static_cast<qlonglong>(r.predictedNs);
        case Measured:
            return static_cast<qlonglong>(r.measuredNs);
        case Error:
            return static_cast<qlonglong>(r.predictedNs - r.measuredNs);
        case Relative:
            return relative;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        auto text = [](const std::string& s) { return QString::fromStdString(s); };
        switch (index.column()) {
        case Figure:
            return text(r.figure);
        case Predicted:
            return text(diff_format::duration(r.predictedNs));
        case Measured:
            return text(diff_format::duration(r.measuredNs));
        case Error:
            return text(diff_format::signedDuration(r.predictedNs - r.measuredNs));
        case Relative:
            return text(diff_format::relative(relative));
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() != Figure)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant PredictionErrorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Figure:
        return tr("Figure");
    case Predicted:
        return tr("Predicted");
    case Measured:
        return tr("Measured");
    case Error:
        return tr("Error (predicted - measured)");
    case Relative:
        return tr("Relative");
    }
    return {};
}

} // namespace placescope::ui
