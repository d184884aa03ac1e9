// SPDX-License-Identifier: MIT
#include "ui/job/job_heatmap_model.h"

#include "profiler/base/units.h"

#include <QColor>

#include <algorithm>
#include <climits>

namespace placescope::ui {

JobHeatmapModel::JobHeatmapModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void JobHeatmapModel::setJob(std::shared_ptr<const JobReduction> job)
{
    beginResetModel();
    m_job = std::move(job);
    computeRanges();
    endResetModel();
}

void JobHeatmapModel::setMetric(Metric metric)
{
    m_metric = metric;
    computeRanges();
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void JobHeatmapModel::computeRanges()
{
    m_range.clear();
    if (m_job) {
        m_range.assign(m_job->steps.size(), { INT64_MAX, INT64_MIN });
        for (const auto& row : m_job->cells)
            for (size_t s = 0; s < row.size(); ++s)
                if (row[s].present)
                    m_range[s]
                        = { std::min(m_range[s].first, value(row[s])), std::max(m_range[s].second, value(row[s])) };
    }
}

int64_t JobHeatmapModel::value(const JobCell& cell) const
{
    switch (m_metric) {
    case Metric::StepTime:
        return cell.durationNs;
    case Metric::ExposedCommunication:
        return cell.communicationNs;
    case Metric::Wait:
        return cell.waitNs;
    }
    return 0;
}

int JobHeatmapModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->ranks.size());
}

int JobHeatmapModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->steps.size());
}

QVariant JobHeatmapModel::data(const QModelIndex& index, int role) const
{
    if (!m_job || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto r = static_cast<size_t>(index.row());
    const auto s = static_cast<size_t>(index.column());
    const JobCell& cell = m_job->cells[r][s];
    if (!cell.present)
        return role == Qt::ToolTipRole
            ? QVariant(QStringLiteral("rank %1 has no step %2").arg(m_job->ranks[r].rank).arg(m_job->steps[s]))
            : QVariant();
    const bool culprit = m_job->stepSummaries[s].culpritRank == m_job->ranks[r].rank;
    switch (role) {
    case Qt::DisplayRole:
        return culprit ? QString::fromUtf8(kCulpritMark) : QString();
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case kRawRole:
        return QVariant::fromValue<qlonglong>(value(cell));
    case Qt::BackgroundRole: {
        const auto [low, high] = m_range[s];
        const double heat = high > low ? static_cast<double>(value(cell) - low) / static_cast<double>(high - low) : 0;
        const int fade = 235 - static_cast<int>(200 * heat);
        return QColor(255, fade, fade);
    }
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("rank %1, step %2: step %3, exposed communication %4, wait %5")
                          .arg(m_job->ranks[r].rank)
                          .arg(m_job->steps[s])
                          .arg(QString::fromStdString(formatNanoseconds(static_cast<double>(cell.durationNs))),
                              QString::fromStdString(formatNanoseconds(static_cast<double>(cell.communicationNs))),
                              QString::fromStdString(formatNanoseconds(static_cast<double>(cell.waitNs))));
        if (culprit)
            tip += QStringLiteral("\nthe step's culprit: arrived last and waited least");
        return tip;
    }
    default:
        return {};
    }
}

QVariant JobHeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_job || role != Qt::DisplayRole || section < 0)
        return {};
    if (orientation == Qt::Horizontal)
        return section < columnCount() ? QVariant(QString::number(m_job->steps[static_cast<size_t>(section)]))
                                       : QVariant();
    return section < rowCount() ? QVariant(QString::number(m_job->ranks[static_cast<size_t>(section)].rank))
                                : QVariant();
}

} // namespace placescope::ui
