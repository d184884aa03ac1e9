// SPDX-License-Identifier: MIT
#include "ui/placement/op_table_model.h"

#include "ui/placement/placement_session.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include <cmath>

namespace placescope::ui {
namespace {

int deviceWithKind(const OpGraph& graph, DeviceKind kind)
{
    for (size_t d = 0; d < graph.devices.size(); ++d)
        if (graph.devices[d].kind == kind)
            return static_cast<int>(d);
    return -1;
}

// Where the trace says a model op ran: "CPU (CPUExecutionProvider)", "GPU", or empty when it does not say.
QString ranOnLabel(const ModelOp& op)
{
    const QString device = op.measuredDevice == "gpu" ? QStringLiteral("GPU")
        : op.measuredDevice == "cpu"                  ? QStringLiteral("CPU")
                                                      : QString();
    if (op.measuredProvider.empty())
        return device;
    const QString provider = QString::fromStdString(op.measuredProvider);
    return device.isEmpty() ? provider : device + " (" + provider + ")";
}

// Which of an op's two costs are measured: "measured on CPU", "measured on CPU and GPU", or "estimated".
QString timesLabel(const ModelOp& op)
{
    QStringList measured;
    if (op.measuredCpuUs >= 0)
        measured << QStringLiteral("CPU");
    if (op.measuredGpuUs >= 0)
        measured << QStringLiteral("GPU");
    return measured.isEmpty() ? QStringLiteral("estimated") : QStringLiteral("measured on ") + measured.join(" and ");
}

QString deviceLabel(const OpGraph& graph, int device)
{
    if (device < 0 || static_cast<size_t>(device) >= graph.devices.size())
        return {};
    return graph.devices[static_cast<size_t>(device)].kind == DeviceKind::Gpu ? QStringLiteral("GPU")
                                                                              : QStringLiteral("CPU");
}

} // namespace

OpTableModel::OpTableModel(PlacementSession* session, QObject* parent)
    : QAbstractTableModel(parent)
    , m_session(session)
{
    connect(session, &PlacementSession::modelChanged, this, [this] {
        beginResetModel();
        auto inputs = m_session->inputs();
        m_rows = inputs ? static_cast<int>(inputs->placement->graph.ops.size()) : 0;
        endResetModel();
    });
    connect(session, &PlacementSession::planChanged, this, [this] {
        if (m_rows > 0)
            emit dataChanged(index(0, Device), index(m_rows - 1, Pinned));
    });
}

int OpTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }

int OpTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpTableModel::cell(int graphOp, int column) const
{
    const auto inputs = m_session->inputs();
    const OpGraph& graph = inputs->placement->graph;
    const PlacementOp& op = graph.ops[static_cast<size_t>(graphOp)];
    const int modelOp = static_cast<size_t>(graphOp) < inputs->placement->modelOpOfGraphOp.size()
        ? inputs->placement->modelOpOfGraphOp[static_cast<size_t>(graphOp)]
        : -1;
    // The op as costed: with what the open trace measured of it.
    const ModelOp* measured
        = modelOp >= 0 && inputs->measured && static_cast<size_t>(modelOp) < inputs->measured->ops.size()
        ? &inputs->measured->ops[static_cast<size_t>(modelOp)]
        : nullptr;
    auto cost = [&](DeviceKind kind) -> QVariant {
        const int d = deviceWithKind(graph, kind);
        if (d < 0 || static_cast<size_t>(d) >= op.costUs.size() || !std::isfinite(op.costUs[static_cast<size_t>(d)]))
            return QVariant(); // no kernel there: an empty cell sorts apart from any cost
        // Three significant decimals are all a cost estimate has; keeps the column narrow and sortable.
        return std::round(op.costUs[static_cast<size_t>(d)] * 1000.0) / 1000.0;
    };
    switch (column) {
    case Op:
        return QString::fromStdString(op.id);
    case Type:
        return QString::fromStdString(op.type);
    case Device:
        return deviceLabel(graph, m_session->deviceOf(graphOp));
    case RanOn:
        return measured ? ranOnLabel(*measured) : QString();
    case Layout:
        if (modelOp >= 0 && static_cast<size_t>(modelOp) < inputs->opLayout.size())
            return inputs->opLayout[static_cast<size_t>(modelOp)] == DataLayout::None
                ? QString()
                : QString::fromLatin1(layoutName(inputs->opLayout[static_cast<size_t>(modelOp)]));
        return QString();
    case CpuCostUs:
        return cost(DeviceKind::Cpu);
    case GpuCostUs:
        return cost(DeviceKind::Gpu);
    case Times:
        return measured ? timesLabel(*measured) : QString(); // the graph's host ends cost nothing
    case Pinned: {
        auto pin = m_session->pins().find(graphOp);
        return pin == m_session->pins().end() ? QString() : deviceLabel(graph, pin->second);
    }
    default:
        return {};
    }
}

QVariant OpTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows || index.column() >= ColumnCount || !m_session->inputs())
        return {};
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return cell(index.row(), index.column());
    case GraphOpRole:
        return index.row();
    case ModelOpRole: {
        const auto& map = m_session->inputs()->placement->modelOpOfGraphOp;
        return static_cast<size_t>(index.row()) < map.size() ? map[static_cast<size_t>(index.row())] : -1;
    }
    case Qt::ToolTipRole:
        if (index.column() == RanOn) // a narrow column: the provider's whole name
            return cell(index.row(), index.column());
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CpuCostUs || index.column() == GpuCostUs)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Device) {
            const int d = m_session->deviceOf(index.row());
            const auto& graph = m_session->inputs()->placement->graph;
            if (d >= 0 && static_cast<size_t>(d) < graph.devices.size())
                return QBrush(graph.devices[static_cast<size_t>(d)].kind == DeviceKind::Gpu ? QColor(40, 140, 40)
                                                                                            : QColor(40, 90, 200));
        }
        return {};
    default:
        return {};
    }
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && (section == RanOn || section == Times))
        return section == RanOn
            ? tr("Where the open trace says the op ran (the measured placement), beside the proposal's Device")
            : tr("Which costs are measured (from the trace; an ONNX Runtime profile's mean per run) and which are "
                 "estimated (roofline)");
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Op:
        return tr("Op");
    case Type:
        return tr("Type");
    case Device:
        return tr("Device");
    case RanOn:
        return tr("Ran on");
    case Layout:
        return tr("Layout");
    case CpuCostUs:
        return tr("CPU us");
    case GpuCostUs:
        return tr("GPU us");
    case Times:
        return tr("Times");
    case Pinned:
        return tr("Pinned");
    default:
        return {};
    }
}

} // namespace placescope::ui
