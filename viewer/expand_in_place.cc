#include "expand_in_place.h"

#include <QElapsedTimer>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "layered_layout.h"

namespace af::viewer {
namespace {

// Where a point of the old picture goes: below the box's row down by dy, beside the box (in its
// row) outwards by dx, above it nowhere.
struct Shift {
  QRectF box;
  double dx = 0;
  double dy = 0;

  QPointF operator()(QPointF p) const {
    if (p.y() > box.bottom()) return {p.x(), p.y() + dy};
    if (p.y() >= box.top()) return {p.x() + (p.x() >= box.center().x() ? dx : -dx), p.y()};
    return p;
  }
  QRectF operator()(const QRectF& r) const {
    const QPointF c = (*this)(r.center());
    return r.translated(c - r.center());
  }
};

struct Inner {
  GraphSpec spec;
  std::vector<int> members;  // after-spec node per inner node
  std::vector<int> edges;    // after-spec edge per inner edge
  std::vector<int> local;    // after-spec node -> inner node, -1: outside
  GraphLayout layout;
};

Inner LayOutMembers(const GraphSpec& after, int cluster) {
  Inner in;
  in.local.assign(after.nodes.size(), -1);
  for (std::size_t v = 0; v < after.nodes.size(); ++v) {
    if (after.nodes[v].cluster != cluster) continue;
    in.local[v] = static_cast<int>(in.members.size());
    in.members.push_back(static_cast<int>(v));
    GraphSpec::Node n = after.nodes[v];
    n.cluster = -1;
    in.spec.nodes.push_back(std::move(n));
  }
  for (std::size_t i = 0; i < after.edges.size(); ++i) {
    const auto& e = after.edges[i];
    const int a = in.local[static_cast<std::size_t>(e.from)];
    const int b = in.local[static_cast<std::size_t>(e.to)];
    if (a < 0 || b < 0) continue;
    in.spec.edges.push_back({a, b, {}});
    in.edges.push_back(static_cast<int>(i));
  }
  in.layout = LayoutWith(in.spec, LayoutEngine::kAuto);  // small: dot draws it best
  return in;
}

}  // namespace

std::optional<GraphLayout> ExpandInPlace(const GraphSpec& before, const GraphLayout& layout,
                                         const GraphSpec& after, int group) {
  QElapsedTimer timer;
  timer.start();
  if (!layout.ok() || layout.nodes.size() != before.nodes.size() ||
      layout.edges.size() != before.edges.size())
    return std::nullopt;
  int box = -1;
  std::map<QString, int> old_index;
  for (std::size_t v = 0; v < before.nodes.size(); ++v) {
    if (before.nodes[v].collapsed && before.nodes[v].group == group) box = static_cast<int>(v);
    if (!old_index.emplace(before.nodes[v].name, static_cast<int>(v)).second) return std::nullopt;
  }
  int cluster = -1;
  for (std::size_t c = 0; c < after.clusters.size(); ++c)
    if (after.clusters[c].group == group) cluster = static_cast<int>(c);
  if (box < 0 || cluster < 0) return std::nullopt;

  Inner in = LayOutMembers(after, cluster);
  if (in.members.empty() || !in.layout.ok()) return std::nullopt;
  const QRectF b = layout.nodes[static_cast<std::size_t>(box)];
  const QSizeF frame_size(in.layout.bounds.width() + 2 * kClusterPad,
                          in.layout.bounds.height() + kClusterTop + kClusterPad);
  Shift shift{b, std::max(0.0, (frame_size.width() - b.width()) / 2),
              std::max(0.0, frame_size.height() - b.height())};
  const QRectF frame(b.center().x() - frame_size.width() / 2, b.top(), frame_size.width(),
                     frame_size.height());

  GraphLayout out;
  out.engine = layout.engine;
  out.nodes.resize(after.nodes.size());
  out.edges.resize(after.edges.size());
  out.clusters.resize(after.clusters.size());
  // Every other frame keeps its place relative to the nodes around it; one that straddles the
  // box's row would be cut in two by the shift.
  for (std::size_t c = 0; c < after.clusters.size(); ++c) {
    if (static_cast<int>(c) == cluster) continue;
    int old_cluster = -1;
    for (std::size_t k = 0; k < before.clusters.size(); ++k)
      if (before.clusters[k].group == after.clusters[c].group) old_cluster = static_cast<int>(k);
    if (old_cluster < 0 || static_cast<std::size_t>(old_cluster) >= layout.clusters.size())
      return std::nullopt;
    const QRectF r = layout.clusters[static_cast<std::size_t>(old_cluster)];
    if (r.top() <= b.bottom() && r.bottom() > b.bottom()) return std::nullopt;
    out.clusters[c] = shift(r);
  }
  out.clusters[static_cast<std::size_t>(cluster)] = frame;
  const QPointF origin = frame.topLeft() + QPointF(kClusterPad, kClusterTop);
  for (std::size_t v = 0; v < after.nodes.size(); ++v) {
    if (const int k = in.local[v]; k >= 0) {
      out.nodes[v] = in.layout.nodes[static_cast<std::size_t>(k)].translated(origin);
      continue;
    }
    const auto it = old_index.find(after.nodes[v].name);
    if (it == old_index.end() || it->second == box) return std::nullopt;
    out.nodes[v] = shift(layout.nodes[static_cast<std::size_t>(it->second)]);
  }
  for (std::size_t k = 0; k < in.edges.size(); ++k) {
    GraphLayout::Edge le = in.layout.edges[k];
    for (QPointF& p : le.spline)
      p += origin;
    le.arrow_tip += origin;
    out.edges[static_cast<std::size_t>(in.edges[k])] = std::move(le);
  }
  // The other edges: the old route between the same ends (the box standing for the members).
  std::map<std::pair<int, int>, int> old_edge;
  for (std::size_t i = 0; i < before.edges.size(); ++i)
    old_edge.emplace(std::pair{before.edges[i].from, before.edges[i].to}, static_cast<int>(i));
  auto old_end = [&](int v) {
    if (in.local[static_cast<std::size_t>(v)] >= 0) return box;
    return old_index.at(after.nodes[static_cast<std::size_t>(v)].name);
  };
  for (std::size_t i = 0; i < after.edges.size(); ++i) {
    const auto& e = after.edges[i];
    const bool from_in = in.local[static_cast<std::size_t>(e.from)] >= 0;
    const bool to_in = in.local[static_cast<std::size_t>(e.to)] >= 0;
    if (from_in && to_in) continue;
    const auto it = old_edge.find({old_end(e.from), old_end(e.to)});
    if (it == old_edge.end()) return std::nullopt;
    GraphLayout::Edge le = layout.edges[static_cast<std::size_t>(it->second)];
    for (QPointF& p : le.spline)
      p = shift(p);
    le.arrow_tip = shift(le.arrow_tip);
    const QRectF& from = out.nodes[static_cast<std::size_t>(e.from)];
    const QRectF& to = out.nodes[static_cast<std::size_t>(e.to)];
    if (from_in && !le.spline.empty())
      le.spline.front() = QPointF(from.center().x(), from.bottom());
    if (to_in && !le.spline.empty()) {
      le.arrow_tip = QPointF(to.center().x(), to.top());
      le.spline.back() = le.arrow_tip - QPointF(0, kArrowLength);
    }
    out.edges[i] = std::move(le);
  }
  // Nodes pushed aside may end left of 0: the picture stays where it was (the scene takes any
  // rectangle), so the bounds may start there.
  QRectF all = frame;
  for (const QRectF& r : out.nodes)
    all = all.united(r);
  for (const QRectF& r : out.clusters)
    if (!r.isNull()) all = all.united(r);
  out.bounds =
      all.united(layout.bounds).adjusted(-kClusterPad, -kClusterPad, kClusterPad, kClusterPad);
  out.ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return out;
}

}  // namespace af::viewer
