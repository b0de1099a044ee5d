// The graph scene: turns a graph (a kernel's hint, normalised or impl graph, or a run's kernels)
// into a GraphSpec whose node sizes fit their labels, and a laid-out spec into QGraphicsItems:
// boxes filled by ComputeType, Bezier edges with arrow heads. It highlights the selected node and
// search matches, and reports clicks on nodes; it never changes the selection itself.
#pragma once

#include <QGraphicsScene>
#include <QString>
#include <QStringList>
#include <vector>

#include "graph_layout.h"
#include "run_data.h"

namespace af::ir {
struct Graph;
}

namespace af::viewer {

class NodeItem;

class GraphScene : public QGraphicsScene {
  Q_OBJECT

 public:
  explicit GraphScene(QObject* parent = nullptr);

  // A spec of an IR graph: one box per node (name, op type, output dtype and sizes), one edge
  // per input.
  static GraphSpec SpecForGraph(const ir::Graph& g);
  // A spec of a run's kernels: one box per kernel (graph name, kernel name, chosen case or
  // refusal code), green when compiled, red when refused; no edges.
  static GraphSpec SpecForKernels(const Run& run);

  void setGraph(const GraphSpec& spec, const GraphLayout& layout);
  // Shows a line of text instead of a graph ("laying out…", an error).
  void showMessage(const QString& text);

  const GraphSpec& spec() const { return spec_; }
  int nodeCount() const { return static_cast<int>(items_.size()); }
  bool hasGraph() const { return !items_.empty(); }
  QString message() const { return message_; }

  // Highlights the node with this name (none for an empty name); returns its rectangle.
  QRectF setSelectedNode(const QString& name);
  QString selectedNode() const { return selected_; }
  // Marks every node whose name or op type contains `text` (case-insensitive); returns their
  // names in graph order. An empty text clears the marks.
  QStringList search(const QString& text);
  QRectF nodeRect(const QString& name) const;
  // The whole graph with a small margin.
  QRectF graphRect() const;

 signals:
  void nodeClicked(const QString& name);  // empty: a click on the background

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  GraphSpec spec_;
  std::vector<NodeItem*> items_;
  QString selected_;
  QString message_;
  QPoint press_pos_;
  bool background_press_ = false;
};

}  // namespace af::viewer
