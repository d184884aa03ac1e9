// SPDX-License-Identifier: MIT
#pragma once

#include "ui/graph/graph_layout.h"
#include "ui/graphview/graph_collapse.h"
#include "ui/jobs/job_tracker.h"

#include <QGraphicsView>

#include <memory>
#include <set>

class QGraphicsPathItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;

class QMenu;

namespace placescope {
struct ModelGraph;
}

namespace placescope::ui {

class PlacementSession;

// The op graph of a ModelGraph (weights folded away), laid out by Graphviz dot in a background job (a
// generation counter drops stale layouts) and drawn in a QGraphicsScene. With a PlacementSession attached,
// nodes are coloured by their device in the current proposal, edges that cross devices are drawn red with
// their bytes, and the context menu pins ops (through the session's undo stack). A left stripe marks the
// layout of the op's first 4-D input (NCHW / NHWC). Graphs over kCollapseThreshold ops start collapsed by
// scope; double-click a group to expand it, or an op to collapse its group again. UI thread only.
class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    // Follows a session: its model is shown (and re-laid out) when it changes, its plan recolours the nodes.
    void setSession(PlacementSession* session);
    // Reads and shows a model without placement (standalone use).
    void openModel(const QString& path);
    void setModel(std::shared_ptr<const ModelGraph> model);
    bool waitForLayout(int timeoutMs);
    bool busy() const { return m_job.isRunning(); }
    QString lastError() const { return m_error; }

    int nodeCount() const { return static_cast<int>(m_visible.nodes.size()); }
    const VisibleGraph& visibleGraph() const { return m_visible; }
    int nodeOfModelOp(int modelOp) const;
    QColor nodeColor(int node) const;
    bool isCollapsed() const { return m_collapse; }
    // Expands a group node one level (or collapses an op's innermost expanded group); re-lays out.
    void toggleGroup(int node);
    int crossDeviceEdgeCount() const { return m_crossEdges; }
    // A node's context menu: pin its ops (disabled where they have no kernel), expand or collapse its group.
    // Null for no node or an empty menu; the caller owns it.
    QMenu* createContextMenu(int node, QWidget* parent);

    // Selects the first node whose op type is exactly `type` ("Conv"); -1 when none.
    int selectByName(const QString& type);
    // Selects a model op's node (table -> graph) without emitting modelOpSelected; false when not shown.
    bool selectModelOp(int modelOp);
    int selectedNode() const { return m_selected; }
    // Scrolls so that a node is in the middle of the view (--select-op, screenshots).
    void centerOnNode(int node);
    int selectedModelOp() const;
    // The model shown (null before one is read).
    const ModelGraph* model() const { return m_model.get(); }

signals:
    void layoutFinished(bool ok);
    void nodeSelected(QString opType); // a click on an op node (graph -> timeline, through the op's occurrences)
    void modelOpSelected(int modelOp); // graph -> placement table

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void relayout();
    void buildScene(const GraphLayout& layout);
    void recolour();
    int nodeDevice(int node) const;
    int nodeAt(QPoint pos) const;
    void highlight(int node);
    QString nodeTooltip(int node) const;

    struct EdgeItem
    {
        QGraphicsPathItem* path = nullptr;
        QGraphicsSimpleTextItem* label = nullptr;
        QPointF middle;
    };

    PlacementSession* m_session = nullptr;
    std::shared_ptr<const ModelGraph> m_model;
    VisibleGraph m_visible;
    std::set<std::string> m_expanded;
    bool m_collapse = false;
    std::vector<QGraphicsRectItem*> m_boxes;
    std::vector<QGraphicsRectItem*> m_layoutMarks;
    std::vector<EdgeItem> m_edges;
    int m_selected = -1;
    int m_crossEdges = 0;
    QString m_error;
    JobTracker m_job { this }; // reading the model, then its layout
};

} // namespace placescope::ui
