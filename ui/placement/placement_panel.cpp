// SPDX-License-Identifier: MIT
#include "ui/placement/placement_panel.h"

#include "ui/placement/op_table_model.h"
#include "ui/placement/placement_session.h"
#include "ui/placement/step_time_chart.h"
#include "ui/timeline/timeline_format.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <set>

namespace placescope::ui {

PlacementPanel::PlacementPanel(PlacementSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_model(new OpTableModel(session, this)), m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_chart(new StepTimeChart(this)), m_summary(new QLabel(this)), m_filter(new QLineEdit(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* left = new QVBoxLayout;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    left->addWidget(m_chart);
    left->addWidget(m_summary);
    left->addStretch(1);
    auto* right = new QVBoxLayout;
    m_filter->setPlaceholderText(tr("Filter ops..."));
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setSortRole(Qt::DisplayRole);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // graph order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(OpTableModel::Op, 130);
    m_table->horizontalHeader()->resizeSection(OpTableModel::Type, 120);
    for (int c : { OpTableModel::Device, OpTableModel::Layout })
        m_table->horizontalHeader()->resizeSection(c, 58);
    for (int c : { OpTableModel::CpuCostUs, OpTableModel::GpuCostUs })
        m_table->horizontalHeader()->resizeSection(c, 72);
    m_table->setWordWrap(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &PlacementPanel::showContextMenu);
    right->addWidget(m_filter);
    right->addWidget(m_table);
    layout->addLayout(left, 2);
    layout->addLayout(right, 5);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (!m_syncing && current.isValid())
            emit modelOpSelected(current.data(OpTableModel::ModelOpRole).toInt());
    });
    connect(session, &PlacementSession::modelChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::planChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::measuredChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::busyChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::failed, this, &PlacementPanel::refreshSummary);
    refreshSummary();
}

void PlacementPanel::refreshSummary()
{
    const auto plan = m_session->plan();
    const QColor proposal(60, 130, 220), baseline(150, 150, 160), measured(230, 150, 60);
    std::vector<StepTimeChart::Entry> entries = {
        { tr("Proposal"), plan ? plan->proposalUs : -1, proposal, true },
        { tr("All GPU"), plan ? plan->allGpuUs : -1, baseline, false },
        { tr("All CPU"), plan ? plan->allCpuUs : -1, baseline, false },
        { tr("Framework default"), plan ? plan->frameworkDefaultUs : -1, baseline, false },
        { tr("Measured"), m_session->measuredStepUs(), measured, false },
    };
    m_chart->setEntries(std::move(entries));
    QStringList lines;
    if (m_session->busy())
        lines << tr("Planning...");
    if (!m_session->lastError().isEmpty())
        lines << tr("Placement: %1").arg(m_session->lastError());
    if (plan) {
        int onCpu = 0;
        const auto inputs = m_session->inputs();
        for (size_t op = 0; op < plan->proposal.assignment.size(); ++op)
            onCpu += inputs->placement->graph.devices[static_cast<size_t>(plan->proposal.assignment[op])].kind == DeviceKind::Cpu;
        lines << tr("%1 ops, %2 on the CPU, %3 pinned; %4 transfers (%5)")
                     .arg(plan->proposal.assignment.size())
                     .arg(onCpu)
                     .arg(plan->pins.size())
                     .arg(plan->proposal.timeline.transferCount)
                     .arg(formatBytes(plan->proposal.timeline.transferredBytes));
        if (plan->frameworkDefaultUs > 0 && plan->proposalUs >= 0)
            lines << tr("Saving vs framework default: %1 (%2 %)")
                         .arg(formatDuration((plan->frameworkDefaultUs - plan->proposalUs) * 1000.0))
                         .arg(100.0 * (plan->frameworkDefaultUs - plan->proposalUs) / plan->frameworkDefaultUs, 0, 'f', 1);
    } else if (!m_session->inputs() && !m_session->busy()) {
        lines << tr("Open a model (File > Open model...) to get a placement proposal.");
    }
    if (m_session->measuredStepUs() >= 0)
        lines << tr("Measured: %1").arg(m_session->measuredSource());
    m_summary->setText(lines.join('\n'));
}

bool PlacementPanel::selectModelOp(int modelOp)
{
    const int graphOp = m_session->graphOpOfModelOp(modelOp);
    if (graphOp < 0 || graphOp >= m_model->rowCount())
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(graphOp, 0));
    if (!index.isValid())
        return false; // filtered out
    m_syncing = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_syncing = false;
    return true;
}

int PlacementPanel::selectedModelOp() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(OpTableModel::ModelOpRole).toInt() : -1;
}

std::vector<int> PlacementPanel::selectedGraphOps() const
{
    std::set<int> ops;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        ops.insert(index.data(OpTableModel::GraphOpRole).toInt());
    return { ops.begin(), ops.end() };
}

int PlacementPanel::pinSelected(int device)
{
    const auto ops = selectedGraphOps();
    if (ops.empty() || !m_session->inputs())
        return 0;
    m_session->undoStack()->beginMacro(device < 0 ? tr("Unpin %n op(s)", nullptr, static_cast<int>(ops.size()))
                                                  : tr("Pin %n op(s)", nullptr, static_cast<int>(ops.size())));
    for (int op : ops)
        m_session->pinOp(op, device);
    m_session->undoStack()->endMacro();
    return static_cast<int>(ops.size());
}

void PlacementPanel::showContextMenu(QPoint pos)
{
    const QModelIndex at = m_table->indexAt(pos);
    if (at.isValid() && !m_table->selectionModel()->isRowSelected(at.row(), at.parent()))
        m_table->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (selectedGraphOps().empty() || !m_session->inputs())
        return;
    const auto& graph = m_session->inputs()->placement->graph;
    QMenu menu(this);
    for (size_t d = 0; d < graph.devices.size(); ++d)
        menu.addAction(graph.devices[d].kind == DeviceKind::Gpu ? tr("Pin to GPU") : tr("Pin to CPU"), this,
                       [this, d] { pinSelected(static_cast<int>(d)); });
    menu.addAction(tr("Unpin"), this, [this] { pinSelected(-1); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace placescope::ui
