// SPDX-License-Identifier: MIT
// Graph <-> timeline selection through the model's op occurrences in the open trace (ModelTraceMatch): a node
// selects the framework op it ran as, and the timeline then outlines the kernels that op launched (correlation
// ids); a framework op selects the node it is an occurrence of. Never by name: an ONNX "Conv" is not any event
// whose name holds "Conv". Without a trace, or for an op that did not run in it, a node shows its own details.
#include "ui/window/main_window.h"

#include "placement/graph/model_graph.h"
#include "ui/graphview/graph_view.h"
#include "ui/placement/placement_session.h"
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

QString modelOpDetailsHtml(const ModelGraph& model, size_t opIndex, const QString& note)
{
    const ModelOp& op = model.ops[opIndex];
    auto row = [](const QString& key, const QString& value) {
        return "<tr><td valign=top style=\"white-space: nowrap; padding-right: 8px\"><b>" + key + "</b></td><td>"
            + value + "</td></tr>";
    };
    auto values = [&](const std::vector<int>& indices) {
        QStringList out;
        for (int v : indices)
            out << QString::fromStdString(model.values[static_cast<size_t>(v)].name).toHtmlEscaped() + " "
                    + shapeText(model.values[static_cast<size_t>(v)]).toHtmlEscaped();
        return out.join("<br>");
    };
    QString html = "<h3>" + QString::fromStdString(op.name).toHtmlEscaped() + "</h3><table cellspacing=2>";
    html += row(QObject::tr("Type"),
        QString::fromStdString(op.domain.empty() ? op.type : op.domain + "::" + op.type).toHtmlEscaped());
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
    html += "</table><p>" + note.toHtmlEscaped() + "</p>";
    return html;
}

void MainWindow::checkModelAgainstTrace()
{
    const auto model = m_placement->model();
    const LoadedTrace* trace = m_timeline->trace();
    // Recosting replaces nothing the match depends on: the same model and trace keep their match.
    if (m_match && model && trace && model.get() == m_matchedModel && trace->path == m_matchedTracePath)
        return;
    m_matchJob.discard(); // another model or trace came: a match in flight is of the old pair
    m_match.reset();
    m_matchedModel = nullptr;
    m_modelMatchLabel->setVisible(false);
    if (!model || !trace)
        return;
    const std::string tracePath = trace->path;
    m_matchJob.start([model, tracePath](const CancelToken&) { return matchModelToTrace(*model, tracePath); },
        [this, model, tracePath](const Result<ModelTraceMatch>& result) {
            if (!result.isOk()) {
                m_modelMatchLabel->setText(tr("Could not match the model against the trace: %1")
                                               .arg(QString::fromStdString(result.status().message())));
                m_modelMatchLabel->setStyleSheet("background: #fff0d0; color: #803000; padding: 4px");
                m_modelMatchLabel->setVisible(true);
                return;
            }
            m_match = result.value();
            m_matchedModel = model.get();
            m_matchedTracePath = tracePath;
            const bool bad = m_match->mismatch() || m_match->traceOps == 0;
            const QString text = QString::fromStdString(m_match->summary());
            m_modelMatchLabel->setText(bad ? tr("Warning: %1. Graph nodes cannot select this trace's events.").arg(text)
                                           : tr("Model vs trace: %1.").arg(text));
            m_modelMatchLabel->setStyleSheet(
                bad ? "background: #fff0d0; color: #803000; font-weight: bold; padding: 4px" : "padding: 4px");
            m_modelMatchLabel->setVisible(true);
            if (bad)
                m_status->setText(tr("The model does not match the trace: %1").arg(text));
        });
}

void MainWindow::selectTimelineForNode()
{
    const ModelGraph* model = m_graphView->model();
    const int opIndex = m_graphView->selectedModelOp();
    if (!model || opIndex < 0 || static_cast<size_t>(opIndex) >= model->ops.size())
        return;
    const ModelOp& op = model->ops[static_cast<size_t>(opIndex)];
    auto showDetails = [&](const QString& note) {
        if (auto* details = findChild<QTextBrowser*>("eventDetails"))
            details->setHtml(modelOpDetailsHtml(*model, static_cast<size_t>(opIndex), note));
    };
    if (!m_timeline->trace()) {
        showDetails(tr("No trace is open: open one (File > Open) to find this op's events."));
        return;
    }
    if (!m_match || m_matchedModel != m_placement->model().get()) {
        showDetails(tr("Still matching the model against the trace; select the node again in a moment."));
        return;
    }
    const auto& occurrences = m_match->occurrences[static_cast<size_t>(opIndex)];
    if (occurrences.empty()) {
        const QString why = tr("'%1' (%2) did not run in this trace: %3.")
                                .arg(QString::fromStdString(op.name), QString::fromStdString(op.type),
                                    QString::fromStdString(m_match->summary()));
        showDetails(why);
        m_status->setText(why);
        return;
    }
    // Each click on the node walks to its next occurrence (an op runs once per step).
    size_t next = 0;
    if (auto selected = m_timeline->selectedEvent()) {
        const Lane& lane = m_timeline->trace()->lanes[static_cast<size_t>(selected->lane)];
        const OpOccurrence current { lane.globalTid, m_timeline->rowOf(*selected).startNs[selected->index] };
        auto it = std::find(occurrences.begin(), occurrences.end(), current);
        if (it != occurrences.end())
            next = static_cast<size_t>(it - occurrences.begin() + 1) % occurrences.size();
    }
    const OpOccurrence& occurrence = occurrences[next];
    auto event = m_timeline->findHostEvent(occurrence.globalTid, EventKind::FrameworkOp, occurrence.startNs);
    if (!event) {
        m_status->setText(tr("The trace's op for '%1' is not on the timeline").arg(QString::fromStdString(op.name)));
        return;
    }
    m_updatingFromNode = true;
    m_timeline->selectEvent(*event, true);
    m_updatingFromNode = false;
    m_status->setText(tr("'%1': occurrence %2 of %3 in the trace; the kernels it launched are outlined (%4)")
                          .arg(QString::fromStdString(op.name))
                          .arg(next + 1)
                          .arg(occurrences.size())
                          .arg(m_timeline->linkedEvents().size()));
}

void MainWindow::selectNodeForEvent()
{
    const ModelGraph* model = m_graphView->model();
    const auto selected = m_timeline->selectedEvent();
    if (m_updatingFromNode || !model || !selected || !m_timeline->trace() || !m_match
        || m_matchedModel != m_placement->model().get())
        return;
    // The outermost enclosing op that is an occurrence of a model op.
    for (const TimelineView::EventRef& ref : m_timeline->enclosingFrameworkOps(*selected)) {
        const Lane& lane = m_timeline->trace()->lanes[static_cast<size_t>(ref.lane)];
        const OpOccurrence occurrence { lane.globalTid, lane.rows[static_cast<size_t>(ref.row)].startNs[ref.index] };
        for (size_t i = 0; i < m_match->occurrences.size(); ++i) {
            const auto& list = m_match->occurrences[i];
            if (std::find(list.begin(), list.end(), occurrence) != list.end()) {
                m_graphView->selectModelOp(static_cast<int>(i));
                return;
            }
        }
    }
}

} // namespace placescope::ui
