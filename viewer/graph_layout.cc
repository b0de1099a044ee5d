#include "graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QElapsedTimer>
#include <charconv>
#include <locale>
#include <mutex>
#include <sstream>
#include <string_view>

#include "layered_layout.h"

namespace af::viewer {
namespace {

constexpr double kPointsPerInch = 72.0;

std::mutex& GraphvizMutex() {
  static std::mutex mu;
  return mu;
}

// One Graphviz context for the process, created on first use under the mutex.
GVC_t* Context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

// agget takes a non-const name in this Graphviz version.
std::string_view Attr(void* obj, const char* name) {
  std::string key(name);
  const char* v = agget(obj, key.data());
  return v == nullptr ? std::string_view() : std::string_view(v);
}

bool ParseDouble(std::string_view s, double* out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "x,y" in points.
bool ParsePoint(std::string_view s, QPointF* p) {
  const auto comma = s.find(',');
  if (comma == std::string_view::npos) return false;
  double x = 0;
  double y = 0;
  if (!ParseDouble(s.substr(0, comma), &x)) return false;
  // A third component (z) may follow in 3D layouts; ignore it.
  std::string_view ys = s.substr(comma + 1);
  if (const auto c2 = ys.find(','); c2 != std::string_view::npos) ys = ys.substr(0, c2);
  if (!ParseDouble(ys, &y)) return false;
  *p = QPointF(x, y);
  return true;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (!s.empty()) {
    const auto i = s.find(sep);
    const auto part = s.substr(0, i);
    if (!part.empty()) parts.push_back(part);
    if (i == std::string_view::npos) break;
    s = s.substr(i + 1);
  }
  return parts;
}

int IndexOf(std::string_view id, char prefix) {
  if (id.size() < 2 || id[0] != prefix) return -1;
  int v = -1;
  const auto r = std::from_chars(id.data() + 1, id.data() + id.size(), v);
  return r.ec == std::errc() && r.ptr == id.data() + id.size() ? v : -1;
}

}  // namespace

std::string LayoutDot(const GraphSpec& spec) {
  std::ostringstream dot;
  dot.imbue(std::locale::classic());
  dot << "digraph G {\n"
      << "  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, splines=spline];\n"
      << "  node [shape=box, fixedsize=true, label=\"\"];\n"
      << "  edge [arrowsize=0.7];\n";
  auto node = [&](std::size_t i, const char* indent) {
    const QSizeF& s = spec.nodes[i].size;
    dot << indent << "n" << i << " [width=" << s.width() / kPointsPerInch
        << ", height=" << s.height() / kPointsPerInch << "];\n";
  };
  std::vector<std::vector<std::size_t>> members(spec.clusters.size());
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const int c = spec.nodes[i].cluster;
    if (c >= 0 && static_cast<std::size_t>(c) < members.size()) {
      members[static_cast<std::size_t>(c)].push_back(i);
    } else {
      node(i, "  ");
    }
  }
  // Clusters leave a margin at the top for the label the scene draws there.
  for (std::size_t c = 0; c < members.size(); ++c) {
    if (members[c].empty()) continue;
    dot << "  subgraph cluster_" << c << " {\n    graph [margin=16];\n";
    for (std::size_t i : members[c])
      node(i, "    ");
    dot << "  }\n";
  }
  for (std::size_t i = 0; i < spec.edges.size(); ++i) {
    const auto& e = spec.edges[i];
    dot << "  n" << e.from << " -> n" << e.to << " [id=e" << i << "];\n";
  }
  dot << "}\n";
  return dot.str();
}

GraphLayout LayoutGraph(const GraphSpec& spec) {
  QElapsedTimer timer;
  timer.start();
  GraphLayout out;
  out.engine = QStringLiteral("dot");
  out.nodes.resize(spec.nodes.size());
  out.edges.resize(spec.edges.size());
  out.clusters.resize(spec.clusters.size());
  for (const auto& e : spec.edges) {
    if (e.from < 0 || e.to < 0 || static_cast<std::size_t>(e.from) >= spec.nodes.size() ||
        static_cast<std::size_t>(e.to) >= spec.nodes.size()) {
      out.error = QStringLiteral("edge to a node that does not exist");
      return out;
    }
  }
  if (spec.nodes.empty()) return out;
  const std::string dot = LayoutDot(spec);

  std::lock_guard<std::mutex> lock(GraphvizMutex());
  GVC_t* gvc = Context();
  Agraph_t* g = agmemread(dot.c_str());
  if (g == nullptr) {
    out.error = QStringLiteral("Graphviz could not read the graph");
    return out;
  }
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    out.error = QStringLiteral("Graphviz dot layout failed");
    return out;
  }
  // Rendering to the "dot" format with no output attaches the layout as attributes (pos, bb),
  // which we read back; no image is produced.
  char* data = nullptr;
  unsigned int length = 0;
  if (gvRenderData(gvc, g, "dot", &data, &length) == 0 && data != nullptr) gvFreeRenderData(data);

  QRectF bb;
  {
    const auto parts = Split(Attr(g, "bb"), ',');
    double v[4] = {0, 0, 0, 0};
    bool ok = parts.size() == 4;
    for (std::size_t i = 0; ok && i < 4; ++i)
      ok = ParseDouble(parts[i], &v[i]);
    if (ok) bb = QRectF(QPointF(v[0], v[1]), QPointF(v[2], v[3]));
  }
  const double top = bb.bottom();  // Graphviz y grows upwards; the scene's downwards
  auto flip = [top](QPointF p) { return QPointF(p.x(), top - p.y()); };

  for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) {
    const int i = IndexOf(agnameof(n), 'n');
    if (i < 0 || static_cast<std::size_t>(i) >= spec.nodes.size()) continue;
    QPointF c;
    if (!ParsePoint(Attr(n, "pos"), &c)) continue;
    const QSizeF s = spec.nodes[static_cast<std::size_t>(i)].size;
    const QPointF center = flip(c);
    out.nodes[static_cast<std::size_t>(i)] =
        QRectF(center.x() - s.width() / 2, center.y() - s.height() / 2, s.width(), s.height());
    for (Agedge_t* e = agfstout(g, n); e != nullptr; e = agnxtout(g, e)) {
      const int ei = IndexOf(Attr(e, "id"), 'e');
      if (ei < 0 || static_cast<std::size_t>(ei) >= spec.edges.size()) continue;
      GraphLayout::Edge& le = out.edges[static_cast<std::size_t>(ei)];
      // pos = "e,x,y p0 p1 p2 p3 ..." (one spline; "s,x,y" would mark a start arrow).
      for (std::string_view tok : Split(Attr(e, "pos"), ' ')) {
        if (tok.size() > 2 && tok[0] == 'e' && tok[1] == ',') {
          QPointF p;
          if (ParsePoint(tok.substr(2), &p)) {
            le.has_arrow = true;
            le.arrow_tip = flip(p);
          }
        } else if (tok.size() > 2 && tok[0] == 's' && tok[1] == ',') {
          continue;
        } else if (tok == ";") {
          break;  // only the first of several splines
        } else {
          QPointF p;
          if (ParsePoint(tok, &p)) le.spline.push_back(flip(p));
        }
      }
    }
  }
  out.clusters.resize(spec.clusters.size());
  for (Agraph_t* sg = agfstsubg(g); sg != nullptr; sg = agnxtsubg(sg)) {
    const std::string_view name = agnameof(sg);
    constexpr std::string_view kPrefix = "cluster_";
    if (name.substr(0, kPrefix.size()) != kPrefix) continue;
    int c = -1;
    const auto r = std::from_chars(name.data() + kPrefix.size(), name.data() + name.size(), c);
    if (r.ec != std::errc() || c < 0 || static_cast<std::size_t>(c) >= out.clusters.size())
      continue;
    const auto parts = Split(Attr(sg, "bb"), ',');
    double v[4] = {0, 0, 0, 0};
    bool ok = parts.size() == 4;
    for (std::size_t i = 0; ok && i < 4; ++i)
      ok = ParseDouble(parts[i], &v[i]);
    if (ok)
      out.clusters[static_cast<std::size_t>(c)] = QRectF(flip({v[0], v[3]}), flip({v[2], v[1]}));
  }
  out.bounds = QRectF(0, 0, bb.width(), bb.height());
  gvFreeLayout(gvc, g);
  agclose(g);
  out.ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return out;
}

LayoutEngine ChooseEngine(const GraphSpec& spec, LayoutEngine wanted) {
  if (wanted != LayoutEngine::kAuto) return wanted;
  return spec.nodes.size() <= static_cast<std::size_t>(kDotNodeLimit) &&
                 spec.edges.size() <= static_cast<std::size_t>(kDotEdgeLimit)
             ? LayoutEngine::kDot
             : LayoutEngine::kLayered;
}

GraphLayout LayoutWith(const GraphSpec& spec, LayoutEngine engine) {
  return ChooseEngine(spec, engine) == LayoutEngine::kDot ? LayoutGraph(spec) : LayeredLayout(spec);
}

}  // namespace af::viewer
