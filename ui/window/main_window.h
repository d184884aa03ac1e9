// SPDX-License-Identifier: MIT
#pragma once

#include "placement/cost/model_trace_match.h"
#include "ui/jobs/job_tracker.h"
#include "ui/window/open_job.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QTableView;
class QTemporaryDir;
class QTextBrowser;
class QUndoGroup;

namespace placescope {
struct ModelGraph;
}

namespace placescope::ui {

// A model op's details (type, inputs and outputs with shapes, attributes) for the Details panel when no trace is
// open or the op did not run in it; `note` ends the page (ui/window/selection_sync.cpp).
QString modelOpDetailsHtml(const ModelGraph& model, size_t opIndex, const QString& note);

class TableModel;
class TimelineView;
class GraphView;
class PlacementPanel;
class PlacementSession;
class ReportsPanel;
class WhatIfPanel;
class WhatIfSession;

// The main window: timeline in the centre, tables and findings in docks. Opening runs in a background job
// (JobTracker: a result from an older open is dropped).
// UI thread only.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFile(const QString& path);
    // Blocks with a local event loop until the current open finishes; false on error or timeout.
    bool waitForOpen(int timeoutMs);
    QString lastError() const { return m_lastError; }
    TimelineView* timeline() const { return m_timeline; }
    GraphView* graphView() const { return m_graphView; }
    void openModel(const QString& path);
    // File > Open, the toolbar and drops: an ONNX model (by content) opens as a model, anything else as a trace.
    void openTraceOrModel(const QString& path);
    TableModel* kernelModel() const { return m_kernels; }
    TableModel* copyModel() const { return m_copies; }
    TableModel* problemModel() const { return m_problems; }
    TableModel* findingModel() const { return m_findings; }
    TableModel* opSummaryModel() const { return m_opSummary; }
    PlacementSession* placementSession() const { return m_placement; }
    PlacementPanel* placementPanel() const { return m_placementPanel; }
    WhatIfSession* whatIfSession() const { return m_whatIf; }
    WhatIfPanel* whatIfPanel() const { return m_whatIfPanel; }
    ReportsPanel* reportsPanel() const { return m_reportsPanel; }
    // Adds `op:NAME=cpu|gpu` to the What-if panel's edits (the Ops table's context menu) and shows the panel.
    void whatIfMoveOp(const QString& opName, const QString& device);
    // Edit > Undo/Redo act on the stack of the panel that has focus: the what-if edits inside the What-if panel,
    // the placement pins everywhere else.
    QUndoGroup* undoGroup() const { return m_undoGroup; }
    void setDarkPalette(bool dark);
    // Shows finding `row` (0: the first, analyze's #1) in the pane and its evidence; false when there is no such row.
    bool selectFinding(int row);
    // The open model against the open trace (computed in the background when either changes; null until then or
    // without both): which ops ran where. A graph node selects its occurrences through it.
    const ModelTraceMatch* modelMatch() const { return m_match ? &*m_match : nullptr; }

signals:
    void openFinished(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildMenus();
    QTableView* addTableDock(const QString& title, TableModel* model, Qt::DockWidgetArea area);
    void onOpenFinished(const OpenResult& result);
    // A file that is not a trace: a dialog naming what it looks like and what Placescope opens (non-blocking).
    void showOpenError(const QString& path, const QString& error);
    void cancelOpen();
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();
    void showRecordDialog();
    void buildPlacementDock();
    void buildWhatIfDock();
    void buildReportsDock(); // ui/window/main_window_reports.cpp
    void connectOpWhatIfMenu(QTableView* opsView);
    void onPlanChanged();
    void setMeasuredStep(const OpenResult& result);
    // Graph <-> timeline selection (ui/window/selection_sync.cpp), through the model's op occurrences in the trace
    // (modelMatch), never by name: a node selects its framework op, whose kernels the timeline outlines.
    void selectTimelineForNode();
    void selectNodeForEvent();
    // Matches the open model against the open trace in the background and shows the result above the graph.
    void checkModelAgainstTrace();
    // Details dock, findings' detail pane, tables -> timeline, Help menu and dock toggles
    // (ui/window/main_window_navigation.cpp).
    void buildNavigation();
    // Drag and drop of traces and models, recent models, the model file filter (ui/window/main_window_files.cpp).
    void buildFileHandling();
    void rememberRecentModel(const QString& path);
    void rebuildRecentModelsMenu();
    static QString modelFileFilter(); // every kind a model is read from: ONNX, PyTorch execution trace, trace ops

    TimelineView* m_timeline = nullptr;
    GraphView* m_graphView = nullptr;
    TableModel* m_kernels = nullptr;
    TableModel* m_copies = nullptr;
    TableModel* m_problems = nullptr;
    TableModel* m_findings = nullptr;
    TableModel* m_opSummary = nullptr;
    PlacementSession* m_placement = nullptr;
    PlacementPanel* m_placementPanel = nullptr;
    WhatIfSession* m_whatIf = nullptr;
    WhatIfPanel* m_whatIfPanel = nullptr;
    ReportsPanel* m_reportsPanel = nullptr;
    QUndoGroup* m_undoGroup = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_recentModelsMenu = nullptr;
    QTextBrowser* m_findingDetails = nullptr; // under the findings list: evidence, saving, fix
    QLabel* m_opPlacement = nullptr; // under the findings: TensorFlow's op placement, the text report's line
    QLabel* m_modelMatchLabel = nullptr; // above the op graph: how much of the model ran in the trace
    std::optional<ModelTraceMatch> m_match;
    const ModelGraph* m_matchedModel = nullptr; // what m_match was computed for (compared, never dereferenced)
    std::string m_matchedTracePath;
    JobTracker m_matchJob { this }; // model against trace
    bool m_updatingFromNode = false; // a node is selecting its event: the event must not reselect a node
    std::unique_ptr<QTemporaryDir> m_tempDir;
    JobTracker m_openJob { this }; // opening a trace
    std::optional<AnalysisReport> m_report;
    QString m_lastError;
    bool m_openCancelled = false; // the user cancelled the open in flight: no dialog for its error
    QString m_inputPath; // the file the user opened (a trace's temporary copy is never shown)
    QSize m_firstStartSize; // the size the first start chose (no saved geometry), empty otherwise
    bool m_maximizeAtFirstShow = false; // the first start on a screen smaller than that size and a title bar
    bool m_defaultDockSizes = false; // no saved layout: size the docks when first shown
};

} // namespace placescope::ui
