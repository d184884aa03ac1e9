// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;
class QSortFilterProxyModel;
class QTableView;

namespace placescope::ui {

class OpTableModel;
class PlacementSession;
class StepTimeChart;

// The placement panel: the framework and GPU the model is costed for (changing either re-costs it) and the
// objective (changing it re-plans), the predicted step time of the proposal next to all-GPU, all-CPU, the
// framework's default and the measured step, all valued by that objective, the cost
// model's assumptions (GPU spec, link model) behind an expander, then the per-op table (sortable, filterable)
// with a context menu to pin the selected ops to the CPU or the GPU or unpin them. Reads and drives a
// PlacementSession. UI thread only.
class PlacementPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PlacementPanel(PlacementSession* session, QWidget* parent = nullptr);

    OpTableModel* opModel() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    StepTimeChart* chart() const { return m_chart; }
    QComboBox* frameworkBox() const { return m_framework; }
    QComboBox* gpuBox() const { return m_gpu; }
    // The objective the proposal minimises and every bar is valued by (sum / makespan), as `place --objective`.
    QComboBox* objectiveBox() const { return m_objective; }
    // The summary under the chart (objective, counts, saving, GPU and link), as plain text.
    QString summaryText() const;
    QToolButton* assumptionsButton() const { return m_assumptionsButton; }
    QLabel* assumptionsLabel() const { return m_assumptions; }
    // The table's context menu for the current selection (null when nothing is selected or nothing is costed).
    QMenu* createContextMenu(QWidget* parent);
    // Selects the row of a model op (graph -> table); false when the op has no row (a folded weight).
    bool selectModelOp(int modelOp);
    int selectedModelOp() const;
    // Pins the selected ops to a device (0 CPU, 1 GPU) or unpins them (device < 0), in one undo step.
    // Returns how many ops it asked the session to change.
    int pinSelected(int device);

signals:
    void modelOpSelected(int modelOp); // table -> graph

private:
    void refreshSummary();
    void refreshOptions();
    void applyOptions();
    void showContextMenu(QPoint pos);
    std::vector<int> selectedGraphOps() const;

    PlacementSession* m_session;
    OpTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    StepTimeChart* m_chart;
    QLabel* m_summary;
    QLineEdit* m_filter;
    QComboBox* m_framework;
    QComboBox* m_gpu;
    QComboBox* m_objective;
    QToolButton* m_assumptionsButton;
    QLabel* m_assumptions;
    bool m_syncing = false;
};

} // namespace placescope::ui
