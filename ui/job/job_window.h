// SPDX-License-Identifier: MIT
// JobWindow: a whole job (`placescope-gui JOB/`, a folder `placescope job import` made): the straggler verdict, the
// ranks x steps heatmap (step time, exposed communication or wait; the culprit of each step marked), and the
// collectives table with each instance's arrival spread. Activating a cell opens that rank's trace in a MainWindow
// with its timeline showing that step. The job is reduced off the UI thread through the UI's one JobTracker (opening
// another job drops the older one's result). UI thread only.
#pragma once

#include "analysis/job/job_folder.h"
#include "analysis/job/job_reduce.h"
#include "ui/jobs/job_tracker.h"

#include <QMainWindow>

#include <memory>
#include <variant>

class QComboBox;
class QLabel;
class QTableView;

namespace placescope::ui {

class JobHeatmapModel;
class MainWindow;
class ReportTableModel;

class JobWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit JobWindow(QWidget* parent = nullptr);

    void openJob(const QString& folder);
    QString lastError() const { return m_lastError; }
    JobHeatmapModel* heatmapModel() const { return m_heatmap; }
    ReportTableModel* collectivesModel() const { return m_collectives; }
    QTableView* heatmapView() const { return m_heatmapView; }
    QString verdict() const;
    // Opens rank `row`'s trace (rows as the heatmap's) in a main window showing step `column`; the window is returned
    // (owned by itself: it deletes itself when closed). Null when the cell is empty.
    MainWindow* openCell(int row, int column);

    static bool isJobFolder(const QString& path);

signals:
    void jobLoaded(bool ok);

private:
    struct Loaded
    {
        JobManifest manifest;
        std::shared_ptr<const JobReduction> job;
    };
    using LoadResult = std::variant<Loaded, QString>;
    void finishLoad(LoadResult result);

    QString m_folder;
    QString m_lastError;
    JobManifest m_manifest;
    JobHeatmapModel* m_heatmap = nullptr;
    ReportTableModel* m_collectives = nullptr;
    QTableView* m_heatmapView = nullptr;
    QLabel* m_verdict = nullptr;
    QComboBox* m_metric = nullptr;
    JobTracker m_job { this }; // reducing the job's ranks
};

} // namespace placescope::ui
