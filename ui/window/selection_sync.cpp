// SPDX-License-Identifier: MIT
// Graph <-> timeline selection. An op of a graph read from a Placescope trace ("trace-ops") is one framework-op
// occurrence with its thread and start, so the node and the event find each other exactly; an ONNX op has no
// occurrence, so the two are matched by name.
#include "ui/window/main_window.h"

#include "placement/graph/model_graph.h"
#include "ui/graphview/graph_view.h"
#include "ui/timeline/timeline_view.h"

#include <QLabel>
#include <QTextBrowser>

namespace placescope::ui {
namespace {

QString shapeText(const ModelValue& value)
{
    if (!value.shapeKnown)
        return "?";
    QStringList dims;
    for (int64_t d : value.shape)
        dims << (d < 0 ? QString("?") : QString::number(d));
    return "[" + dims.join(", ") + "]" + (value.dtype.empty() ? QString() : " " + QString::fromStdString(value.dtype));
}

} // namespace

QString modelOpDetailsHtml(const ModelGraph& model, size_t opIndex)
{
    const ModelOp& op = model.ops[opIndex];
    auto row = [](const QString& key, const QString& value) {
        return "<tr><td valign=top style=\"white-space: nowrap; padding-right: 8px\"><b>" + key + "</b></td><td>" + value
            + "</td></tr>";
    };
    auto values = [&](const std::vector<int>& indices) {
        QStringList out;
        for (int v : indices)
            out << QString::fromStdString(model.values[static_cast<size_t>(v)].name).toHtmlEscaped() + " "
                    + shapeText(model.values[static_cast<size_t>(v)]).toHtmlEscaped();
        return out.join("<br>");
    };
    QString html = "<h3>" + QString::fromStdString(op.name).toHtmlEscaped() + "</h3><table cellspacing=2>";
    html += row(QObject::tr("Type"), QString::fromStdString(op.domain.empty() ? op.type : op.domain + "::" + op.type).toHtmlEscaped());
    if (!op.scope.empty())
        html += row(QObject::tr("Scope"), QString::fromStdString(op.scope).toHtmlEscaped());
    html += row(QObject::tr("Inputs"), values(op.inputs));
    html += row(QObject::tr("Outputs"), values(op.outputs));
    for (const auto& [key, ints] : op.intAttributes) {
        QStringList items;
        for (int64_t i : ints)
            items << QString::number(i);
        html += row(QString::fromStdString(key).toHtmlEscaped(), items.join(", "));
    }
    for (const auto& [key, text] : op.stringAttributes)
        html += row(QString::fromStdString(key).toHtmlEscaped(), QString::fromStdString(text).toHtmlEscaped());
    html += "</table><p>" + QObject::tr("No trace is open: open one (File > Open) to find this op's events.") + "</p>";
    return html;
}

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
    if (!m_timeline->trace()) {
        // Nothing to find: the node's own details instead.
        if (model && opIndex >= 0 && static_cast<size_t>(opIndex) < model->ops.size())
            if (auto* details = findChild<QTextBrowser*>("eventDetails"))
                details->setHtml(modelOpDetailsHtml(*model, static_cast<size_t>(opIndex)));
        return;
    }
    // An op without an occurrence in this trace (an ONNX model): events of exactly its name, never a substring.
    if (!m_timeline->selectNamed(opType))
        m_status->setText(tr("No timeline event is named '%1' (an ONNX op type is not a framework op's name)").arg(opType));
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
