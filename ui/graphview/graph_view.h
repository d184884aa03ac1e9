// SPDX-License-Identifier: MIT
#pragma once

#include "ui/graph/graph_layout.h"

#include <QGraphicsView>

#include <memory>

class QUndoStack;

namespace placescope::ui {

// The op graph: an ONNX model read and laid out by Graphviz dot in a background job (a generation counter
// drops stale layouts), drawn in a QGraphicsScene. Nodes are coloured by device; a context menu pins a node
// to CPU or GPU through a QUndoStack. UI thread only.
class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    void openModel(const QString& path);
    bool waitForLayout(int timeoutMs);
    QString lastError() const { return m_error; }
    int nodeCount() const { return static_cast<int>(m_graph.nodes.size()); }
    int nodeGroup(int node) const { return m_graph.nodes[static_cast<size_t>(node)].group; }
    void setNodeGroup(int node, int group); // recolours; used by the undo commands
    void pinNode(int node, int group);      // undoable
    QUndoStack* undoStack() const { return m_undo; }
    // Selects the first node whose op type matches the name (timeline -> graph); -1 when none.
    int selectByName(const QString& name);
    int selectedNode() const { return m_selected; }

signals:
    void layoutFinished(bool ok);
    void nodeSelected(QString opType);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void buildScene(const GraphLayout& layout);
    int nodeAt(QPoint pos) const;
    void highlight(int node);

    GraphInput m_graph;
    std::vector<class QGraphicsRectItem*> m_boxes;
    QUndoStack* m_undo = nullptr;
    uint64_t m_generation = 0;
    int m_selected = -1;
    QString m_error;
    bool m_busy = false;
};

} // namespace placescope::ui
