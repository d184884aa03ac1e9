// SPDX-License-Identifier: MIT
// ReportTableModel: one ReportTable (analysis/reports, the row model `placescope report` prints) as a Qt table.
// DisplayRole is the text table's cell text (formatCell), kRawRole the JSON value (integer ns, bytes, reals; null
// for an empty cell) so sorting is numeric and a test can compare the panel with `report NAME --format json`.
// A row's place on the timeline comes from its columns (timelineTarget).
#pragma once

#include "analysis/reports/report_table.h"

#include <QAbstractTableModel>

#include <optional>

namespace placescope::ui {

class ReportTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int kRawRole = Qt::UserRole + 1;

    explicit ReportTableModel(QObject* parent = nullptr);

    void setTable(ReportTable table);
    const ReportTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Where a row is on the timeline: one kernel launch (kernel_rowid: the kernel's rowid), a time bucket
    // (bucket_start_ns + bucket_ns), or the events of a name (name, kernel or op). None for rows of a whole
    // stream, step or collective kind.
    struct TimelineTarget
    {
        enum class Kind
        {
            KernelRow,
            Range,
            Name
        } kind
            = Kind::Name;
        int64_t rowId = -1;
        int64_t startNs = 0, endNs = 0;
        QString name;
    };
    std::optional<TimelineTarget> timelineTarget(int row) const;

private:
    ReportTable m_table;
};

} // namespace placescope::ui
