// SPDX-License-Identifier: MIT
// The Reports panel: every `placescope report` (analysis/reports) as a sortable table of the same rows the CLI
// prints, for the open trace. A report runs in the background on the trace the open job loaded (a generation
// counter drops a result for an older trace or report, as the main window's open does); selecting a row selects its
// events on the timeline (ReportTableModel::timelineTarget). UI thread only.
#pragma once

#include "analysis/reports/report_table.h"
#include "analysis/trace/trace_data.h"
#include "ui/jobs/job_tracker.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace placescope::ui {

class ReportTableModel;
class TimelineView;

class ReportsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReportsPanel(TimelineView* timeline, QWidget* parent = nullptr);

    // The trace the reports read (null: none open); reruns the chosen report.
    void setTraceData(std::shared_ptr<const TraceData> trace);
    // Chooses a report by name (as `placescope report --list` names it) and runs it; false for an unknown name.
    bool showReport(const QString& name);
    QString currentReport() const;
    ReportTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    // Selects the events of the proxy row on the timeline; false when the row has no place there or none was found.
    bool selectRowOnTimeline(int proxyRow);

signals:
    void reportShown(const QString& name); // the model holds that report's rows

private:
    void run();
    void putNamesFirst(); // the trailing text columns (the CLI's last: names) shown first

    TimelineView* m_timeline = nullptr;
    QComboBox* m_choice = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_notes = nullptr;
    ReportTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    std::shared_ptr<const TraceData> m_trace;
    JobTracker m_job { this };
};

} // namespace placescope::ui
