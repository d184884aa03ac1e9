// SPDX-License-Identifier: MIT
#include "ui/placement/pin_actions.h"

#include "ui/placement/placement_session.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>

#include <cmath>

namespace placescope::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("PinActions", text); }

// "Conv_0 (Conv), Relu_1 (Relu) and 3 more": enough to recognise the ops without a page-long tooltip.
QString opList(const OpGraph& graph, const std::vector<int>& ops)
{
    constexpr size_t kShown = 4;
    QStringList names;
    for (size_t i = 0; i < ops.size() && i < kShown; ++i) {
        const auto& op = graph.ops[static_cast<size_t>(ops[i])];
        names << (op.type.empty()
                ? QString::fromStdString(op.id)
                : QString("%1 (%2)").arg(QString::fromStdString(op.id), QString::fromStdString(op.type)));
    }
    QString text = names.join(", ");
    if (ops.size() > kShown)
        text += tr(" and %1 more").arg(ops.size() - kShown);
    return text;
}

} // namespace

void addPinActions(QMenu* menu, PlacementSession* session, const std::vector<int>& graphOps)
{
    const auto inputs = session->inputs();
    if (!inputs || graphOps.empty())
        return;
    const OpGraph& graph = inputs->placement->graph;
    const QString framework = QString::fromStdString(session->costOptions().framework);
    menu->setToolTipsVisible(true);
    for (size_t d = 0; d < graph.devices.size(); ++d) {
        const QString device = graph.devices[d].kind == DeviceKind::Gpu ? tr("GPU") : tr("CPU");
        std::vector<int> pinnable, blocked;
        for (int op : graphOps) {
            if (op < 0 || static_cast<size_t>(op) >= graph.ops.size())
                continue;
            const auto& cost = graph.ops[static_cast<size_t>(op)].costUs;
            (d < cost.size() && std::isfinite(cost[d]) ? pinnable : blocked).push_back(op);
        }
        QAction* action = menu->addAction(tr("Pin to %1").arg(device));
        QString tip;
        if (pinnable.empty()) {
            action->setEnabled(false);
            tip = tr("No %1 kernel for %2 in the %3 capability table").arg(device, opList(graph, blocked), framework);
        } else if (!blocked.empty()) {
            tip = tr("Pins %1 of %2 ops; no %3 kernel (left as they are): %4")
                      .arg(pinnable.size())
                      .arg(pinnable.size() + blocked.size())
                      .arg(device, opList(graph, blocked));
        } else {
            tip = tr("Keep %1 on the %2 whatever the planner prefers").arg(opList(graph, pinnable), device);
        }
        action->setToolTip(tip);
        action->setStatusTip(tip);
        const int target = static_cast<int>(d);
        QObject::connect(
            action, &QAction::triggered, session, [session, pinnable, target] { session->pinOps(pinnable, target); });
    }
    QAction* unpin = menu->addAction(tr("Unpin"));
    QObject::connect(unpin, &QAction::triggered, session, [session, graphOps] { session->pinOps(graphOps, -1); });
}

} // namespace placescope::ui
