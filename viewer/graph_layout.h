// Graph layout with Graphviz (cgraph + gvc, the dot engine): a GraphSpec (nodes with the sizes
// the scene will draw them at, edges) in, node rectangles and edge splines in scene coordinates
// out. Nothing is rendered to an image: after gvLayout the coordinates are read back from the
// layout attributes. Nodes may be grouped into clusters (Graphviz `cluster_<i>` subgraphs, laid out
// as boxes around their nodes; the framework-level graph draws each fused kernel as one). Safe to
// call from any thread (Graphviz itself is not re-entrant, so calls are serialised); the layout
// worker calls it off the GUI thread.
#pragma once

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <vector>

namespace af::viewer {

struct GraphSpec {
  struct Node {
    QString name;     // node name (search, selection)
    QString type;     // op type (search, label)
    QString compute;  // ComputeType (colour)
    QString detail;   // third label line (dtype, sizes); may be empty
    QString tooltip;
    QSizeF size;             // in scene units (points)
    QColor fill;             // invalid: the ComputeType's colour
    int cluster = -1;        // index into clusters, -1: none
    int group = -1;          // what the node stands for or belongs to (a kernel index), -1: none
    bool collapsed = false;  // the node stands for a whole collapsed cluster
  };
  struct Cluster {
    QString label;  // drawn in the top left corner
    QString tooltip;
    QColor color;
    int group = -1;  // kernel index
  };
  struct Edge {
    int from = 0;
    int to = 0;
    QString tooltip;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  // Nodes of the input left out of the drawing (the symbolic-size plumbing of a model graph:
  // sym_size and SymInt nodes feed every view and would tie the whole graph together).
  int hidden = 0;
};

struct GraphLayout {
  struct Edge {
    std::vector<QPointF> spline;  // cubic Bezier: p0, then (c1, c2, p) triples
    bool has_arrow = false;
    QPointF arrow_tip;  // where the arrow head ends (on the target node)
  };
  std::vector<QRectF> nodes;     // same order as the spec
  std::vector<Edge> edges;       // same order as the spec
  std::vector<QRectF> clusters;  // same order as the spec
  QRectF bounds;
  QString error;   // set when Graphviz failed
  double ms = 0;   // layout time
  QString engine;  // "dot" or "layered"

  bool ok() const { return error.isEmpty(); }
};

GraphLayout LayoutGraph(const GraphSpec& spec);

// Which engine lays a graph out: Graphviz dot (the best drawing, but its crossing minimisation
// and placement grow much faster than linearly), our layered engine (layered_layout.h, linear),
// or dot up to kDotNodeLimit nodes and kDotEdgeLimit edges and the layered engine beyond.
enum class LayoutEngine { kAuto = 0, kDot = 1, kLayered = 2 };
constexpr int kDotNodeLimit = 400;
constexpr int kDotEdgeLimit = 800;
LayoutEngine ChooseEngine(const GraphSpec& spec, LayoutEngine wanted);
GraphLayout LayoutWith(const GraphSpec& spec, LayoutEngine engine);

// The DOT text handed to Graphviz (node ids n<i>, sizes in inches, no user text at all).
std::string LayoutDot(const GraphSpec& spec);

}  // namespace af::viewer
