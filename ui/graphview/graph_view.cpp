// SPDX-License-Identifier: MIT
#include "ui/graphview/graph_view.h"

#include "ui/graph/onnx_graph_reader.h"

#include <QContextMenuEvent>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QMenu>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrent>

namespace placescope::ui {
namespace {

QColor groupColor(int group) { return group == 1 ? QColor(120, 160, 230) : QColor(130, 200, 130); }

class PinCommand : public QUndoCommand
{
public:
    PinCommand(GraphView* view, int node, int group)
        : m_view(view), m_node(node), m_from(view->nodeGroup(node)), m_to(group)
    {
        setText(QString("Pin op %1 to %2").arg(node).arg(group == 1 ? "CPU" : "GPU"));
    }
    void redo() override { m_view->setNodeGroup(m_node, m_to); }
    void undo() override { m_view->setNodeGroup(m_node, m_from); }

private:
    GraphView* m_view;
    int m_node, m_from, m_to;
};

struct LayoutJob
{
    std::string error;
    GraphInput graph;
    GraphLayout layout;
};

} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), m_undo(new QUndoStack(this))
{
    setScene(new QGraphicsScene(this));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHint(QPainter::Antialiasing);
}

void GraphView::openModel(const QString& path)
{
    const uint64_t generation = ++m_generation;
    m_busy = true;
    m_error.clear();
    auto* watcher = new QFutureWatcher<LayoutJob>(this);
    connect(watcher, &QFutureWatcher<LayoutJob>::finished, this, [this, watcher, generation] {
        LayoutJob job = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer model was opened meanwhile
        m_busy = false;
        m_error = QString::fromStdString(job.error);
        if (job.error.empty()) {
            m_graph = std::move(job.graph);
            m_undo->clear();
            buildScene(job.layout);
        }
        emit layoutFinished(job.error.empty());
    });
    watcher->setFuture(QtConcurrent::run([file = path.toStdString()] {
        LayoutJob job;
        auto graph = readOnnxGraph(file);
        if (!graph.isOk()) {
            job.error = graph.status().message();
            return job;
        }
        auto layout = layoutGraph(*graph);
        if (!layout.isOk()) {
            job.error = layout.status().message();
            return job;
        }
        job.graph = std::move(graph).value();
        job.layout = std::move(layout).value();
        return job;
    }));
}

bool GraphView::waitForLayout(int timeoutMs)
{
    if (!m_busy)
        return m_error.isEmpty();
    QEventLoop loop;
    bool ok = false;
    connect(this, &GraphView::layoutFinished, &loop, [&](bool success) {
        ok = success;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return ok;
}

void GraphView::buildScene(const GraphLayout& layout)
{
    scene()->clear();
    m_boxes.clear();
    m_selected = -1;
    QPen edgePen(palette().color(QPalette::Text));
    edgePen.setWidthF(0.8);
    for (const auto& edge : layout.edges) {
        if (edge.points.empty())
            continue;
        QPainterPath path(QPointF(edge.points[0].first, edge.points[0].second));
        for (size_t i = 1; i + 2 < edge.points.size(); i += 3)
            path.cubicTo(edge.points[i].first, edge.points[i].second, edge.points[i + 1].first, edge.points[i + 1].second,
                         edge.points[i + 2].first, edge.points[i + 2].second);
        scene()->addPath(path, edgePen);
    }
    for (size_t i = 0; i < layout.nodes.size(); ++i) {
        const auto& box = layout.nodes[i];
        auto* rect = scene()->addRect(box.x - box.width / 2, box.y - box.height / 2, box.width, box.height,
                                      QPen(Qt::black, 0.6), groupColor(m_graph.nodes[i].group));
        rect->setData(0, static_cast<int>(i));
        auto* text = scene()->addSimpleText(QString::fromStdString(m_graph.nodes[i].label));
        text->setParentItem(rect);
        text->setPos(box.x - text->boundingRect().width() / 2, box.y - text->boundingRect().height() / 2);
        m_boxes.push_back(rect);
    }
    scene()->setSceneRect(0, 0, layout.width, layout.height);
    // Start on the graph's inputs at a readable scale: at most a 1.2:1 tall slice of a long graph.
    fitInView(QRectF(0, 0, std::max(layout.width, 1.0), std::min(layout.height, std::max(layout.width, 300.0) * 1.2)), Qt::KeepAspectRatio);
}

void GraphView::setNodeGroup(int node, int group)
{
    if (node < 0 || node >= nodeCount())
        return;
    m_graph.nodes[static_cast<size_t>(node)].group = group;
    m_boxes[static_cast<size_t>(node)]->setBrush(groupColor(group));
}

void GraphView::pinNode(int node, int group)
{
    if (node >= 0 && node < nodeCount() && nodeGroup(node) != group)
        m_undo->push(new PinCommand(this, node, group));
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
    if (m_selected >= 0)
        m_boxes[static_cast<size_t>(m_selected)]->setPen(QPen(Qt::black, 0.6));
    m_selected = node;
    if (node >= 0) {
        m_boxes[static_cast<size_t>(node)]->setPen(QPen(palette().color(QPalette::Highlight), 3));
        ensureVisible(m_boxes[static_cast<size_t>(node)]);
    }
}

int GraphView::selectByName(const QString& name)
{
    for (int i = 0; i < nodeCount(); ++i) {
        const QString op = QString::fromStdString(m_graph.nodes[static_cast<size_t>(i)].opType);
        if (!op.isEmpty() && name.contains(op, Qt::CaseInsensitive)) {
            highlight(i);
            return i;
        }
    }
    return -1;
}

void GraphView::mousePressEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->pos());
    if (node >= 0 && event->button() == Qt::LeftButton) {
        highlight(node);
        emit nodeSelected(QString::fromStdString(m_graph.nodes[static_cast<size_t>(node)].opType));
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event)
{
    const int node = nodeAt(event->pos());
    if (node < 0)
        return;
    QMenu menu(this);
    menu.addAction(tr("Pin to CPU"), this, [this, node] { pinNode(node, 1); });
    menu.addAction(tr("Pin to GPU"), this, [this, node] { pinNode(node, 0); });
    menu.exec(event->globalPos());
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.2, event->angleDelta().y() / 120.0);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    scale(factor, factor);
}

} // namespace placescope::ui
