// SPDX-License-Identifier: MIT
// The placement panel, its session and what follows a plan: the per-op table, pins with undo, predicted lanes,
// graph colours and collapse, selection sync between the graph and the table, the op summary table.
#include "placement/engine/op_graph.h"
#include "placement/proposal/placement_figures.h"
#include "tests/ui/widgets/open_window.h"
#include "ui/graphview/graph_collapse.h"
#include "ui/graphview/graph_view.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/placement/model_source.h"
#include "ui/placement/op_table_model.h"
#include "ui/placement/placement_panel.h"
#include "ui/placement/placement_session.h"
#include "ui/placement/step_time_chart.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace placescope;
using namespace placescope::ui;
using placescope::ui::testing::showAndOpen;

namespace {

const QString kModels = QString(PLACESCOPE_DATA_DIR) + "/models";

int deviceOfKind(const OpGraph& graph, DeviceKind kind)
{
    for (size_t d = 0; d < graph.devices.size(); ++d)
        if (graph.devices[d].kind == kind)
            return static_cast<int>(d);
    return -1;
}

// The graph op the proposal puts on the GPU whose move to the CPU costs the most: pinning it there must
// change the prediction (it has a CPU kernel, so the pin is allowed).
int costliestGpuOpWithCpuKernel(const PlacementSession& session)
{
    const OpGraph& graph = session.inputs()->placement->graph;
    const int cpu = deviceOfKind(graph, DeviceKind::Cpu), gpu = deviceOfKind(graph, DeviceKind::Gpu);
    int best = -1;
    double bestDelta = 0;
    for (size_t op = 0; op < graph.ops.size(); ++op) {
        const auto& cost = graph.ops[op].costUs;
        if (session.deviceOf(static_cast<int>(op)) != gpu || !std::isfinite(cost[static_cast<size_t>(cpu)]))
            continue;
        const double delta = cost[static_cast<size_t>(cpu)] - cost[static_cast<size_t>(gpu)];
        if (best < 0 || delta > bestDelta)
            best = static_cast<int>(op), bestDelta = delta;
    }
    return best;
}

// The first graph op with a CPU kernel and no GPU kernel (the super-resolution model's image decode), -1 if none.
int cpuOnlyOp(const OpGraph& graph)
{
    const int cpu = deviceOfKind(graph, DeviceKind::Cpu), gpu = deviceOfKind(graph, DeviceKind::Gpu);
    for (size_t op = 0; op < graph.ops.size(); ++op) {
        const auto& cost = graph.ops[op].costUs;
        if (cost[static_cast<size_t>(gpu)] == kNoKernel && std::isfinite(cost[static_cast<size_t>(cpu)]))
            return static_cast<int>(op);
    }
    return -1;
}

QAction* actionNamed(QMenu* menu, const QString& text)
{
    for (QAction* action : menu->actions())
        if (action->text() == text)
            return action;
    return nullptr;
}

// The cost model's assumption lines for a model costed for a framework, computed here without the GUI.
QStringList assumptionsFor(const QString& model, const std::string& framework)
{
    auto graph = readModelGraph(model.toStdString());
    if (!graph.isOk())
        return {};
    CostOptions options;
    options.framework = framework;
    auto placement = buildPlacementModel(graph.value(), options);
    QStringList lines;
    if (placement.isOk())
        for (const std::string& line : placement.value().assumptions)
            lines << QString::fromStdString(line);
    return lines;
}

ModelGraph scopedGraph()
{
    // a/x -> a/y -> b/z -> w (no scope); a weight producer feeding a/y is folded away.
    ModelGraph model;
    auto value = [&](const std::string& name, int producer, int64_t bytes) {
        ModelValue v;
        v.name = name;
        v.producer = producer;
        v.bytes = bytes;
        model.values.push_back(v);
        return static_cast<int>(model.values.size() - 1);
    };
    auto op = [&](const std::string& name, const std::string& scope, std::vector<int> inputs, bool weight = false) {
        ModelOp o;
        o.name = name;
        o.type = "Op";
        o.scope = scope;
        o.inputs = std::move(inputs);
        o.producesWeight = weight;
        model.ops.push_back(o);
        return static_cast<int>(model.ops.size() - 1);
    };
    const int in = value("in", -1, 100);
    const int x = op("x", "a", { in });
    const int vx = value("vx", x, 1000);
    model.ops[static_cast<size_t>(x)].outputs = { vx };
    const int w = op("w_const", "a", {}, true);
    const int vw = value("vw", w, 5);
    model.values[static_cast<size_t>(vw)].isWeight = true;
    const int y = op("y", "a/inner", { vx, vw });
    const int vy = value("vy", y, 2000);
    const int z = op("z", "b", { vy, vx });
    const int vz = value("vz", z, 3000);
    op("out", "", { vz });
    return model;
}

} // namespace

class PlacementTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlacescopeTest");
        QCoreApplication::setApplicationName("ui_placement_test");
    }

    void collapseGroupsByScopeAndExpandsOneLevel()
    {
        const ModelGraph model = scopedGraph();
        const auto flat = buildVisibleGraph(model, false, {});
        QCOMPARE(flat.nodes.size(), size_t(4)); // the weight producer is folded away
        QCOMPARE(flat.nodeOfOp[1], -1); // ops: x, w_const, y, z, out
        const auto collapsed = buildVisibleGraph(model, true, {});
        // "a" holds x and a/inner/y; "b" holds z and "out", which has no scope and sits with its producer z.
        QCOMPARE(collapsed.nodes.size(), size_t(2));
        QCOMPARE(collapsed.nodeOfOp[0], collapsed.nodeOfOp[2]);
        QCOMPARE(collapsed.nodeOfOp[3], collapsed.nodeOfOp[4]);
        QVERIFY(collapsed.nodes[static_cast<size_t>(collapsed.nodeOfOp[0])].isGroup());
        QCOMPARE(collapsed.nodes[static_cast<size_t>(collapsed.nodeOfOp[3])].groupPath, std::string("b"));
        // Group a -> group b carries vy and vx once each: 2000 + 1000 bytes.
        bool found = false;
        for (const auto& edge : collapsed.edges)
            if (edge.from == collapsed.nodeOfOp[0] && edge.to == collapsed.nodeOfOp[3]) {
                found = true;
                QCOMPARE(edge.bytes, int64_t(3000));
            }
        QVERIFY(found);
        const auto expanded = buildVisibleGraph(model, true, { "a" });
        QCOMPARE(expanded.nodes.size(), size_t(3)); // x on its own, a/inner has one op: shown as the op; b stays
        QVERIFY(expanded.nodeOfOp[0] != expanded.nodeOfOp[2]);
        QVERIFY(!expanded.nodes[static_cast<size_t>(expanded.nodeOfOp[2])].isGroup());
    }

    void opTableFollowsThePlanAndSortsAndFilters()
    {
        PlacementSession session;
        OpTableModel model(&session);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        session.openModel(kModels + "/mnist.onnx");
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        const auto& graph = session.inputs()->placement->graph;
        QCOMPARE(model.rowCount(), static_cast<int>(graph.ops.size()));
        QVERIFY(model.rowCount() > 3);
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString device = model.index(row, OpTableModel::Device).data().toString();
            QVERIFY2(device == "CPU" || device == "GPU", qPrintable(device));
            QVERIFY(model.index(row, OpTableModel::Pinned).data().toString().isEmpty());
        }
        // Costs sort as numbers: ascending GPU cost, empty (no kernel) cells aside.
        proxy.sort(OpTableModel::GpuCostUs, Qt::AscendingOrder);
        double last = -1;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const QVariant cost = proxy.index(row, OpTableModel::GpuCostUs).data();
            if (!cost.isValid())
                continue;
            QVERIFY(cost.toDouble() >= last);
            last = cost.toDouble();
        }
        proxy.setFilterKeyColumn(OpTableModel::Type);
        proxy.setFilterFixedString("Conv");
        QVERIFY(proxy.rowCount() > 0 && proxy.rowCount() < model.rowCount());
        for (int row = 0; row < proxy.rowCount(); ++row)
            QVERIFY(proxy.index(row, OpTableModel::Type).data().toString().contains("Conv"));
    }

    void pinningAnOpChangesThePredictionAndUndoRestoresIt()
    {
        PlacementSession session;
        PlacementPanel panel(&session);
        QAbstractItemModelTester tester(panel.opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        session.openModel(kModels + "/light_resnet50.onnx");
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        const double before = session.plan()->proposalUs;
        const double objectiveBefore = session.plan()->proposal.objectiveUs;
        QVERIFY(before > 0);
        const int op = costliestGpuOpWithCpuKernel(session);
        QVERIFY2(op >= 0, "no op on the GPU with a CPU kernel");
        const int cpu = deviceOfKind(session.inputs()->placement->graph, DeviceKind::Cpu);
        // Through the panel: select the op's row, pin the selection to the CPU.
        const QModelIndex row = panel.proxy()->mapFromSource(panel.opModel()->index(op, 0));
        panel.table()->selectionModel()->setCurrentIndex(
            row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(panel.pinSelected(cpu), 1);
        QVERIFY(session.busy()); // re-plans in the background
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        QCOMPARE(session.deviceOf(op), cpu);
        QCOMPARE(panel.opModel()->index(op, OpTableModel::Pinned).data().toString(), QString("CPU"));
        QCOMPARE(panel.opModel()->index(op, OpTableModel::Device).data().toString(), QString("CPU"));
        const double pinned = session.plan()->proposalUs;
        QVERIFY2(pinned != before, qPrintable(QString("%1 vs %2").arg(pinned).arg(before)));
        // The proposal minimises the `sum` objective exactly: forcing the op onto its costlier device cannot do better.
        QVERIFY(session.plan()->proposal.objectiveUs > objectiveBefore);
        QCOMPARE(panel.chart()->entries().front().us, pinned);
        // Undo restores the prediction; redo brings the pin back.
        session.undoStack()->undo();
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.plan()->proposalUs, before);
        QVERIFY(session.pins().empty());
        session.undoStack()->redo();
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.plan()->proposalUs, pinned);
    }

    void quickPinsKeepOnlyTheNewestPlan()
    {
        PlacementSession session;
        session.openModel(kModels + "/mnist.onnx");
        QVERIFY(session.waitForPlan(120000));
        const auto& graph = session.inputs()->placement->graph;
        const int gpu = deviceOfKind(graph, DeviceKind::Gpu);
        // Several pins without waiting: older plans are dropped, the shown one matches the last pins.
        for (int op = 0; op < static_cast<int>(graph.ops.size()) && op < 4; ++op)
            if (std::isfinite(graph.ops[static_cast<size_t>(op)].costUs[static_cast<size_t>(gpu)]))
                session.pinOp(op, gpu);
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.plan()->pins, session.pins());
        QVERIFY(!session.pins().empty());
    }

    void mainWindowShowsPredictedLanesGraphColoursAndSyncsSelection()
    {
        MainWindow window;
        QAbstractItemModelTester t1(window.opSummaryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.resize(1400, 850);
        window.show();
        window.openModel(kModels + "/light_resnet50.onnx");
        PlacementSession* session = window.placementSession();
        QVERIFY2(session->waitForPlan(120000), qPrintable(session->lastError()));
        QVERIFY2(window.graphView()->waitForLayout(120000), qPrintable(window.graphView()->lastError()));
        // Predicted lanes: one per device and the transfers, holding every op once.
        const PredictedLanes* lanes = window.timeline()->predicted();
        QVERIFY(lanes);
        QStringList titles;
        size_t spans = 0;
        for (const Lane& lane : lanes->lanes) {
            titles << QString::fromStdString(lane.title);
            if (!QString::fromStdString(lane.title).contains("transfers"))
                spans += lane.eventCount();
        }
        QVERIFY2(titles.contains("Predicted: CPU") && titles.contains("Predicted: GPU")
                && titles.contains("Predicted: transfers"),
            qPrintable(titles.join(", ")));
        QCOMPARE(spans, session->inputs()->placement->graph.ops.size());
        window.timeline()->repaint();
        QVERIFY(window.timeline()->lastDrawItemCount() > 0);

        // Graph colours follow the plan: pin an op to the CPU and its node turns the CPU colour, edges cross.
        GraphView* graph = window.graphView();
        const int op = costliestGpuOpWithCpuKernel(*session);
        const int modelOp = session->inputs()->placement->modelOpOfGraphOp[static_cast<size_t>(op)];
        const int node = graph->nodeOfModelOp(modelOp);
        QVERIFY(node >= 0);
        const QColor gpuColour = graph->nodeColor(node);
        const int crossingBefore = graph->crossDeviceEdgeCount();
        session->pinOp(op, deviceOfKind(session->inputs()->placement->graph, DeviceKind::Cpu));
        QVERIFY(session->waitForPlan(120000));
        QVERIFY(graph->nodeColor(node) != gpuColour);
        QVERIFY(graph->crossDeviceEdgeCount() > crossingBefore);
        QVERIFY(window.timeline()->predicted() != lanes); // new plan, new lanes
        // Edit > Undo takes the pin back: the node is on the GPU again.
        QAction* undo = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(QKeySequence::Undo))
                undo = action;
        QVERIFY(undo && undo->isEnabled());
        undo->trigger();
        QVERIFY(session->waitForPlan(120000));
        QVERIFY(session->pins().empty());
        QCOMPARE(graph->nodeColor(node), gpuColour);
        session->undoStack()->redo();
        QVERIFY(session->waitForPlan(120000));

        // Graph -> table: clicking a node selects its op's row.
        auto* box = static_cast<QGraphicsRectItem*>(nullptr);
        for (QGraphicsItem* item : graph->scene()->items())
            if (item->data(0).isValid() && item->data(0).toInt() == node)
                box = static_cast<QGraphicsRectItem*>(item);
        QVERIFY(box);
        graph->centerOn(box);
        const QPoint at = graph->mapFromScene(box->sceneBoundingRect().center());
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(graph->selectedModelOp(), modelOp);
        QCOMPARE(window.placementPanel()->selectedModelOp(), modelOp);
        // Table -> graph: selecting another row selects its node.
        const int other = (op + 3) % static_cast<int>(session->inputs()->placement->graph.ops.size());
        QTableView* table = window.placementPanel()->table();
        table->selectionModel()->setCurrentIndex(
            window.placementPanel()->proxy()->mapFromSource(window.placementPanel()->opModel()->index(other, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(graph->selectedModelOp(), session->inputs()->placement->modelOpOfGraphOp[static_cast<size_t>(other)]);
    }

    void largeGraphsStartCollapsedAndExpandOnDemand()
    {
        // The densenet has over 500 ops: it opens collapsed by scope; expanding a group shows more nodes.
        GraphView view;
        view.openModel(kModels + "/light_densenet121.onnx");
        QVERIFY2(view.waitForLayout(120000), qPrintable(view.lastError()));
        QVERIFY(view.isCollapsed());
        const int collapsed = view.nodeCount();
        int ops = 0;
        for (int op : view.visibleGraph().nodeOfOp)
            ops += op >= 0;
        QVERIFY2(collapsed < ops / 3, qPrintable(QString("%1 nodes for %2 ops").arg(collapsed).arg(ops)));
        int group = -1;
        for (int n = 0; n < collapsed && group < 0; ++n)
            if (view.visibleGraph().nodes[static_cast<size_t>(n)].isGroup())
                group = n;
        QVERIFY(group >= 0);
        const size_t members = view.visibleGraph().nodes[static_cast<size_t>(group)].ops.size();
        view.toggleGroup(group);
        QVERIFY(view.busy()); // laid out again in the background
        QVERIFY(view.waitForLayout(120000));
        QVERIFY(view.nodeCount() > collapsed);
        QVERIFY(view.nodeCount() <= collapsed - 1 + static_cast<int>(members));
    }

    void pinActionsAreDisabledWhereTheOpHasNoKernel()
    {
        // The super-resolution model decodes and encodes images: CPU-only ops, no GPU kernel to pin them to.
        PlacementSession session;
        PlacementPanel panel(&session);
        GraphView view;
        view.setSession(&session);
        session.openModel(kModels + "/superres_prepost_op18.onnx");
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        QVERIFY2(view.waitForLayout(120000), qPrintable(view.lastError()));
        const OpGraph& graph = session.inputs()->placement->graph;
        const int op = cpuOnlyOp(graph);
        QVERIFY2(op >= 0, "no CPU-only op in the super-resolution model");
        const QString id = QString::fromStdString(graph.ops[static_cast<size_t>(op)].id);
        // Table: select the op's row; "Pin to GPU" is disabled and says why, "Pin to CPU" is not.
        panel.table()->selectionModel()->setCurrentIndex(panel.proxy()->mapFromSource(panel.opModel()->index(op, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        std::unique_ptr<QMenu> menu(panel.createContextMenu(nullptr));
        QVERIFY(menu);
        QAction* toGpu = actionNamed(menu.get(), "Pin to GPU");
        QAction* toCpu = actionNamed(menu.get(), "Pin to CPU");
        QVERIFY(toGpu && toCpu);
        QVERIFY(!toGpu->isEnabled());
        QVERIFY2(
            toGpu->toolTip().contains(id) && toGpu->toolTip().contains("No GPU kernel"), qPrintable(toGpu->toolTip()));
        QCOMPARE(toGpu->statusTip(), toGpu->toolTip());
        QVERIFY(toCpu->isEnabled());
        // Graph: the op's node offers the same.
        const int node = view.nodeOfModelOp(session.inputs()->placement->modelOpOfGraphOp[static_cast<size_t>(op)]);
        QVERIFY(node >= 0);
        std::unique_ptr<QMenu> nodeMenu(view.createContextMenu(node, nullptr));
        QVERIFY(nodeMenu);
        QAction* nodeToGpu = actionNamed(nodeMenu.get(), "Pin to GPU");
        QVERIFY(nodeToGpu && !nodeToGpu->isEnabled());
        QVERIFY(actionNamed(nodeMenu.get(), "Pin to CPU")->isEnabled());
        // An op with kernels on both devices can go either way.
        int both = -1;
        for (size_t g = 0; g < graph.ops.size() && both < 0; ++g)
            if (std::isfinite(graph.ops[g].costUs[0]) && std::isfinite(graph.ops[g].costUs[1])
                && session.inputs()->placement->modelOpOfGraphOp[g] >= 0)
                both = static_cast<int>(g);
        QVERIFY(both >= 0);
        panel.table()->selectionModel()->setCurrentIndex(panel.proxy()->mapFromSource(panel.opModel()->index(both, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        menu.reset(panel.createContextMenu(nullptr));
        QVERIFY(actionNamed(menu.get(), "Pin to GPU")->isEnabled());
        // Triggering the enabled action pins through the undo stack.
        actionNamed(menu.get(), "Pin to CPU")->trigger();
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.pins().at(both), deviceOfKind(graph, DeviceKind::Cpu));
        QVERIFY(session.undoStack()->canUndo());
    }

    void switchingTheFrameworkRecostsAndDropsStaleResults()
    {
        const QString model = kModels + "/superres_prepost_op18.onnx";
        const QStringList torchCosts = assumptionsFor(model, "torch");
        const QStringList tfCosts = assumptionsFor(model, "tf");
        const QStringList ortCosts = assumptionsFor(model, "ort");
        // The image decode/encode ops have no GPU kernel in any of the three tables, and the cost model says
        // whose table it applied: that line tells the frameworks apart (the kernel sets agree on this model).
        QVERIFY2(torchCosts.filter("no torch GPU kernel").size() == 1, qPrintable(torchCosts.join('\n')));
        QVERIFY2(tfCosts.filter("no tf GPU kernel").size() == 1, qPrintable(tfCosts.join('\n')));
        QVERIFY(tfCosts != torchCosts && ortCosts != tfCosts);
        PlacementSession session;
        PlacementPanel panel(&session);
        session.openModel(model);
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        QCOMPARE(session.assumptions(), torchCosts);
        QCOMPARE(panel.frameworkBox()->currentData().toString(), QString("torch"));
        const auto plannedInputs = session.inputs();
        const double torchUpGBps = session.inputs()->placement->graph.links.at(0).bandwidthGBps;
        const double torchAllGpuUs = session.plan()->allGpuUs;
        // Pick TensorFlow in the combo box: the model is costed again in the background.
        const int tf = panel.frameworkBox()->findData("tf");
        QVERIFY(tf >= 0);
        panel.frameworkBox()->setCurrentIndex(tf);
        emit panel.frameworkBox()->activated(tf);
        QVERIFY(session.busy());
        QCOMPARE(session.costOptions().framework, std::string("tf"));
        QVERIFY2(session.waitForPlan(120000), qPrintable(session.lastError()));
        QVERIFY(session.inputs() != plannedInputs);
        QCOMPARE(session.assumptions(), tfCosts);
        QVERIFY(panel.assumptionsLabel()->text().contains("no tf GPU kernel"));
        QCOMPARE(session.inputs()->model, plannedInputs->model); // same graph, new costs
        // TensorFlow stages host tensors in pinned memory: faster copies, so the all-GPU run (it still decodes
        // and encodes on the CPU and copies across) is predicted faster.
        QVERIFY(session.inputs()->placement->graph.links.at(0).bandwidthGBps > torchUpGBps);
        QVERIFY2(session.plan()->allGpuUs < torchAllGpuUs,
            qPrintable(QString("tf %1 us vs torch %2 us").arg(session.plan()->allGpuUs).arg(torchAllGpuUs)));
        // Two changes in a row: only the newest one's result is kept.
        const int ort = panel.frameworkBox()->findData("ort");
        panel.frameworkBox()->setCurrentIndex(0);
        emit panel.frameworkBox()->activated(0);
        panel.frameworkBox()->setCurrentIndex(ort);
        emit panel.frameworkBox()->activated(ort);
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.costOptions().framework, std::string("ort"));
        QCOMPARE(session.assumptions(), ortCosts);
        // The GPU box re-costs too, and the assumptions name the GPU used.
        const int a100 = panel.gpuBox()->findData("a100");
        QVERIFY(a100 >= 0);
        QVERIFY(!panel.gpuBox()->model()->index(0, 0).flags().testFlag(Qt::ItemIsEnabled)); // no trace: no "from trace"
        const double allGpuOnH100 = session.plan()->allGpuUs;
        panel.gpuBox()->setCurrentIndex(a100);
        emit panel.gpuBox()->activated(a100);
        QVERIFY(session.waitForPlan(120000));
        QCOMPARE(session.costOptions().gpu, std::string("a100"));
        QVERIFY2(session.plan()->allGpuUs > allGpuOnH100,
            qPrintable(QString("A100 %1 us vs H100 %2 us").arg(session.plan()->allGpuUs).arg(allGpuOnH100)));
        QVERIFY2(session.assumptions().filter("GPU: ").join(' ').contains("A100"),
            qPrintable(session.assumptions().join('\n')));
        QVERIFY2(
            panel.assumptionsButton()->toolTip().contains("A100"), qPrintable(panel.assumptionsButton()->toolTip()));
        QVERIFY(!panel.assumptionsLabel()->isVisibleTo(&panel));
        panel.assumptionsButton()->toggle();
        QVERIFY(panel.assumptionsLabel()->isVisibleTo(&panel));
        QCOMPARE(panel.assumptionsLabel()->text(), session.assumptions().join('\n'));
    }

    void anOpenTraceSetsTheGpuAndLinkOfTheCosts()
    {
        // An nsys export is imported to a temp trace: the costs read that copy's GPU row and memcpys.
        MainWindow window;
        const QString input = QString(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
        window.openModel(kModels + "/mnist.onnx");
        window.openFile(input);
        QVERIFY2(window.waitForOpen(120000), qPrintable(window.lastError()));
        PlacementSession* session = window.placementSession();
        QVERIFY2(session->waitForPlan(120000), qPrintable(session->lastError()));
        const CostOptions& options = session->costOptions();
        QVERIFY(!options.tracePath.empty());
        QVERIFY(QString::fromStdString(options.tracePath) != input);
        QVERIFY2(QFileInfo::exists(QString::fromStdString(options.tracePath)), options.tracePath.c_str());
        QCOMPARE(options.gpu, std::string("from-trace"));
        QVERIFY2(session->traceGpuName().contains("A100"), qPrintable(session->traceGpuName()));
        const QStringList assumptions = session->assumptions();
        QVERIFY2(assumptions.filter("GPU: ").join(' ').contains("A100"), qPrintable(assumptions.join('\n')));
        QVERIFY2(assumptions.filter("PCIe").size() > 0 && assumptions.filter("no trace").isEmpty(),
            qPrintable(assumptions.join('\n')));
        PlacementPanel* panel = window.placementPanel();
        QCOMPARE(panel->gpuBox()->currentData().toString(), QString("from-trace"));
        QVERIFY(panel->gpuBox()->itemData(0, Qt::ToolTipRole).toString().contains("A100"));
        QVERIFY(panel->assumptionsButton()->toolTip().contains("PCIe"));
        // The summary says it in one line: the traced GPU, the link fitted to the trace's memcpys.
        const QString summary = panel->summaryText();
        const PlacedOps placed = countPlacedOps(*session->inputs()->placement, session->plan()->proposal.assignment);
        QVERIFY2(placed.ops > 0 && summary.contains(QString::number(placed.ops) + " ops"), qPrintable(summary));
        QVERIFY2(summary.contains("Costed for NVIDIA A100") && summary.contains("fitted to the trace's copies"),
            qPrintable(summary));
    }

    void anOnnxModelBesideItsOrtProfileShowsTheMeasuredPlacement()
    {
        // mnist.onnx beside the ORT 1.30 profile of its two runs (issue 28). Figures from the independent reader,
        // python3 tests/data/ort_ref.py --model tests/data/models/mnist.onnx tests/data/traces/ort130_mnist_cpu.json:
        // 2 of the 12 nodes ran under their own name (Pooling66 9.5 us and Times212_reshape0 6.0 us per run, on
        // CPUExecutionProvider); ORT fused the other 10 into nodes of new names.
        MainWindow window;
        QVERIFY2(showAndOpen(window, QString(PLACESCOPE_DATA_DIR) + "/traces/ort130_mnist_cpu.json", { 1400, 800 }),
            qPrintable(window.lastError()));
        window.openModel(kModels + "/mnist.onnx");
        PlacementSession* session = window.placementSession();
        QVERIFY2(session->waitForPlan(120000), qPrintable(session->lastError()));
        QVERIFY(waitUntil([&] { return window.modelMatch() != nullptr; }, 60000));
        QVERIFY(window.modelMatch()->byNodeName);
        QCOMPARE(window.modelMatch()->matchedOps, size_t(2));
        auto* matchLabel = window.findChild<QLabel*>("modelMatchWarning");
        QVERIFY2(matchLabel && !matchLabel->text().startsWith("Warning")
                && matchLabel->text().contains("2 of the model's 12 ops ran under their own name"),
            qPrintable(matchLabel ? matchLabel->text() : QString("no label")));

        PlacementPanel* panel = window.placementPanel();
        OpTableModel* table = panel->opModel();
        QAbstractItemModelTester tester(table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(table->headerData(OpTableModel::RanOn, Qt::Horizontal).toString(), QString("Ran on"));
        QCOMPARE(table->headerData(OpTableModel::Times, Qt::Horizontal).toString(), QString("Times"));
        int measured = 0, estimated = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString op = table->index(row, OpTableModel::Op).data().toString();
            const QString ranOn = table->index(row, OpTableModel::RanOn).data().toString();
            const QString times = table->index(row, OpTableModel::Times).data().toString();
            if (table->index(row, 0).data(OpTableModel::ModelOpRole).toInt() < 0)
                continue; // the graph's input and output ends
            if (op == "Pooling66" || op == "Times212_reshape0") {
                ++measured;
                // The measured placement beside the proposal's device, and the measured time as the CPU cost.
                QCOMPARE(ranOn, QString("CPU (CPUExecutionProvider)"));
                QCOMPARE(times, QString("measured on CPU"));
                QCOMPARE(table->index(row, OpTableModel::CpuCostUs).data().toDouble(), op == "Pooling66" ? 9.5 : 6.0);
                QVERIFY(!table->index(row, OpTableModel::Device).data().toString().isEmpty());
            } else {
                ++estimated;
                QVERIFY2(ranOn.isEmpty(), qPrintable(op + ": " + ranOn));
                QCOMPARE(times, QString("estimated"));
            }
        }
        QCOMPARE(measured, 2);
        QCOMPARE(estimated, 10);
        const QString summary = panel->summaryText();
        QVERIFY2(summary.contains("Measured by ONNX Runtime: 2 of 12 ops ran under their own name in the profile "
                                  "(CPUExecutionProvider x2); their times there are the profile's mean per run, "
                                  "the others' are estimates"),
            qPrintable(summary));
    }

    void everyModelIsPlanned()
    {
        const auto files = QDir(kModels).entryInfoList({ "*.onnx" }, QDir::Files);
        QVERIFY(files.size() >= 8);
        for (const QFileInfo& file : files) {
            PlacementSession session;
            session.openModel(file.absoluteFilePath());
            QVERIFY2(session.waitForPlan(120000), qPrintable(file.fileName() + ": " + session.lastError()));
            QVERIFY2(session.plan()->proposalUs >= 0, qPrintable(file.fileName()));
            const auto& graph = session.inputs()->placement->graph;
            QCOMPARE(session.plan()->proposal.assignment.size(), graph.ops.size());
            size_t spans = 0;
            for (const Lane& lane : session.plan()->predicted.lanes)
                if (lane.title != "Predicted: transfers")
                    spans += lane.eventCount();
            QCOMPARE(spans, graph.ops.size());
        }
    }

    void opSummaryListsFrameworkOpsWithTheirKernels()
    {
        MainWindow window;
        QAbstractItemModelTester tester(
            window.opSummaryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.openFile(QString(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz");
        QVERIFY2(window.waitForOpen(120000), qPrintable(window.lastError()));
        TableModel* ops = window.opSummaryModel();
        QVERIFY(ops->rowCount() > 5);
        double gpuMs = 0, kernelMs = 0;
        for (int row = 0; row < ops->rowCount(); ++row) {
            QVERIFY(ops->rowAt(row)[1].toLongLong() > 0);
            gpuMs += ops->rowAt(row)[3].toDouble() / 1e6; // ns
        }
        for (int row = 0; row < window.kernelModel()->rowCount(); ++row)
            kernelMs += window.kernelModel()->rowAt(row)[2].toDouble() / 1e6;
        // Linked kernels exist, and no kernel is counted twice across cpu_op rows more than nesting allows.
        QVERIFY(gpuMs > 0);
        QVERIFY(window.placementSession()->measuredStepUs() > 0);
        QVERIFY(kernelMs > 0);
    }
};

QTEST_MAIN(PlacementTest)
#include "placement_test.moc"
