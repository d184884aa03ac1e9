// SPDX-License-Identifier: MIT
// JobHeatmapModel: a job's ranks x steps (rows: ranks in numeric order; columns: steps) for a QTableView drawn as a
// heatmap. Each cell's background runs from pale (the step's lowest value across ranks) to red (its highest) for the
// chosen metric: step time, exposed communication or wait in collectives; the culprit of each step (analysis/job:
// arrived last, waited least) shows a dot. The tooltip and kRawRole give the figure. UI thread only.
#pragma once

#include "analysis/job/job_reduce.h"

#include <QAbstractTableModel>

#include <memory>

namespace placescope::ui {

class JobHeatmapModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Metric
    {
        StepTime,
        ExposedCommunication,
        Wait
    };
    static constexpr int kRawRole = Qt::UserRole + 1; // the metric in ns (int64)
    static constexpr const char* kCulpritMark = "\u25CF";

    explicit JobHeatmapModel(QObject* parent = nullptr);
    void setJob(std::shared_ptr<const JobReduction> job);
    const JobReduction* job() const { return m_job.get(); }
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int64_t value(const JobCell& cell) const;
    void computeRanges();

    std::shared_ptr<const JobReduction> m_job;
    Metric m_metric = Metric::StepTime;
    std::vector<std::pair<int64_t, int64_t>> m_range; // per step: lowest and highest value
};

} // namespace placescope::ui
