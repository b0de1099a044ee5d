// The graph scene: turns a graph (a kernel's hint, normalised or impl graph, or a run's kernels)
// into a GraphSpec whose node sizes fit their labels, and a laid-out spec into QGraphicsItems:
// boxes filled by ComputeType, Bezier edges with arrow heads, clusters as labelled frames behind
// their nodes. It highlights the selected node, cluster and search matches, and reports clicks
// and double-clicks on nodes and clusters; it never changes the selection itself.
#pragma once

#include <QGraphicsScene>
#include <QSet>
#include <QString>
#include <QStringList>
#include <vector>

#include "graph_layout.h"
#include "model_graphs.h"
#include "run_data.h"

namespace af::ir {
struct Graph;
}

namespace af::viewer {

class ClusterItem;
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
  // A spec of a front-end run's model graph (report model_nodes): one box per op, placeholder and
  // output; each fused kernel a coloured cluster of its ops (group = kernel index), or one box
  // when its index is in `collapsed`; ops left outside every kernel show their fallback code.
  static GraphSpec SpecForModelGraph(const Run& run, const QSet<int>& collapsed);
  // The same for model `model` of the run (model_graphs.h) with `grouping`'s groups as clusters
  // (group = index into ModelGroups); symbolic-size nodes are left out (spec.hidden counts them).
  static GraphSpec SpecForModelGraph(const Run& run, int model, Grouping grouping,
                                     const QSet<int>& collapsed);
  // The same from a model and its groups already at hand (the panel computes them once).
  static GraphSpec SpecForModelGraph(const Run& run, const ModelGraph& model,
                                     const std::vector<ModelGroup>& groups, Grouping grouping,
                                     const QSet<int>& collapsed);
  static bool HasModelGraph(const Run& run);

  void setGraph(const GraphSpec& spec, const GraphLayout& layout);
  // Shows a line of text instead of a graph ("laying out…", an error).
  void showMessage(const QString& text);

  const GraphSpec& spec() const { return spec_; }
  int nodeCount() const { return static_cast<int>(items_.size()); }
  int clusterCount() const { return static_cast<int>(clusters_.size()); }
  bool hasGraph() const { return !items_.empty(); }
  QString message() const { return message_; }

  // Highlights the node with this name (none for an empty name); returns its rectangle.
  QRectF setSelectedNode(const QString& name);
  QString selectedNode() const { return selected_; }
  // Highlights the cluster (and the collapsed box) of this group, -1: none.
  void setSelectedGroup(int group);
  int selectedGroup() const { return selected_group_; }
  // Marks every node whose name or op type contains `text` (case-insensitive); returns their
  // names in graph order. An empty text clears the marks.
  QStringList search(const QString& text);
  QRectF nodeRect(const QString& name) const;
  // The whole graph with a small margin.
  QRectF graphRect() const;

 signals:
  void nodeClicked(const QString& name);  // empty: a click on the background
  void clusterClicked(int group);         // a click on a cluster's frame (not on a node)
  void nodeDoubleClicked(const QString& name);
  void clusterDoubleClicked(int group);

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  GraphSpec spec_;
  std::vector<NodeItem*> items_;
  std::vector<ClusterItem*> clusters_;
  QString selected_;
  int selected_group_ = -1;
  QString message_;
  QPoint press_pos_;
  bool background_press_ = false;
};

}  // namespace af::viewer
