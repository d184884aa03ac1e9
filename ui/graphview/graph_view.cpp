// SPDX-License-Identifier: MIT
#include "ui/graphview/graph_view.h"

#include "ui/jobs/wait_until.h"
#include "ui/placement/model_source.h"
#include "ui/placement/pin_actions.h"
#include "ui/placement/placement_session.h"
#include "ui/timeline/timeline_format.h"

#include <QContextMenuEvent>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QMenu>
#include <QWheelEvent>

#include <cmath>

namespace placescope::ui {
namespace {

// Device colours shared with the placement table: CPU blue, GPU green, grey before a plan exists.
QColor deviceColor(int kind)
{
    return kind == 0 ? QColor(120, 160, 230) : kind == 1 ? QColor(130, 200, 130) : QColor(205, 205, 205);
}
QColor layoutColor(DataLayout layout)
{
    return layout == DataLayout::Nhwc ? QColor(230, 140, 40) : QColor(70, 70, 140);
}
const QColor kCrossEdge(215, 50, 50);

struct LayoutJob
{
    std::string error;
    std::shared_ptr<const ModelGraph> model; // set when the job also read the model
    GraphLayout layout;
};

} // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHint(QPainter::Antialiasing);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop); // a short graph starts at the top, where its inputs are
}

void GraphView::setSession(PlacementSession* session)
{
    m_session = session;
    connect(session, &PlacementSession::modelChanged, this, [this] {
        if (m_session->model() && m_session->model() != m_model)
            setModel(m_session->model());
    });
    connect(session, &PlacementSession::planChanged, this, &GraphView::recolour);
}

void GraphView::openModel(const QString& path)
{
    m_error.clear();
    m_job.start(
        [file = path.toStdString()](const CancelToken&) {
            LayoutJob job;
            auto model = readModelGraph(file);
            if (!model.isOk())
                job.error = model.status().message();
            else
                job.model = std::make_shared<const ModelGraph>(std::move(model).value());
            return job;
        },
        [this](LayoutJob job) {
            if (!job.error.empty()) {
                m_error = QString::fromStdString(job.error);
                emit layoutFinished(false);
                return;
            }
            setModel(job.model);
        });
}

void GraphView::setModel(std::shared_ptr<const ModelGraph> model)
{
    m_model = std::move(model);
    m_expanded.clear();
    size_t visibleOps = 0;
    for (const auto& op : m_model->ops)
        visibleOps += !op.producesWeight;
    m_collapse = visibleOps > kCollapseThreshold;
    relayout();
}

void GraphView::relayout()
{
    m_error.clear();
    m_visible = buildVisibleGraph(*m_model, m_collapse, m_expanded);
    scene()->clear();
    m_boxes.clear();
    m_layoutMarks.clear();
    m_edges.clear();
    m_selected = -1;
    // Graphviz runs off the UI thread; it only sees labels and edges. A newer model or expansion drops this one.
    m_job.start(
        [input = toLayoutInput(m_visible)](const CancelToken& cancel) {
            LayoutJob job;
            auto layout = layoutGraph(input, &cancel);
            if (!layout.isOk())
                job.error = layout.status().message();
            else
                job.layout = std::move(layout).value();
            return job;
        },
        [this](const LayoutJob& job) {
            m_error = QString::fromStdString(job.error);
            if (job.error.empty())
                buildScene(job.layout);
            emit layoutFinished(job.error.empty());
        });
}

bool GraphView::waitForLayout(int timeoutMs)
{
    return waitUntil([this] { return !m_job.isRunning(); }, timeoutMs) && m_error.isEmpty() && m_model;
}

void GraphView::buildScene(const GraphLayout& layout)
{
    scene()->clear();
    m_boxes.clear();
    m_layoutMarks.clear();
    m_edges.clear();
    m_selected = -1;
    QPen edgePen(palette().color(QPalette::Text));
    edgePen.setWidthF(0.8);
    for (const auto& edge : layout.edges) {
        EdgeItem item;
        if (!edge.points.empty()) {
            QPainterPath path(QPointF(edge.points[0].first, edge.points[0].second));
            for (size_t i = 1; i + 2 < edge.points.size(); i += 3)
                path.cubicTo(edge.points[i].first, edge.points[i].second, edge.points[i + 1].first,
                    edge.points[i + 1].second, edge.points[i + 2].first, edge.points[i + 2].second);
            item.path = scene()->addPath(path, edgePen);
            item.middle = path.pointAtPercent(0.5);
        }
        m_edges.push_back(item);
    }
    QFont stripeFont = font();
    for (size_t i = 0; i < layout.nodes.size(); ++i) {
        const auto& box = layout.nodes[i];
        const auto& node = m_visible.nodes[i];
        auto* rect = scene()->addRect(box.x - box.width / 2, box.y - box.height / 2, box.width, box.height,
            QPen(Qt::black, node.isGroup() ? 1.6 : 0.6), deviceColor(-1));
        rect->setData(0, static_cast<int>(i));
        rect->setToolTip(nodeTooltip(static_cast<int>(i)));
        auto* text = scene()->addSimpleText(QString::fromStdString(node.label));
        text->setParentItem(rect);
        text->setPos(box.x - text->boundingRect().width() / 2, box.y - text->boundingRect().height() / 2);
        // Layout mark: a stripe on the left edge when the op's first 4-D input has a known layout.
        DataLayout layoutKind = DataLayout::None;
        for (int op : node.ops) {
            const DataLayout l = inputLayout(*m_model, m_model->ops[static_cast<size_t>(op)]);
            if (l != DataLayout::None) {
                layoutKind = l;
                break;
            }
        }
        QGraphicsRectItem* mark = nullptr;
        if (layoutKind != DataLayout::None) {
            mark = scene()->addRect(
                box.x - box.width / 2, box.y - box.height / 2, 5, box.height, Qt::NoPen, layoutColor(layoutKind));
            mark->setParentItem(rect);
        }
        m_layoutMarks.push_back(mark);
        m_boxes.push_back(rect);
    }
    scene()->setSceneRect(-12, -12, layout.width + 24, layout.height + 24); // a margin: no box touches the edge
    recolour();
    // Start on the graph's inputs at a readable scale: the whole width when that keeps labels legible (scale
    // >= 0.6), else 0.6 centred on the first node; never magnified above 1:1.
    resetTransform();
    const double fit = viewport()->width() / std::max(layout.width + 20, 1.0);
    const double s = std::clamp(fit, 0.6, 1.0);
    scale(s, s);
    const double top = viewport()->height() / (2 * s);
    if (fit >= 0.6 || layout.nodes.empty())
        centerOn(layout.width / 2, top - 12); // the scene's top margin
    else
        centerOn(layout.nodes.front().x, layout.nodes.front().y - layout.nodes.front().height - 12 + top);
}

int GraphView::nodeDevice(int node) const
{
    // A group takes the device most of its ops run on.
    if (!m_session || node < 0 || node >= nodeCount())
        return -1;
    auto inputs = m_session->inputs();
    if (!inputs || inputs->model != m_model || !m_session->plan())
        return -1;
    std::map<int, int> votes;
    for (int op : m_visible.nodes[static_cast<size_t>(node)].ops) {
        const int device = m_session->deviceOfModelOp(op);
        if (device >= 0)
            ++votes[device];
    }
    int best = -1, count = 0;
    for (const auto& [device, n] : votes)
        if (n > count)
            best = device, count = n;
    if (best < 0)
        return -1;
    return inputs->placement->graph.devices[static_cast<size_t>(best)].kind == DeviceKind::Gpu ? 1 : 0;
}

QColor GraphView::nodeColor(int node) const
{
    return node >= 0 && node < static_cast<int>(m_boxes.size()) ? m_boxes[static_cast<size_t>(node)]->brush().color()
                                                                : QColor();
}

void GraphView::recolour()
{
    if (m_boxes.size() != m_visible.nodes.size())
        return; // layout still running: buildScene colours when it lands
    std::vector<int> kind(m_boxes.size());
    for (size_t i = 0; i < m_boxes.size(); ++i) {
        kind[i] = nodeDevice(static_cast<int>(i));
        m_boxes[i]->setBrush(deviceColor(kind[i]));
        m_boxes[i]->setToolTip(nodeTooltip(static_cast<int>(i)));
    }
    QPen normal(palette().color(QPalette::Text));
    normal.setWidthF(0.8);
    QPen cross(kCrossEdge);
    cross.setWidthF(2.2);
    m_crossEdges = 0;
    for (size_t e = 0; e < m_edges.size() && e < m_visible.edges.size(); ++e) {
        const auto& edge = m_visible.edges[e];
        EdgeItem& item = m_edges[e];
        const bool crossing = kind[static_cast<size_t>(edge.from)] >= 0 && kind[static_cast<size_t>(edge.to)] >= 0
            && kind[static_cast<size_t>(edge.from)] != kind[static_cast<size_t>(edge.to)];
        m_crossEdges += crossing;
        if (item.path) {
            item.path->setPen(crossing ? cross : normal);
            item.path->setZValue(crossing ? 1 : 0);
        }
        if (crossing && !item.label) {
            item.label = scene()->addSimpleText(edge.bytes > 0 ? formatBytes(edge.bytes) : tr("? bytes"));
            item.label->setBrush(kCrossEdge);
            QFont f = item.label->font();
            f.setBold(true);
            item.label->setFont(f);
            item.label->setZValue(2);
            item.label->setPos(item.middle + QPointF(4, -item.label->boundingRect().height() / 2));
        }
        if (item.label)
            item.label->setVisible(crossing);
    }
    viewport()->update();
}

QString GraphView::nodeTooltip(int node) const
{
    const auto& n = m_visible.nodes[static_cast<size_t>(node)];
    if (n.isGroup())
        return tr("%1: %2 ops (double-click to expand)").arg(QString::fromStdString(n.groupPath)).arg(n.ops.size());
    const ModelOp& op = m_model->ops[static_cast<size_t>(n.ops.front())];
    QString text = QString::fromStdString(op.type + " " + op.name);
    const DataLayout layout = inputLayout(*m_model, op);
    if (layout != DataLayout::None)
        text += tr("\ninput layout %1").arg(layoutName(layout));
    if (m_session && m_session->plan() && m_session->inputs() && m_session->inputs()->model == m_model) {
        const int graphOp = m_session->graphOpOfModelOp(n.ops.front());
        const auto& graph = m_session->inputs()->placement->graph;
        if (graphOp >= 0) {
            const auto& cost = graph.ops[static_cast<size_t>(graphOp)].costUs;
            for (size_t d = 0; d < cost.size() && d < graph.devices.size(); ++d)
                text += QString("\n%1: %2")
                            .arg(graph.devices[d].kind == DeviceKind::Gpu ? "GPU" : "CPU",
                                std::isfinite(cost[d]) ? formatDuration(cost[d] * 1000.0) : tr("no kernel"));
            if (m_session->pins().count(graphOp))
                text += tr("\npinned");
        }
    }
    return text;
}

int GraphView::nodeOfModelOp(int modelOp) const
{
    return modelOp >= 0 && static_cast<size_t>(modelOp) < m_visible.nodeOfOp.size()
        ? m_visible.nodeOfOp[static_cast<size_t>(modelOp)]
        : -1;
}

void GraphView::toggleGroup(int node)
{
    if (node < 0 || node >= nodeCount())
        return;
    const auto& n = m_visible.nodes[static_cast<size_t>(node)];
    if (n.isGroup()) {
        m_expanded.insert(n.groupPath);
    } else if (m_collapse) {
        // Collapse the innermost expanded group the op sits in.
        auto path = scopePath(*m_model, m_model->ops[static_cast<size_t>(n.ops.front())]);
        for (size_t depth = path.size(); depth > 0; --depth) {
            std::string prefix;
            for (size_t i = 0; i < depth; ++i)
                prefix += (i ? "/" : "") + path[i];
            if (m_expanded.erase(prefix))
                break;
        }
    } else {
        return;
    }
    relayout();
}

int GraphView::nodeAt(QPoint pos) const
{
    for (QGraphicsItem* item = itemAt(pos); item; item = item->parentItem())
        if (item->data(0).isValid())
            return item->data(0).toInt();
    return -1;
}

void GraphView::highlight(int node)
{
    if (m_selected >= 0 && m_selected < static_cast<int>(m_boxes.size()))
        m_boxes[static_cast<size_t>(m_selected)]->setPen(
            QPen(Qt::black, m_visible.nodes[static_cast<size_t>(m_selected)].isGroup() ? 1.6 : 0.6));
    m_selected = node;
    if (node >= 0 && node < static_cast<int>(m_boxes.size())) {
        m_boxes[static_cast<size_t>(node)]->setPen(QPen(palette().color(QPalette::Highlight), 3));
        ensureVisible(m_boxes[static_cast<size_t>(node)]);
    }
}

int GraphView::selectByName(const QString& type)
{
    if (!m_model)
        return -1;
    for (int i = 0; i < nodeCount(); ++i) {
        const auto& node = m_visible.nodes[static_cast<size_t>(i)];
        if (node.isGroup())
            continue;
        const QString op = QString::fromStdString(m_model->ops[static_cast<size_t>(node.ops.front())].type);
        if (!op.isEmpty() && op == type) {
            highlight(i);
            return i;
        }
    }
    return -1;
}

bool GraphView::selectModelOp(int modelOp)
{
    const int node = nodeOfModelOp(modelOp);
    if (node < 0 || node >= static_cast<int>(m_boxes.size()))
        return false;
    highlight(node);
    return true;
}

void GraphView::centerOnNode(int node)
{
    if (node >= 0 && node < static_cast<int>(m_boxes.size()) && m_boxes[static_cast<size_t>(node)])
        centerOn(m_boxes[static_cast<size_t>(node)]);
}

int GraphView::selectedModelOp() const
{
    return m_selected >= 0 && m_selected < nodeCount() ? m_visible.nodes[static_cast<size_t>(m_selected)].ops.front()
                                                       : -1;
}

void GraphView::mousePressEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->pos());
    if (node >= 0 && event->button() == Qt::LeftButton) {
        highlight(node);
        const auto& n = m_visible.nodes[static_cast<size_t>(node)];
        if (!n.isGroup()) {
            emit nodeSelected(QString::fromStdString(m_model->ops[static_cast<size_t>(n.ops.front())].type));
            emit modelOpSelected(n.ops.front());
        }
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->pos());
    if (node >= 0)
        toggleGroup(node);
    else
        QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event)
{
    if (QMenu* menu = createContextMenu(nodeAt(event->pos()), this)) {
        menu->exec(event->globalPos());
        delete menu;
    }
}

QMenu* GraphView::createContextMenu(int node, QWidget* parent)
{
    if (node < 0 || node >= nodeCount())
        return nullptr;
    const auto& n = m_visible.nodes[static_cast<size_t>(node)];
    auto* menu = new QMenu(parent);
    if (m_session && m_session->inputs() && m_session->inputs()->model == m_model) {
        std::vector<int> graphOps;
        for (int op : n.ops)
            if (const int g = m_session->graphOpOfModelOp(op); g >= 0)
                graphOps.push_back(g);
        addPinActions(menu, m_session, graphOps);
    }
    if (n.isGroup())
        menu->addAction(tr("Expand group"), this, [this, node] { toggleGroup(node); });
    else if (m_collapse && !m_expanded.empty())
        menu->addAction(tr("Collapse group"), this, [this, node] { toggleGroup(node); });
    if (menu->isEmpty()) {
        delete menu;
        return nullptr;
    }
    return menu;
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.2, event->angleDelta().y() / 120.0);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    scale(factor, factor);
}

void GraphView::drawForeground(QPainter* painter, const QRectF&)
{
    // A fixed legend in the top-left corner of the viewport (drawn in viewport coordinates).
    if (!m_model) {
        // Empty: say how to get a graph, rather than an empty grey area.
        painter->save();
        painter->resetTransform();
        painter->setPen(palette().color(QPalette::Text));
        painter->drawText(viewport()->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No model open. File > Open model... (or a file dropped on the window) reads an ONNX model, a PyTorch "
               "execution trace, or a Placescope trace's own framework ops (placescope-gui TRACE --model "
               "TRACE), and shows its op graph with the proposed placement."));
        painter->restore();
        return;
    }
    painter->save();
    painter->resetTransform();
    const QFontMetrics metrics(font());
    const int h = metrics.height();
    struct Item
    {
        QColor color;
        QString text;
        bool stripe;
    };
    const Item items[] = { { deviceColor(1), tr("GPU"), false }, { deviceColor(0), tr("CPU"), false },
        { layoutColor(DataLayout::Nchw), tr("NCHW"), true }, { layoutColor(DataLayout::Nhwc), tr("NHWC"), true },
        { kCrossEdge, tr("crosses devices"), true } };
    // One item per line: the dock is often narrow.
    int textWidth = 0;
    for (const Item& item : items)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(item.text));
    // Opaque with a frame: nodes scrolling under it must not show through the text.
    const QColor back = palette().color(QPalette::Base);
    const int lineHeight = h + 2;
    // Bottom-left corner: the layout starts at the top, where the graph's inputs are.
    const int boxHeight = lineHeight * static_cast<int>(std::size(items)) + 6;
    const int boxTop = viewport()->height() - boxHeight - 2;
    const QRect box(2, boxTop, textWidth + h + 12, boxHeight);
    painter->fillRect(box, back);
    painter->setPen(palette().color(QPalette::Mid));
    painter->drawRect(box.adjusted(0, 0, -1, -1));
    int y = boxTop + 3;
    for (const Item& item : items) {
        painter->fillRect(
            item.stripe ? QRect(6 + (h - 4) / 2 - 2, y + 2, 5, h - 4) : QRect(6, y + 2, h - 4, h - 4), item.color);
        painter->setPen(palette().color(QPalette::Text));
        painter->drawText(QPoint(6 + h, y + metrics.ascent()), item.text);
        y += lineHeight;
    }
    painter->restore();
}

} // namespace placescope::ui
