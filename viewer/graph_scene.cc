#include "graph_scene.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QtMath>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "autofuse/ir/graph.h"
#include "compute_style.h"
#include "model_graphs.h"
#include "report.pb.h"

namespace af::viewer {
namespace {

constexpr double kPadX = 10;
constexpr double kPadY = 6;
constexpr double kMinWidth = 70;

QFont NameFont() {
  QFont f;
  f.setPointSizeF(9);
  f.setBold(true);
  return f;
}
QFont TypeFont() {
  QFont f;
  f.setPointSizeF(8.5);
  return f;
}
QFont DetailFont() {
  QFont f;
  f.setPointSizeF(7.5);
  return f;
}

QString Elide(const QString& s, int max) {
  return s.size() <= max ? s : s.left(max - 1) + "…";
}

QSizeF LabelSize(const GraphSpec::Node& n) {
  const QFontMetricsF name(NameFont());
  const QFontMetricsF type(TypeFont());
  const QFontMetricsF detail(DetailFont());
  double w = std::max(name.horizontalAdvance(n.name), type.horizontalAdvance(n.type));
  double h = name.height() + type.height();
  if (!n.detail.isEmpty()) {
    w = std::max(w, detail.horizontalAdvance(n.detail));
    h += detail.height();
  }
  return {std::max(kMinWidth, std::ceil(w + 2 * kPadX)), std::ceil(h + 2 * kPadY)};
}

QString ExprList(const std::vector<sym::Expr>& v) {
  QStringList parts;
  for (const auto& e : v)
    parts << QString::fromStdString(e.ToString());
  return parts.join(", ");
}

}  // namespace

// One node: a rounded box with the name, the op type and a detail line.
class NodeItem : public QGraphicsItem {
 public:
  NodeItem(const GraphSpec::Node& n, const QRectF& rect) : node_(n), rect_(rect) {
    setToolTip(n.tooltip);
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
  }
  const GraphSpec::Node& node() const { return node_; }
  QRectF rect() const { return rect_; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }

  void setSelectedNode(bool on) {
    selected_ = on;
    update();
  }
  void setMatch(bool on) {
    match_ = on;
    update();
  }
  bool match() const { return match_; }

  void paint(QPainter* p, const QStyleOptionGraphicsItem* /*option*/,
             QWidget* /*widget*/) override {
    p->setRenderHint(QPainter::Antialiasing);
    const QColor fill = node_.fill.isValid() ? node_.fill : ComputeColor(node_.compute);
    QPen pen(QColor(0x55, 0x55, 0x55), 1.0);
    if (match_) pen = QPen(QColor(0xff, 0x8c, 0x00), 2.5, Qt::DashLine);
    if (selected_) pen = QPen(QColor(0xd6, 0x27, 0x28), 3.0);
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(rect_, 5, 5);
    QRectF r = rect_.adjusted(kPadX / 2, kPadY, -kPadX / 2, -kPadY);
    const QFontMetricsF fm_name(NameFont());
    const QFontMetricsF fm_type(TypeFont());
    p->setPen(Qt::black);
    p->setFont(NameFont());
    p->drawText(QRectF(r.left(), r.top(), r.width(), fm_name.height()), Qt::AlignCenter,
                node_.name);
    p->setFont(TypeFont());
    p->setPen(QColor(0x20, 0x20, 0x20));
    p->drawText(QRectF(r.left(), r.top() + fm_name.height(), r.width(), fm_type.height()),
                Qt::AlignCenter, node_.type);
    if (!node_.detail.isEmpty()) {
      const QFontMetricsF fm_detail(DetailFont());
      p->setFont(DetailFont());
      p->setPen(QColor(0x50, 0x50, 0x50));
      p->drawText(QRectF(r.left(), r.top() + fm_name.height() + fm_type.height(), r.width(),
                         fm_detail.height()),
                  Qt::AlignCenter, node_.detail);
    }
  }

 private:
  GraphSpec::Node node_;
  QRectF rect_;
  bool selected_ = false;
  bool match_ = false;
};

// One cluster: a rounded, lightly filled frame behind its nodes with its label at the top.
class ClusterItem : public QGraphicsItem {
 public:
  ClusterItem(const GraphSpec::Cluster& c, const QRectF& rect) : cluster_(c), rect_(rect) {
    setToolTip(c.tooltip);
  }
  const GraphSpec::Cluster& cluster() const { return cluster_; }
  QRectF rect() const { return rect_; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }
  void setSelectedGroup(bool on) {
    selected_ = on;
    update();
  }

  void paint(QPainter* p, const QStyleOptionGraphicsItem* /*option*/,
             QWidget* /*widget*/) override {
    p->setRenderHint(QPainter::Antialiasing);
    QColor fill = cluster_.color;
    fill.setAlpha(70);
    p->setPen(selected_ ? QPen(QColor(0xd6, 0x27, 0x28), 3.0)
                        : QPen(cluster_.color.darker(150), 1.5));
    p->setBrush(fill);
    p->drawRoundedRect(rect_, 8, 8);
    p->setFont(DetailFont());
    p->setPen(cluster_.color.darker(250));
    const QFontMetricsF fm(DetailFont());
    p->drawText(QRectF(rect_.left() + 6, rect_.top() + 2, rect_.width() - 12, fm.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(cluster_.label, Qt::ElideRight, rect_.width() - 12));
  }

 private:
  GraphSpec::Cluster cluster_;
  QRectF rect_;
  bool selected_ = false;
};

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
  setBackgroundBrush(Qt::white);
}

GraphSpec GraphScene::SpecForGraph(const ir::Graph& g) {
  GraphSpec spec;
  auto axis_name = [&g](std::int64_t id) {
    const ir::Axis* a = g.FindAxis(id);
    return a != nullptr ? QString::fromStdString(a->name) : QString::number(id);
  };
  for (const auto& n : g.nodes) {
    GraphSpec::Node sn;
    sn.name = QString::fromStdString(n.name);
    sn.type = QString::fromStdString(n.type);
    sn.compute = ComputeOf(sn.type);
    QStringList tip;
    tip << QStringLiteral("<b>%1</b> : %2 (%3)")
               .arg(sn.name.toHtmlEscaped(), sn.type.toHtmlEscaped(), sn.compute);
    if (!n.outputs.empty()) {
      const ir::Tensor& t = n.outputs[0];
      const auto dt = ir::DTypeName(t.dtype);
      const QString dtype = QString::fromLatin1(dt.data(), static_cast<qsizetype>(dt.size()));
      if (g.type == ir::GraphType::kImpl) {
        // Impl graphs: where the tensor lives and which axes the UB buffer holds.
        const auto pos = ir::PositionName(t.mem.position);
        QStringList vec;
        for (auto id : t.vectorized_axis)
          vec << axis_name(id);
        sn.detail =
            dtype + " · " + QString::fromLatin1(pos.data(), static_cast<qsizetype>(pos.size()));
        if (!vec.isEmpty()) sn.detail += " {" + vec.join(", ") + "}";
        sn.detail = Elide(sn.detail, 40);
      } else {
        sn.detail = Elide(dtype + " [" + ExprList(t.repeats) + "]", 40);
      }
      for (std::size_t o = 0; o < n.outputs.size(); ++o) {
        const ir::Tensor& to = n.outputs[o];
        QStringList axes;
        for (auto id : to.axis)
          axes << axis_name(id);
        QStringList vec;
        for (auto id : to.vectorized_axis)
          vec << axis_name(id);
        const auto dto = ir::DTypeName(to.dtype);
        tip << QStringLiteral("y%1: %2 axis={%3} repeats=(%4) strides=(%5)")
                   .arg(o)
                   .arg(QString::fromLatin1(dto.data(), static_cast<qsizetype>(dto.size())),
                        axes.join(", "), ExprList(to.repeats).toHtmlEscaped(),
                        ExprList(to.strides).toHtmlEscaped());
        if (!vec.isEmpty()) tip << QStringLiteral("  vectorised {%1}").arg(vec.join(", "));
      }
    }
    if (!n.sched.axis.empty()) {
      QStringList loop;
      for (auto id : n.sched.axis)
        loop << axis_name(id);
      tip << QStringLiteral("loop nest: %1; loop axis %2")
                 .arg(loop.join(" ▸ "),
                      n.sched.loop_axis >= 0 ? axis_name(n.sched.loop_axis) : QString("—"));
    }
    sn.tooltip = tip.join("<br>");
    sn.size = LabelSize(sn);
    spec.nodes.push_back(std::move(sn));
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    for (const auto& in : g.nodes[i].inputs) {
      if (in.node < 0 || static_cast<std::size_t>(in.node) >= g.nodes.size()) continue;
      GraphSpec::Edge e;
      e.from = in.node;
      e.to = static_cast<int>(i);
      spec.edges.push_back(e);
    }
  }
  return spec;
}

GraphSpec GraphScene::SpecForKernels(const Run& run) {
  GraphSpec spec;
  for (int i = 0; i < run.kernelCount(); ++i) {
    const report::KernelReport& k = *run.kernel(i);
    GraphSpec::Node sn;
    sn.name = GraphName(k).isEmpty() ? QString::fromStdString(k.name()) : GraphName(k);
    sn.type = Elide(QString::fromStdString(k.name()), 44);
    const bool refused = !k.error_code().empty();
    if (refused) {
      sn.detail = QStringLiteral("refused: ") + QString::fromStdString(k.error_code());
      sn.fill = QColor(0xf4, 0xa5, 0xa5);
    } else if (k.has_tiling()) {
      const int c = DefaultCase(k);
      sn.detail = QStringLiteral("%1 · %2 cores · %3 cycles")
                      .arg(ShortCaseName(k, c))
                      .arg(k.tiling().block_dim())
                      .arg(k.tiling().modeled_cycles(), 0, 'f', 0);
      sn.fill = QColor(0xb8, 0xe0, 0xb0);
    } else {
      sn.detail = QStringLiteral("%1 cases · sizes unbound").arg(k.cases_size());
      sn.fill = QColor(0xd8, 0xea, 0xd4);
    }
    sn.compute = QStringLiteral("kernel");
    sn.tooltip = QStringLiteral("<b>%1</b><br>%2<br>%3")
                     .arg(sn.name.toHtmlEscaped(), QString::fromStdString(k.name()),
                          refused ? QString::fromStdString(k.error()).toHtmlEscaped() : sn.detail);
    sn.size = LabelSize(sn);
    spec.nodes.push_back(std::move(sn));
  }
  return spec;
}

bool GraphScene::HasModelGraph(const Run& run) {
  if (!run.ok()) return false;
  if (run.report->model_nodes_size() > 0) return true;
  return std::ranges::any_of(run.report->framework_groupings(),
                             [](const auto& cmp) { return cmp.nodes_size() > 0; });
}

namespace {

// Pastel colours for the kernels' clusters, by kernel index.
QColor KernelColor(int i) {
  static const QColor palette[] = {QColor(0x4e, 0x9a, 0xd6), QColor(0x59, 0xa1, 0x4f),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0xed, 0xc9, 0x48),
                                   QColor(0x76, 0xb7, 0xb2), QColor(0xf2, 0x8e, 0x2b),
                                   QColor(0x9c, 0x75, 0x5f), QColor(0x8c, 0x8c, 0xd9)};
  return palette[static_cast<std::size_t>(i) % std::size(palette)];
}

QString KernelSummary(const report::KernelReport& k) {
  if (!k.error_code().empty())
    return QStringLiteral("refused: ") + QString::fromStdString(k.error_code());
  if (k.has_tiling()) {
    const int c = DefaultCase(k);
    return QStringLiteral("%1 · %2 cores · %3 cycles")
        .arg(ShortCaseName(k, c))
        .arg(k.tiling().block_dim())
        .arg(k.tiling().modeled_cycles(), 0, 'f', 0);
  }
  return QStringLiteral("%1 cases · sizes unbound").arg(k.cases_size());
}

// Symbolic sizes (sym_size, SymInt inputs and arithmetic on them): shape plumbing, not data.
bool IsSizeNode(const report::ModelNodeReport& n) {
  return n.dtype().rfind("Sym", 0) == 0 || n.op() == "aten.sym_size" ||
         n.op().rfind("aten.sym_size.", 0) == 0;
}

}  // namespace

namespace {

// One op, placeholder or output of a model graph: in a group's cluster (white), left unfused with
// our fallback code (red), an input (blue) or outside every kernel (grey).
GraphSpec::Node ModelNodeSpec(const report::ModelNodeReport& n, int group, int cluster,
                              const QString& group_name, bool our_codes) {
  GraphSpec::Node sn;
  sn.name = QString::fromStdString(n.name());
  QString op = QString::fromStdString(n.op());
  if (op.startsWith(QStringLiteral("aten."))) op = op.mid(5);
  sn.type = Elide(op, 32);
  const QString type = QString::fromStdString(n.dtype()) + QString::fromStdString(n.shape());
  sn.detail = Elide(type, 36);
  sn.compute = QStringLiteral("model");
  sn.group = group;
  sn.cluster = cluster;
  QStringList tip;
  tip << QStringLiteral("<b>%1</b> : %2")
             .arg(sn.name.toHtmlEscaped(), QString::fromStdString(n.op()).toHtmlEscaped());
  if (!type.isEmpty()) tip << type.toHtmlEscaped();
  if (group >= 0) {
    sn.fill = QColor(Qt::white);
    tip << QStringLiteral("in %1").arg(group_name.toHtmlEscaped());
  } else if (our_codes && !n.fallback_code().empty()) {
    sn.detail = Elide(QStringLiteral("[%1]").arg(QString::fromStdString(n.fallback_code())), 36);
    sn.fill = QColor(0xf4, 0xc7, 0xc3);
    tip << QStringLiteral("left unfused: %1")
               .arg(QString::fromStdString(n.fallback_code()).toHtmlEscaped());
  } else if (n.op() == "placeholder" || n.op() == "get_attr") {
    sn.fill = QColor(0xd6, 0xe6, 0xf5);
  } else {
    sn.fill = QColor(0xe8, 0xe8, 0xe8);
  }
  sn.tooltip = tip.join(QStringLiteral("<br>"));
  sn.size = LabelSize(sn);
  return sn;
}

// The cluster (or collapsed box) of one group: colour, label and tooltip.
struct GroupLook {
  QColor color;
  QString label;  // the cluster frame's label
  QString title;  // the collapsed box's first line
  QString summary;
  QString tooltip;
};

QString CubeVectorSummary(const QString& cv) {
  return QStringLiteral("cube + vector kernel (%1, MIX_AIC_1_2) · ").arg(cv);
}

// A cube + vector kernel (a group with a cube part): "CV kFixpip" / "CV kCommon" ("CV" with
// sizes unbound), else empty.
QString CubeVectorMark(const report::KernelReport& k) {
  for (const auto& g : k.groups()) {
    if (!g.has_cube()) continue;
    return g.cube().tiled()
               ? QStringLiteral("CV ") + QString::fromStdString(g.cube().template_name())
               : QStringLiteral("CV");
  }
  return {};
}

GroupLook LookOf(const Run& run, const ModelGroup& g, int index, int ops) {
  GroupLook look;
  const report::KernelReport* k = g.kernel >= 0 ? run.kernel(g.kernel) : nullptr;
  const bool refused = k != nullptr && !k->error_code().empty();
  const bool library = g.kind == QStringLiteral("extern") || g.kind == QStringLiteral("nop");
  look.color = refused   ? QColor(0xe0, 0x60, 0x60)
               : library ? QColor(0x9a, 0x9a, 0x9a)
                         : KernelColor(index);
  look.title = k != nullptr && !GraphName(*k).isEmpty() ? GraphName(*k) : g.name;
  if (k != nullptr) {
    look.summary = KernelSummary(*k);
    const QString cv = CubeVectorMark(*k);
    look.label =
        refused ? QStringLiteral("%1 · %2").arg(look.title, QString::fromStdString(k->error_code()))
        : k->cases_size() > 0
            ? QStringLiteral("%1 · %2").arg(look.title, ShortCaseName(*k, DefaultCase(*k)))
        : !cv.isEmpty() ? QStringLiteral("%1 · %2").arg(look.title, cv)
                        : look.title;
    if (!cv.isEmpty() && !refused) {
      // Cube + vector kernels: a cube op inside, drawn with a dark frame colour of their own.
      look.color = QColor(0x7b, 0x4f, 0xa8);
      look.summary = CubeVectorSummary(cv) + look.summary;
    }
  } else if (!g.fallback.isEmpty()) {  // a group this run could not lower
    look.color = QColor(0xe0, 0x60, 0x60);
    look.summary = QStringLiteral("falls back: ") + g.fallback;
    look.label = QStringLiteral("%1 · falls back").arg(look.title);
  } else {
    look.summary = library ? g.kind + QStringLiteral(" (not fused)") : g.kind;
    look.label = QStringLiteral("%1 · %2").arg(look.title, g.kind);
  }
  look.tooltip = QStringLiteral("<b>%1</b><br>%2<br>%3 ops · %4")
                     .arg(look.title.toHtmlEscaped(),
                          k != nullptr ? QString::fromStdString(k->name()) : g.name)
                     .arg(ops)
                     .arg(look.summary.toHtmlEscaped());
  return look;
}

}  // namespace

GraphSpec GraphScene::SpecForModelGraph(const Run& run, const QSet<int>& collapsed) {
  return SpecForModelGraph(run, 0, Grouping::kOurs, collapsed);
}

GraphSpec GraphScene::SpecForModelGraph(const Run& run, int model, Grouping grouping,
                                        const QSet<int>& collapsed) {
  const std::vector<ModelGraph> models = ModelGraphs(run);
  if (model < 0 || static_cast<std::size_t>(model) >= models.size()) return {};
  const ModelGraph& m = models[static_cast<std::size_t>(model)];
  return SpecForModelGraph(run, m, ModelGroups(run, m, grouping), grouping, collapsed);
}

GraphSpec GraphScene::SpecForModelGraph(const Run& run, const ModelGraph& m,
                                        const std::vector<ModelGroup>& groups, Grouping grouping,
                                        const QSet<int>& collapsed) {
  GraphSpec spec;
  std::unordered_map<std::string_view, int> group_of;  // FX node -> group index
  group_of.reserve(m.nodes.size());
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (const auto& n : groups[i].nodes)
      group_of.emplace(n, static_cast<int>(i));
  // One cluster per group with ops; a collapsed group is one box instead.
  std::vector<int> cluster_of(groups.size(), -1);
  std::vector<int> box_of(groups.size(), -1);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const int ops = static_cast<int>(groups[i].nodes.size());
    if (ops == 0) continue;
    const GroupLook look = LookOf(run, groups[i], static_cast<int>(i), ops);
    if (collapsed.contains(static_cast<int>(i))) {
      GraphSpec::Node sn;
      sn.name = look.title;
      sn.type =
          Elide(groups[i].kernel >= 0 ? QString::fromStdString(run.kernel(groups[i].kernel)->name())
                                      : groups[i].name,
                44);
      sn.detail = QStringLiteral("%1 ops · %2").arg(ops).arg(look.summary);
      sn.compute = QStringLiteral("kernel");
      sn.fill = look.color.lighter(130);
      sn.tooltip = look.tooltip + QStringLiteral("<br><i>double-click to expand</i>");
      sn.group = static_cast<int>(i);
      sn.collapsed = true;
      sn.size = LabelSize(sn);
      box_of[i] = static_cast<int>(spec.nodes.size());
      spec.nodes.push_back(std::move(sn));
    } else {
      GraphSpec::Cluster c;
      c.label = look.label;  // as wide as its ops: name and case only, the tooltip has the rest
      c.tooltip = look.tooltip + QStringLiteral("<br><i>double-click to collapse</i>");
      c.color = look.color;
      c.group = static_cast<int>(i);
      cluster_of[i] = static_cast<int>(spec.clusters.size());
      spec.clusters.push_back(std::move(c));
    }
  }
  std::unordered_map<std::string_view, int> index;  // model node name -> spec node
  index.reserve(m.nodes.size());
  for (const auto* np : m.nodes) {
    const report::ModelNodeReport& n = *np;
    if (IsSizeNode(n)) {
      ++spec.hidden;
      continue;
    }
    const auto git = group_of.find(n.name());
    const int k = git == group_of.end() ? -1 : git->second;
    if (k >= 0 && box_of[static_cast<std::size_t>(k)] >= 0) {
      index[n.name()] = box_of[static_cast<std::size_t>(k)];
      continue;
    }
    index[n.name()] = static_cast<int>(spec.nodes.size());
    spec.nodes.push_back(
        ModelNodeSpec(n, k, k >= 0 ? cluster_of[static_cast<std::size_t>(k)] : -1,
                      k >= 0 ? groups[static_cast<std::size_t>(k)].name : QString(),
                      grouping == Grouping::kOurs));
  }
  std::set<std::pair<int, int>> seen;
  for (const auto* np : m.nodes) {
    const auto to_it = index.find(np->name());
    if (to_it == index.end()) continue;  // a size node
    const int to = to_it->second;
    for (const auto& in : np->inputs()) {
      const auto it = index.find(in);
      if (it == index.end() || it->second == to) continue;  // unknown, or inside a collapsed box
      if (!seen.insert({it->second, to}).second) continue;
      GraphSpec::Edge e;
      e.from = it->second;
      e.to = to;
      e.tooltip =
          QString::fromStdString(in) + QStringLiteral(" → ") + QString::fromStdString(np->name());
      spec.edges.push_back(e);
    }
  }
  return spec;
}

void GraphScene::setGraph(const GraphSpec& spec, const GraphLayout& layout) {
  clear();
  items_.clear();
  clusters_.clear();
  message_.clear();
  spec_ = spec;
  if (!layout.ok()) {
    showMessage(layout.error);
    return;
  }
  const QPen edge_pen(QColor(0x60, 0x60, 0x60), 1.2);
  for (std::size_t i = 0; i < spec.edges.size() && i < layout.edges.size(); ++i) {
    const auto& le = layout.edges[i];
    if (le.spline.empty()) continue;
    QPainterPath path(le.spline[0]);
    std::size_t k = 1;
    for (; k + 2 < le.spline.size(); k += 3)
      path.cubicTo(le.spline[k], le.spline[k + 1], le.spline[k + 2]);
    for (; k < le.spline.size(); ++k)
      path.lineTo(le.spline[k]);
    auto* item = addPath(path, edge_pen);
    item->setZValue(0);
    item->setToolTip(spec.edges[i].tooltip);
    if (le.has_arrow) {
      const QPointF base = le.spline.back();
      const QPointF tip = le.arrow_tip;
      const QPointF d = tip - base;
      const double len = std::hypot(d.x(), d.y());
      if (len > 0.01) {
        const QPointF n(-d.y() / len * 3.5, d.x() / len * 3.5);
        QPolygonF head;
        head << tip << base + n << base - n;
        auto* h = addPolygon(head, edge_pen, QBrush(QColor(0x60, 0x60, 0x60)));
        h->setZValue(0);
      }
    }
  }
  for (std::size_t i = 0; i < spec.clusters.size() && i < layout.clusters.size(); ++i) {
    if (layout.clusters[i].isNull()) continue;
    auto* item = new ClusterItem(spec.clusters[i], layout.clusters[i]);
    item->setZValue(-1);
    addItem(item);
    clusters_.push_back(item);
  }
  for (std::size_t i = 0; i < spec.nodes.size() && i < layout.nodes.size(); ++i) {
    auto* item = new NodeItem(spec.nodes[i], layout.nodes[i]);
    item->setZValue(1);
    addItem(item);
    items_.push_back(item);
  }
  setSceneRect(graphRect());
  if (!selected_.isEmpty()) setSelectedNode(selected_);
  setSelectedGroup(selected_group_);
}

void GraphScene::showMessage(const QString& text) {
  clear();
  items_.clear();
  clusters_.clear();
  message_ = text;
  auto* t = addSimpleText(text);
  t->setBrush(QColor(0x60, 0x60, 0x60));
  setSceneRect(t->boundingRect().adjusted(-20, -20, 20, 20));
}

QRectF GraphScene::setSelectedNode(const QString& name) {
  selected_ = name;
  QRectF r;
  for (NodeItem* item : items_) {
    const bool on = !name.isEmpty() && item->node().name == name;
    const bool group =
        item->node().collapsed && selected_group_ >= 0 && item->node().group == selected_group_;
    item->setSelectedNode(on || group);
    if (on) r = item->rect();
  }
  return r;
}

void GraphScene::setSelectedGroup(int group) {
  selected_group_ = group;
  for (ClusterItem* c : clusters_)
    c->setSelectedGroup(group >= 0 && c->cluster().group == group);
  for (NodeItem* item : items_) {
    if (item->node().collapsed)
      item->setSelectedNode((group >= 0 && item->node().group == group) ||
                            (!selected_.isEmpty() && item->node().name == selected_));
  }
}

QStringList GraphScene::search(const QString& text) {
  QStringList names;
  for (NodeItem* item : items_) {
    const bool on = !text.isEmpty() && (item->node().name.contains(text, Qt::CaseInsensitive) ||
                                        item->node().type.contains(text, Qt::CaseInsensitive));
    item->setMatch(on);
    if (on) names << item->node().name;
  }
  return names;
}

QRectF GraphScene::nodeRect(const QString& name) const {
  for (NodeItem* item : items_) {
    if (item->node().name == name) return item->rect();
  }
  return {};
}

QRectF GraphScene::graphRect() const {
  return itemsBoundingRect().adjusted(-12, -12, 12, 12);
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  QGraphicsScene::mousePressEvent(event);
  if (event->button() != Qt::LeftButton) return;
  press_pos_ = event->screenPos();
  for (QGraphicsItem* it : items(event->scenePos())) {
    if (auto* node = dynamic_cast<NodeItem*>(it)) {
      emit nodeClicked(node->node().name);
      return;
    }
  }
  for (QGraphicsItem* it : items(event->scenePos())) {
    if (auto* cluster = dynamic_cast<ClusterItem*>(it)) {
      emit clusterClicked(cluster->cluster().group);
      return;
    }
  }
  background_press_ = true;
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
  QGraphicsScene::mouseDoubleClickEvent(event);
  if (event->button() != Qt::LeftButton) return;
  for (QGraphicsItem* it : items(event->scenePos())) {
    if (auto* node = dynamic_cast<NodeItem*>(it)) {
      emit nodeDoubleClicked(node->node().name);
      return;
    }
  }
  for (QGraphicsItem* it : items(event->scenePos())) {
    if (auto* cluster = dynamic_cast<ClusterItem*>(it)) {
      emit clusterDoubleClicked(cluster->cluster().group);
      return;
    }
  }
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
  QGraphicsScene::mouseReleaseEvent(event);
  // A click on the background clears the node selection; a drag (panning) does not.
  if (background_press_ && (event->screenPos() - press_pos_).manhattanLength() < 4) {
    emit nodeClicked(QString());
  }
  background_press_ = false;
}

}  // namespace af::viewer
