// SPDX-License-Identifier: MIT
// Graph <-> timeline selection. An op of a graph read from a Placescope trace ("trace-ops") is one framework-op
// occurrence with its thread and start, so the node and the event find each other exactly; an ONNX op has no
// occurrence, so the two are matched by name.
#include "ui/window/main_window.h"

#include "placement/graph/model_graph.h"
#include "ui/graphview/graph_view.h"
#include "ui/timeline/timeline_view.h"

#include <QLabel>

namespace placescope::ui {

void MainWindow::selectTimelineForNode(const QString& opType)
{
    const ModelGraph* model = m_graphView->model();
    const int opIndex = m_graphView->selectedModelOp();
    if (model && opIndex >= 0 && static_cast<size_t>(opIndex) < model->ops.size()) {
        const ModelOp& op = model->ops[static_cast<size_t>(opIndex)];
        // The name must agree too: the graph may come from another trace than the one shown.
        if (op.traceStartNs >= 0 && QString::fromStdString(op.type) == opType) {
            if (auto event = m_timeline->findHostEvent(op.traceGlobalTid, EventKind::FrameworkOp, op.traceStartNs)) {
                const LaneRow& row = m_timeline->trace()->lanes[static_cast<size_t>(event->lane)].rows[static_cast<size_t>(event->row)];
                if (m_timeline->trace()->names[row.nameIndex[event->index]] == op.type) {
                    m_timeline->selectEvent(*event, true);
                    return;
                }
            }
        }
    }
    if (!m_timeline->findNext(opType, true))
        m_status->setText(tr("No timeline event named like '%1'").arg(opType));
}

void MainWindow::selectNodeForEvent(const QString& description)
{
    const ModelGraph* model = m_graphView->model();
    const auto selected = m_timeline->selectedEvent();
    if (model && model->source == "trace-ops" && selected && m_timeline->trace()) {
        // The outermost op that is a node: the graph holds each thread's top-level ops of one step.
        for (const TimelineView::EventRef& ref : m_timeline->enclosingFrameworkOps(*selected)) {
            const Lane& lane = m_timeline->trace()->lanes[static_cast<size_t>(ref.lane)];
            const int64_t start = lane.rows[static_cast<size_t>(ref.row)].startNs[ref.index];
            for (size_t i = 0; i < model->ops.size(); ++i)
                if (model->ops[i].traceGlobalTid == lane.globalTid && model->ops[i].traceStartNs == start) {
                    m_graphView->selectModelOp(static_cast<int>(i));
                    return;
                }
        }
    }
    m_graphView->selectByName(description);
}

} // namespace placescope::ui
