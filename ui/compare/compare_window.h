// SPDX-License-Identifier: MIT
// File > Compare with...: two runs in one window. Their timelines are stacked (the first run above, the second
// under it) on one shared, aligned time axis: each run's time starts at the step they are aligned on (steps paired
// by position, as the diff pairs them), and zooming or panning either moves both. Under them the diff's tables
// from analysis/diff (the rows `placescope diff` prints): kernels by name for the whole trace or the compared
// steps, sorted by delta; selecting a row highlights that kernel's instances in both timelines. Figures and
// findings in tabs beside it, and where one run is a whatif -o prediction and the other a measured run, the
// prediction error (mean step, each step, kernel time, each class of GPU work: the diff's own figures), shown first.
// The comparison runs in the background; a generation counter drops a stale one. UI thread only.
#pragma once

#include "ui/compare/compare_job.h"
#include "ui/jobs/job_tracker.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTemporaryDir;

namespace placescope::ui {

class CompareAxis;
class CompareLanesView;
class DeltaTableModel;
class PredictionErrorModel;
class TableModel;

class CompareWindow : public QWidget
{
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Compares `before` (A, drawn on top) with `after` (B): any input the main window opens.
    void compare(const QString& before, const QString& after);
    // Findings' savings simulated by the what-if replay (`placescope diff --simulate`); compares again when set.
    void setSimulateSavings(bool simulate);
    bool simulateSavings() const { return m_simulate; }
    // Blocks with a local event loop until the comparison finishes; false on error or timeout.
    bool waitForResult(int timeoutMs);
    QString lastError() const { return m_lastError; }
    std::shared_ptr<const RunDiff> diff() const { return m_result.diff; }

    // Aligns the timelines on step `position` of each run (0: the first); -1: on each trace's first event.
    void alignOnStep(int position);
    int alignedStep() const { return m_alignedStep; }
    // Which kernel rows the table shows: the whole trace (false) or the compared steps (true).
    void showStepRows(bool steps);
    // Selects the table row of a kernel name (and so highlights its instances); false when no row has it.
    bool selectKernel(const QString& name);
    void zoomToFit();

    DeltaTableModel* kernelModel() const { return m_kernels; }
    TableModel* figureModel() const { return m_figures; }
    TableModel* findingModel() const { return m_findings; }
    PredictionErrorModel* predictionModel() const { return m_prediction; }
    // The tab shown under the timelines: "Kernels", "Figures", "Findings" or "Prediction error".
    QString currentTab() const;
    CompareLanesView* viewA() const { return m_viewA; }
    CompareLanesView* viewB() const { return m_viewB; }
    CompareAxis* axis() const { return m_axis; }

signals:
    void finished(bool ok);

private:
    void onResult(const CompareResult& result);
    void fillTables();
    void onKernelRowChanged(const QModelIndex& current);
    int64_t originOf(const CompareSide& side) const;

    CompareAxis* m_axis = nullptr;
    CompareLanesView* m_viewA = nullptr;
    CompareLanesView* m_viewB = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_titleA = nullptr;
    QLabel* m_titleB = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_highlightInfo = nullptr; // how many instances of the selected kernel each run has
    QComboBox* m_align = nullptr;
    QComboBox* m_scope = nullptr;
    QCheckBox* m_simulateBox = nullptr;
    DeltaTableModel* m_kernels = nullptr;
    QSortFilterProxyModel* m_kernelProxy = nullptr;
    QTableView* m_kernelView = nullptr;
    TableModel* m_figures = nullptr;
    TableModel* m_findings = nullptr;
    PredictionErrorModel* m_prediction = nullptr;
    QTabWidget* m_tabs = nullptr;
    int m_predictionTab = -1;
    std::unique_ptr<QTemporaryDir> m_tempDir;
    JobTracker m_job { this };
    CompareResult m_result;
    int m_alignedStep = 0;
    bool m_simulate = false;
    QString m_before, m_after; // the inputs of the last comparison
    QString m_lastError;
};

// File > Compare with...: asks for the second run in a file dialog ("compareFileDialog", window-modal, not blocking)
// that opens in `current`'s folder, then opens a CompareWindow ("compareWindow") of `current` against it (a top-level
// window that deletes itself when closed). `current` is the user's file, never a temporary copy. Says so in a message
// box when no trace is open.
void showCompareWith(QWidget* parent, const QString& current);

} // namespace placescope::ui
