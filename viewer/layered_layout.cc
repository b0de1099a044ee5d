#include "layered_layout.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace af::viewer {
namespace {

constexpr double kNodeSep = 18;      // horizontal gap between neighbours in a rank
constexpr double kRankSep = 26;      // vertical gap between ranks
constexpr int kSweeps = 4;           // barycenter sweeps (each down and up)
constexpr int kMaxVirtualSpan = 48;  // longer edges are drawn straight, without rank points

// One entry of a rank: a spec node, or a point of a long edge (node = -1, edge >= 0).
struct Slot {
  int node = -1;
  int edge = -1;
  double width = 0;
  double height = 0;
  double x = 0;           // centre
  double key = 0;         // barycenter while ordering
  std::vector<int> up;    // slot indices (global) in the rank above
  std::vector<int> down;  // slot indices (global) in the rank below
  int rank = 0;
  int pos = 0;  // index within its rank
};

class Layered {
 public:
  explicit Layered(const GraphSpec& spec) : spec_(spec) {}

  GraphLayout Run();

 private:
  void Rank();
  void BuildSlots();
  void Order();
  void SortRank(std::vector<int>& rank, bool use_up);
  void Place();
  void PlaceRank(const std::vector<int>& rank, bool use_up);
  GraphLayout Emit() const;

  const GraphSpec& spec_;
  std::vector<int> rank_;                      // per spec node
  std::vector<std::pair<int, int>> dag_;       // edges oriented so that rank grows along them
  std::vector<Slot> slots_;                    // nodes first (slot i = node i), then edge points
  std::vector<std::vector<int>> ranks_;        // slot indices per rank, in order
  std::vector<std::vector<int>> edge_points_;  // per spec edge: its point slots, top to bottom
  std::vector<double> rank_y_;                 // top of each rank
  std::vector<double> rank_h_;
};

// Longest-path ranks over the edges with cycles broken (edges that close a cycle in a DFS are
// turned around), then every node pulled down to just above its highest consumer.
void Layered::Rank() {
  const int n = static_cast<int>(spec_.nodes.size());
  std::vector<std::vector<int>> out(static_cast<std::size_t>(n));
  for (const auto& e : spec_.edges)
    if (e.from != e.to) out[static_cast<std::size_t>(e.from)].push_back(e.to);
  // Iterative DFS: 0 unvisited, 1 on the stack, 2 done.
  std::vector<std::uint8_t> state(static_cast<std::size_t>(n), 0);
  std::vector<std::pair<int, std::size_t>> stack;
  for (int s = 0; s < n; ++s) {
    if (state[static_cast<std::size_t>(s)] != 0) continue;
    stack.emplace_back(s, 0);
    state[static_cast<std::size_t>(s)] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const auto& succ = out[static_cast<std::size_t>(v)];
      if (next == succ.size()) {
        state[static_cast<std::size_t>(v)] = 2;
        stack.pop_back();
        continue;
      }
      const int w = succ[next++];
      if (state[static_cast<std::size_t>(w)] == 1) {
        dag_.emplace_back(w, v);  // closes a cycle: reversed
      } else {
        dag_.emplace_back(v, w);
        if (state[static_cast<std::size_t>(w)] == 0) {
          state[static_cast<std::size_t>(w)] = 1;
          stack.emplace_back(w, 0);
        }
      }
    }
  }
  std::vector<std::vector<int>> succ(static_cast<std::size_t>(n));
  std::vector<int> indeg(static_cast<std::size_t>(n), 0);
  for (const auto& [a, b] : dag_) {
    succ[static_cast<std::size_t>(a)].push_back(b);
    ++indeg[static_cast<std::size_t>(b)];
  }
  rank_.assign(static_cast<std::size_t>(n), 0);
  std::vector<int> queue;
  for (int v = 0; v < n; ++v)
    if (indeg[static_cast<std::size_t>(v)] == 0) queue.push_back(v);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int v = queue[q];
    for (int w : succ[static_cast<std::size_t>(v)]) {
      rank_[static_cast<std::size_t>(w)] =
          std::max(rank_[static_cast<std::size_t>(w)], rank_[static_cast<std::size_t>(v)] + 1);
      if (--indeg[static_cast<std::size_t>(w)] == 0) queue.push_back(w);
    }
  }
  // As late as the consumers allow, in reverse topological order: a weight and the views of it
  // sit just above the op that reads them, not at the top of the graph.
  for (std::size_t q = queue.size(); q-- > 0;) {
    const int v = queue[q];
    const auto& ws = succ[static_cast<std::size_t>(v)];
    if (ws.empty()) continue;
    int lowest = std::numeric_limits<int>::max();
    for (int w : ws)
      lowest = std::min(lowest, rank_[static_cast<std::size_t>(w)]);
    rank_[static_cast<std::size_t>(v)] = std::max(rank_[static_cast<std::size_t>(v)], lowest - 1);
  }
}

// One slot per node and one per rank crossed by a long edge; each slot knows its neighbours in
// the ranks above and below.
void Layered::BuildSlots() {
  const int n = static_cast<int>(spec_.nodes.size());
  int max_rank = 0;
  for (int r : rank_)
    max_rank = std::max(max_rank, r);
  ranks_.assign(static_cast<std::size_t>(max_rank) + 1, {});
  slots_.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    Slot& s = slots_[static_cast<std::size_t>(v)];
    const auto& node = spec_.nodes[static_cast<std::size_t>(v)];
    s.node = v;
    s.width = node.size.width();
    s.height = node.size.height();
    s.rank = rank_[static_cast<std::size_t>(v)];
  }
  // Nodes enter their ranks in spec order (the input's own order is a good first guess).
  for (int v = 0; v < n; ++v)
    ranks_[static_cast<std::size_t>(rank_[static_cast<std::size_t>(v)])].push_back(v);
  edge_points_.assign(spec_.edges.size(), {});
  auto link = [this](int a, int b) {
    slots_[static_cast<std::size_t>(a)].down.push_back(b);
    slots_[static_cast<std::size_t>(b)].up.push_back(a);
  };
  for (std::size_t i = 0; i < spec_.edges.size(); ++i) {
    int a = spec_.edges[i].from;
    int b = spec_.edges[i].to;
    if (a == b) continue;
    if (rank_[static_cast<std::size_t>(a)] > rank_[static_cast<std::size_t>(b)]) std::swap(a, b);
    const int ra = rank_[static_cast<std::size_t>(a)];
    const int rb = rank_[static_cast<std::size_t>(b)];
    if (ra == rb) continue;
    if (rb - ra > kMaxVirtualSpan) continue;  // drawn straight
    int prev = a;
    for (int r = ra + 1; r < rb; ++r) {
      Slot p;
      p.edge = static_cast<int>(i);
      p.rank = r;
      p.width = 2;
      const int id = static_cast<int>(slots_.size());
      slots_.push_back(p);
      ranks_[static_cast<std::size_t>(r)].push_back(id);
      edge_points_[i].push_back(id);
      link(prev, id);
      prev = id;
    }
    link(prev, b);
  }
}

// Orders one rank by the mean position of its neighbours above (or below); slots without such
// neighbours keep their place. (Clusters never reach this class: WithClusters lays each out on
// its own and hands the graph around it one box per cluster.)
void Layered::SortRank(std::vector<int>& rank, bool use_up) {
  for (std::size_t i = 0; i < rank.size(); ++i) {
    Slot& s = slots_[static_cast<std::size_t>(rank[i])];
    const auto& nb = use_up ? s.up : s.down;
    if (nb.empty()) {
      s.key = static_cast<double>(i);
      continue;
    }
    double sum = 0;
    for (int o : nb)
      sum += slots_[static_cast<std::size_t>(o)].pos;
    s.key = sum / static_cast<double>(nb.size());
  }
  std::stable_sort(rank.begin(), rank.end(), [this](int a, int b) {
    return slots_[static_cast<std::size_t>(a)].key < slots_[static_cast<std::size_t>(b)].key;
  });
  for (std::size_t i = 0; i < rank.size(); ++i)
    slots_[static_cast<std::size_t>(rank[i])].pos = static_cast<int>(i);
}

void Layered::Order() {
  for (auto& rank : ranks_)
    for (std::size_t i = 0; i < rank.size(); ++i)
      slots_[static_cast<std::size_t>(rank[i])].pos = static_cast<int>(i);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    for (std::size_t r = 1; r < ranks_.size(); ++r)
      SortRank(ranks_[r], true);
    for (std::size_t r = ranks_.size(); r-- > 1;)
      SortRank(ranks_[r - 1], false);
  }
}

// The priority method: each slot wants the median x of its neighbours above (or below); slots
// are served in order of priority (points of long edges first, so they run straight, then by how
// many neighbours they have), each moving as close to its wish as the slots of higher or equal
// priority allow and pushing lower ones aside. The rank's order never changes.
void Layered::PlaceRank(const std::vector<int>& rank, bool use_up) {
  const std::size_t n = rank.size();
  if (n == 0) return;
  std::vector<double> want(n);
  std::vector<int> prio(n);
  std::vector<double> x(n);
  std::vector<double> nb_x;
  for (std::size_t i = 0; i < n; ++i) {
    const Slot& s = slots_[static_cast<std::size_t>(rank[i])];
    const auto& nb = use_up ? s.up : s.down;
    x[i] = s.x;
    prio[i] = s.node < 0 ? std::numeric_limits<int>::max() : static_cast<int>(nb.size());
    if (nb.empty()) {
      want[i] = s.x;
      continue;
    }
    nb_x.clear();
    for (int o : nb)
      nb_x.push_back(slots_[static_cast<std::size_t>(o)].x);
    std::sort(nb_x.begin(), nb_x.end());
    const std::size_t m = nb_x.size();
    want[i] = m % 2 == 1 ? nb_x[m / 2] : (nb_x[m / 2 - 1] + nb_x[m / 2]) / 2;
  }
  auto gap = [&](std::size_t a, std::size_t b) {
    return (slots_[static_cast<std::size_t>(rank[a])].width +
            slots_[static_cast<std::size_t>(rank[b])].width) /
               2 +
           kNodeSep;
  };
  std::vector<std::size_t> by_prio(n);
  std::iota(by_prio.begin(), by_prio.end(), 0);
  std::stable_sort(by_prio.begin(), by_prio.end(),
                   [&](std::size_t a, std::size_t b) { return prio[a] > prio[b]; });
  for (std::size_t k : by_prio) {
    if (want[k] > x[k]) {
      // Room to the right: up to the first slot that may not be pushed.
      double limit = want[k];
      double need = 0;
      for (std::size_t j = k + 1; j < n; ++j) {
        need += gap(j - 1, j);
        if (prio[j] >= prio[k]) {
          limit = std::min(limit, x[j] - need);
          break;
        }
      }
      x[k] = std::max(x[k], limit);
      for (std::size_t j = k + 1; j < n; ++j)
        x[j] = std::max(x[j], x[j - 1] + gap(j - 1, j));
    } else if (want[k] < x[k]) {
      double limit = want[k];
      double need = 0;
      for (std::size_t j = k; j-- > 0;) {
        need += gap(j, j + 1);
        if (prio[j] >= prio[k]) {
          limit = std::max(limit, x[j] + need);
          break;
        }
      }
      x[k] = std::min(x[k], limit);
      for (std::size_t j = k; j-- > 0;)
        x[j] = std::min(x[j], x[j + 1] - gap(j, j + 1));
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    slots_[static_cast<std::size_t>(rank[i])].x = x[i];
}

void Layered::Place() {
  // Start packed and centred on x = 0 in order, then follow the neighbours: down, up, down, up.
  for (const auto& rank : ranks_) {
    double width = 0;
    for (int id : rank)
      width += slots_[static_cast<std::size_t>(id)].width + kNodeSep;
    double x = -width / 2;
    for (int id : rank) {
      Slot& s = slots_[static_cast<std::size_t>(id)];
      s.x = x + s.width / 2;
      x += s.width + kNodeSep;
    }
  }
  for (int pass = 0; pass < 4; ++pass) {
    if (pass % 2 == 0) {
      for (std::size_t r = 1; r < ranks_.size(); ++r)
        PlaceRank(ranks_[r], true);
    } else {
      for (std::size_t r = ranks_.size(); r-- > 1;)
        PlaceRank(ranks_[r - 1], false);
    }
  }
  rank_y_.assign(ranks_.size(), 0);
  rank_h_.assign(ranks_.size(), 0);
  double y = 0;
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    double h = 4;
    for (int id : ranks_[r])
      h = std::max(h, slots_[static_cast<std::size_t>(id)].height);
    rank_y_[r] = y;
    rank_h_[r] = h;
    y += h + kRankSep;
  }
}

GraphLayout Layered::Emit() const {
  GraphLayout out;
  out.nodes.resize(spec_.nodes.size());
  out.edges.resize(spec_.edges.size());
  double min_x = std::numeric_limits<double>::max();
  for (const Slot& s : slots_)
    min_x = std::min(min_x, s.x - s.width / 2);
  min_x -= kClusterPad;
  auto center = [&](int id) {
    const Slot& s = slots_[static_cast<std::size_t>(id)];
    const auto r = static_cast<std::size_t>(s.rank);
    return QPointF(s.x - min_x, rank_y_[r] + rank_h_[r] / 2);
  };
  for (std::size_t v = 0; v < spec_.nodes.size(); ++v) {
    const QSizeF size = spec_.nodes[v].size;
    const QPointF c = center(static_cast<int>(v));
    out.nodes[v] =
        QRectF(c.x() - size.width() / 2, c.y() - size.height() / 2, size.width(), size.height());
  }
  for (std::size_t i = 0; i < spec_.edges.size(); ++i) {
    const auto& e = spec_.edges[i];
    const QRectF& from = out.nodes[static_cast<std::size_t>(e.from)];
    const QRectF& to = out.nodes[static_cast<std::size_t>(e.to)];
    const bool down = from.center().y() <= to.center().y();
    std::vector<QPointF> pts;
    pts.push_back(down ? QPointF(from.center().x(), from.bottom())
                       : QPointF(from.center().x(), from.top()));
    std::vector<int> mids = edge_points_[i];
    if (!down) std::reverse(mids.begin(), mids.end());
    for (int id : mids)
      pts.push_back(center(id));
    const QPointF tip =
        down ? QPointF(to.center().x(), to.top()) : QPointF(to.center().x(), to.bottom());
    QPointF last = tip - QPointF(0, down ? kArrowLength : -kArrowLength);
    pts.push_back(last);
    GraphLayout::Edge& le = out.edges[i];
    le.spline.push_back(pts[0]);
    for (std::size_t k = 1; k < pts.size(); ++k) {  // straight segments as cubic Beziers
      const QPointF a = pts[k - 1];
      const QPointF b = pts[k];
      le.spline.push_back(a + (b - a) / 3);
      le.spline.push_back(a + (b - a) * 2 / 3);
      le.spline.push_back(b);
    }
    le.has_arrow = true;
    le.arrow_tip = tip;
  }
  QRectF bounds;
  for (std::size_t v = 0; v < spec_.nodes.size(); ++v)
    bounds = bounds.united(out.nodes[v]);
  out.bounds = QRectF(0, 0, bounds.right() + kClusterPad, bounds.bottom() + kClusterPad);
  return out;
}

GraphLayout Layered::Run() {
  Rank();
  BuildSlots();
  Order();
  Place();
  return Emit();
}

// Clusters are laid out on their own and then drawn as one box each in the graph around them, so
// that no frame ever covers a node that is not its member; edges that cross a frame are re-aimed
// at the member they join.
GraphLayout WithClusters(const GraphSpec& spec) {
  const std::size_t nc = spec.clusters.size();
  std::vector<std::vector<int>> members(nc);
  std::vector<int> local(spec.nodes.size(), -1);  // index inside its cluster's spec
  for (std::size_t v = 0; v < spec.nodes.size(); ++v) {
    const int c = spec.nodes[v].cluster;
    if (c < 0 || static_cast<std::size_t>(c) >= nc) continue;
    local[v] = static_cast<int>(members[static_cast<std::size_t>(c)].size());
    members[static_cast<std::size_t>(c)].push_back(static_cast<int>(v));
  }
  auto cluster_of = [&](int v) {
    const int c = spec.nodes[static_cast<std::size_t>(v)].cluster;
    return c >= 0 && static_cast<std::size_t>(c) < nc ? c : -1;
  };
  std::vector<GraphSpec> inner(nc);
  std::vector<std::vector<int>> inner_edges(nc);  // spec edge index per inner edge
  for (std::size_t c = 0; c < nc; ++c)
    for (int v : members[c]) {
      GraphSpec::Node n = spec.nodes[static_cast<std::size_t>(v)];
      n.cluster = -1;
      inner[c].nodes.push_back(n);
    }
  GraphSpec top;
  std::vector<int> top_of(spec.nodes.size(), -1);
  std::vector<int> box_of(nc, -1);
  for (std::size_t v = 0; v < spec.nodes.size(); ++v) {
    if (cluster_of(static_cast<int>(v)) >= 0) continue;
    top_of[v] = static_cast<int>(top.nodes.size());
    top.nodes.push_back(spec.nodes[v]);
  }
  std::vector<int> top_edges;  // spec edge index per top edge
  for (std::size_t i = 0; i < spec.edges.size(); ++i) {
    const auto& e = spec.edges[i];
    const int ca = cluster_of(e.from);
    const int cb = cluster_of(e.to);
    if (ca >= 0 && ca == cb) {
      inner[static_cast<std::size_t>(ca)].edges.push_back(
          {local[static_cast<std::size_t>(e.from)], local[static_cast<std::size_t>(e.to)], {}});
      inner_edges[static_cast<std::size_t>(ca)].push_back(static_cast<int>(i));
    }
  }
  std::vector<GraphLayout> inner_layout(nc);
  for (std::size_t c = 0; c < nc; ++c) {
    if (members[c].empty()) continue;
    inner_layout[c] = Layered(inner[c]).Run();
    GraphSpec::Node box;
    const QRectF b = inner_layout[c].bounds;
    box.size = QSizeF(b.width() + 2 * kClusterPad, b.height() + kClusterTop + kClusterPad);
    box_of[c] = static_cast<int>(top.nodes.size());
    top.nodes.push_back(box);
  }
  auto top_index = [&](int v) {
    const int c = cluster_of(v);
    return c >= 0 ? box_of[static_cast<std::size_t>(c)] : top_of[static_cast<std::size_t>(v)];
  };
  for (std::size_t i = 0; i < spec.edges.size(); ++i) {
    const auto& e = spec.edges[i];
    const int ca = cluster_of(e.from);
    if (ca >= 0 && ca == cluster_of(e.to)) continue;
    top.edges.push_back({top_index(e.from), top_index(e.to), {}});
    top_edges.push_back(static_cast<int>(i));
  }
  const GraphLayout outer = Layered(top).Run();

  GraphLayout out;
  out.nodes.resize(spec.nodes.size());
  out.edges.resize(spec.edges.size());
  out.clusters.resize(nc);
  out.bounds = outer.bounds;
  for (std::size_t v = 0; v < spec.nodes.size(); ++v)
    if (top_of[v] >= 0) out.nodes[v] = outer.nodes[static_cast<std::size_t>(top_of[v])];
  for (std::size_t c = 0; c < nc; ++c) {
    if (box_of[c] < 0) continue;
    const QRectF frame = outer.nodes[static_cast<std::size_t>(box_of[c])];
    out.clusters[c] = frame;
    const QPointF origin = frame.topLeft() + QPointF(kClusterPad, kClusterTop);
    for (std::size_t k = 0; k < members[c].size(); ++k)
      out.nodes[static_cast<std::size_t>(members[c][k])] =
          inner_layout[c].nodes[k].translated(origin);
    for (std::size_t k = 0; k < inner_edges[c].size(); ++k) {
      GraphLayout::Edge le = inner_layout[c].edges[k];
      for (QPointF& p : le.spline)
        p += origin;
      le.arrow_tip += origin;
      out.edges[static_cast<std::size_t>(inner_edges[c][k])] = std::move(le);
    }
  }
  for (std::size_t k = 0; k < top_edges.size(); ++k) {
    const auto i = static_cast<std::size_t>(top_edges[k]);
    GraphLayout::Edge le = outer.edges[k];
    const QRectF& from = out.nodes[static_cast<std::size_t>(spec.edges[i].from)];
    const QRectF& to = out.nodes[static_cast<std::size_t>(spec.edges[i].to)];
    if (cluster_of(spec.edges[i].from) >= 0 && !le.spline.empty())
      le.spline.front() = QPointF(from.center().x(), from.bottom());
    if (cluster_of(spec.edges[i].to) >= 0 && le.has_arrow) {
      le.arrow_tip = QPointF(to.center().x(), to.top());
      le.spline.back() = le.arrow_tip - QPointF(0, kArrowLength);
    }
    out.edges[i] = std::move(le);
  }
  return out;
}

}  // namespace

GraphLayout LayeredLayout(const GraphSpec& spec) {
  QElapsedTimer timer;
  timer.start();
  for (const auto& e : spec.edges) {
    if (e.from < 0 || e.to < 0 || static_cast<std::size_t>(e.from) >= spec.nodes.size() ||
        static_cast<std::size_t>(e.to) >= spec.nodes.size()) {
      GraphLayout bad;
      bad.error = QStringLiteral("edge to a node that does not exist");
      return bad;
    }
  }
  GraphLayout out;
  if (!spec.nodes.empty()) out = spec.clusters.empty() ? Layered(spec).Run() : WithClusters(spec);
  out.engine = QStringLiteral("layered");
  out.ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return out;
}

}  // namespace af::viewer
