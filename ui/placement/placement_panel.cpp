// SPDX-License-Identifier: MIT
#include "ui/placement/placement_panel.h"

#include "placement/cost/device_table.h"
#include "placement/proposal/model_proposal.h"
#include "placement/proposal/placement_figures.h"
#include "ui/placement/op_table_model.h"
#include "ui/placement/pin_actions.h"
#include "ui/placement/placement_session.h"
#include "ui/placement/step_time_chart.h"
#include "ui/timeline/timeline_format.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace placescope::ui {

PlacementPanel::PlacementPanel(PlacementSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new OpTableModel(session, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_chart(new StepTimeChart(this))
    , m_summary(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_framework(new QComboBox(this))
    , m_gpu(new QComboBox(this))
    , m_objective(new QComboBox(this))
    , m_assumptionsButton(new QToolButton(this))
    , m_assumptions(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* left = new QVBoxLayout;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    // What the model is costed for: the capability table of a framework, the GPU's spec.
    m_framework->addItem(tr("PyTorch"), "torch");
    m_framework->addItem(tr("TensorFlow"), "tf");
    m_framework->addItem(tr("ONNX Runtime"), "ort");
    m_framework->setToolTip(tr("Framework whose kernels and default placement the costs assume"));
    m_gpu->addItem(tr("from trace"), "from-trace");
    if (auto table = DeviceTable::builtin(); table.isOk()) {
        for (const std::string& key : table.value().deviceKeys()) {
            auto spec = table.value().device(key);
            if (spec.isOk() && spec.value().isGpu)
                m_gpu->addItem(QString::fromStdString(key), QString::fromStdString(key));
        }
    }
    // What the proposal minimises; the CLI's --objective with the same default (the session's).
    for (Objective objective : { Objective::Sum, Objective::Makespan }) {
        m_objective->addItem(QString::fromLatin1(objectiveKey(objective)), static_cast<int>(objective));
        m_objective->setItemData(m_objective->count() - 1,
            tr("%1: %2").arg(
                QString::fromLatin1(objectiveKey(objective)), QString::fromLatin1(objectiveMeaning(objective))),
            Qt::ToolTipRole);
    }
    m_objective->setToolTip(tr("What the proposal minimises; every bar is this objective's value"));
    // The GPU list holds long names: the combos may shrink below them (a 1366-wide screen), showing the choice's start.
    for (QComboBox* box : { m_gpu, m_framework }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(7);
    }
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Framework"), this));
    options->addWidget(m_framework);
    options->addWidget(new QLabel(tr("GPU"), this));
    options->addWidget(m_gpu, 1);
    options->addWidget(new QLabel(tr("Objective"), this));
    options->addWidget(m_objective);
    connect(m_framework, &QComboBox::activated, this, &PlacementPanel::applyOptions);
    connect(m_gpu, &QComboBox::activated, this, &PlacementPanel::applyOptions);
    connect(m_objective, &QComboBox::activated, this,
        [this] { m_session->setObjective(static_cast<Objective>(m_objective->currentData().toInt())); });
    // The cost model's assumptions (GPU spec, link model, estimates) fold away: the chart matters more.
    m_assumptionsButton->setText(tr("Assumptions"));
    m_assumptionsButton->setCheckable(true);
    m_assumptionsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_assumptionsButton->setArrowType(Qt::RightArrow);
    m_assumptionsButton->setAutoRaise(true);
    m_assumptions->setWordWrap(true);
    m_assumptions->setTextFormat(Qt::PlainText);
    m_assumptions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_assumptions->setVisible(false);
    connect(m_assumptionsButton, &QToolButton::toggled, this, [this](bool open) {
        m_assumptionsButton->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_assumptions->setVisible(open);
    });
    left->addLayout(options);
    left->addWidget(m_chart);
    left->addWidget(m_summary);
    left->addWidget(m_assumptionsButton, 0, Qt::AlignLeft);
    left->addWidget(m_assumptions);
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
    m_table->horizontalHeader()->resizeSection(OpTableModel::RanOn, 90); // the provider elides; its tooltip is whole
    m_table->horizontalHeader()->resizeSection(OpTableModel::Times, 110);
    m_table->setWordWrap(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &PlacementPanel::showContextMenu);
    right->addWidget(m_filter);
    right->addWidget(m_table);
    layout->addLayout(left, 2);
    layout->addLayout(right, 5);

    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (!m_syncing && current.isValid())
                emit modelOpSelected(current.data(OpTableModel::ModelOpRole).toInt());
        });
    connect(session, &PlacementSession::modelChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::planChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::measuredChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::busyChanged, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::failed, this, &PlacementPanel::refreshSummary);
    connect(session, &PlacementSession::costOptionsChanged, this, &PlacementPanel::refreshOptions);
    connect(session, &PlacementSession::objectiveChanged, this, &PlacementPanel::refreshOptions);
    refreshOptions();
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
    // Which objective the bars are: the same words `placescope place` prints above its figures.
    const Objective objective = plan ? plan->objective : m_session->objective();
    lines << tr("Predicted step time (%1 objective: %2)")
                 .arg(QString::fromLatin1(objectiveKey(objective)), QString::fromLatin1(objectiveMeaning(objective)));
    if (m_session->busy())
        lines << tr("Planning...");
    if (!m_session->lastError().isEmpty())
        lines << tr("Placement: %1").arg(m_session->lastError());
    if (plan) {
        // Counted as `placescope place` counts them (the model's ops, not the graph's stand-ins).
        const PlacedOps placed = countPlacedOps(*m_session->inputs()->placement, plan->proposal.assignment);
        lines << tr("%1 ops, %2 on the CPU, %3 pinned; %4 transfers (%5)")
                     .arg(placed.ops)
                     .arg(placed.onCpu)
                     .arg(plan->pins.size())
                     .arg(plan->proposal.timeline.transferCount)
                     .arg(formatBytes(plan->proposal.timeline.transferredBytes));
        if (plan->frameworkDefaultUs >= 0 && plan->proposalUs >= 0) {
            QString saving
                = QString::fromStdString(savingLine("framework default", plan->frameworkDefaultUs, plan->proposalUs));
            saving[0] = saving[0].toUpper();
            lines << saving;
        }
    } else if (!m_session->inputs() && !m_session->busy()) {
        lines << tr("Open a model (File > Open model...) to get a placement proposal.");
    }
    if (m_session->measuredStepUs() >= 0)
        lines << tr("Measured: %1").arg(m_session->measuredSource());
    if (const auto inputs = m_session->inputs()) {
        // Beside an ONNX Runtime profile: how many ops have the measured placement and times (the table's Ran on
        // and Times columns), in the cost model's words, which `placescope place` prints too.
        if (const QString note = QString::fromStdString(inputs->placement->measuredPlacementNote); !note.isEmpty())
            lines << note.left(1).toUpper() + note.mid(1);
        // Which GPU and link the predictions are for, in one line; the expander below has the details.
        const OpGraph& graph = inputs->placement->graph;
        QString gpuName;
        for (const auto& device : graph.devices)
            if (device.kind == DeviceKind::Gpu)
                gpuName = QString::fromStdString(device.name);
        const bool up = inputs->placement->htodFittedToTrace, down = inputs->placement->dtohFittedToTrace;
        const QString source = up && down ? tr("fitted to the trace's copies")
            : up                          ? tr("up fitted to the trace's copies, down a device table estimate")
            : down                        ? tr("down fitted to the trace's copies, up a device table estimate")
                                          : tr("device table estimate");
        if (graph.links.size() >= 2)
            lines << tr("Costed for %1; link %2 up, %3 down (%4)")
                         .arg(gpuName)
                         .arg(formatRate(graph.links[0].bandwidthGBps * 1e9))
                         .arg(formatRate(graph.links[1].bandwidthGBps * 1e9))
                         .arg(source);
    }
    m_summary->setText(lines.join('\n'));
    const QStringList assumptions = m_session->assumptions();
    m_assumptions->setText(assumptions.join('\n'));
    // The lines that say which GPU and link the numbers are for, also without opening the expander.
    QStringList basis;
    for (const QString& line : assumptions)
        if (line.startsWith("GPU:") || line.startsWith("PCIe"))
            basis << line;
    const QString tip = basis.isEmpty() ? tr("Open a model to see what its costs assume") : basis.join('\n');
    m_assumptionsButton->setToolTip(tip);
    m_gpu->setToolTip(tip);
    m_assumptionsButton->setEnabled(!assumptions.isEmpty());
}

void PlacementPanel::refreshOptions()
{
    const CostOptions& options = m_session->costOptions();
    m_framework->setCurrentIndex(std::max(0, m_framework->findData(QString::fromStdString(options.framework))));
    // "from trace" only means something with a trace that records its GPU.
    const QString traceGpu = m_session->traceGpuName();
    if (auto* items = qobject_cast<QStandardItemModel*>(m_gpu->model()))
        items->item(0)->setEnabled(!traceGpu.isEmpty());
    m_gpu->setItemData(0,
        traceGpu.isEmpty() ? tr("Open a trace that records its GPU (TARGET_INFO_GPU) to use it")
                           : tr("The traced GPU: %1").arg(traceGpu),
        Qt::ToolTipRole);
    const int gpu = m_gpu->findData(QString::fromStdString(options.gpu));
    if (gpu >= 0)
        m_gpu->setCurrentIndex(gpu);
    m_objective->setCurrentIndex(std::max(0, m_objective->findData(static_cast<int>(m_session->objective()))));
}

QString PlacementPanel::summaryText() const { return m_summary->text(); }

void PlacementPanel::applyOptions()
{
    CostOptions options = m_session->costOptions();
    options.framework = m_framework->currentData().toString().toStdString();
    options.gpu = m_gpu->currentData().toString().toStdString();
    if (options.framework != m_session->costOptions().framework || options.gpu != m_session->costOptions().gpu)
        m_session->setCostOptions(options);
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
    return m_session->pinOps(ops, device);
}

void PlacementPanel::showContextMenu(QPoint pos)
{
    const QModelIndex at = m_table->indexAt(pos);
    if (at.isValid() && !m_table->selectionModel()->isRowSelected(at.row(), at.parent()))
        m_table->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (QMenu* menu = createContextMenu(this)) {
        menu->exec(m_table->viewport()->mapToGlobal(pos));
        delete menu;
    }
}

QMenu* PlacementPanel::createContextMenu(QWidget* parent)
{
    const auto ops = selectedGraphOps();
    if (ops.empty() || !m_session->inputs())
        return nullptr;
    auto* menu = new QMenu(parent);
    addPinActions(menu, m_session, ops);
    return menu;
}

} // namespace placescope::ui
