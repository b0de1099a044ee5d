#include "axes_tab.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "autofuse/ir/graph.h"
#include "report.pb.h"
#include "report_graphs.h"

namespace af::viewer {
namespace {

QStandardItem* Cell(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  return item;
}

QString TypeText(ir::AxisType t) {
  const auto n = ir::AxisTypeName(t);
  return QString::fromLatin1(n.data(), static_cast<qsizetype>(n.size()));
}

}  // namespace

AxesTab::AxesTab(QWidget* parent) : InspectorTab(parent) {
  header_ = new QLabel(this);
  header_->setWordWrap(true);
  header_->setTextFormat(Qt::RichText);
  loop_nest_ = new QLabel(this);
  loop_nest_->setWordWrap(true);
  loop_nest_->setTextFormat(Qt::RichText);
  model_ = new QStandardItemModel(this);
  tree_ = new QTreeView(this);
  tree_->setModel(model_);
  tree_->setAlternatingRowColors(true);
  tree_->setUniformRowHeights(true);
  tree_->header()->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addWidget(tree_, 1);
  layout->addWidget(loop_nest_);
  showKernel(nullptr, -1, -1);
}

QString AxesTab::headerText() const {
  return header_->text();
}
QString AxesTab::loopNestText() const {
  return loop_nest_->text();
}

namespace {

// What the nodes say about the axes: loop axes, vectorised axes (with their UB strides), and the
// node whose nest the tab shows (the first Store, else the last node with a loop axis).
struct AxisRoles {
  std::set<std::int64_t> loop_axes;
  std::map<std::int64_t, QString> vectorised;
  const ir::Node* nest_node = nullptr;
};

AxisRoles RolesOf(const ir::Graph& graph) {
  AxisRoles r;
  for (const auto& n : graph.nodes) {
    if (n.sched.loop_axis >= 0) r.loop_axes.insert(n.sched.loop_axis);
    for (const auto& t : n.outputs) {
      for (std::size_t i = 0; i < t.vectorized_axis.size(); ++i) {
        const QString stride = i < t.vectorized_strides.size()
                                   ? QString::fromStdString(t.vectorized_strides[i].ToString())
                                   : QString();
        r.vectorised.emplace(t.vectorized_axis[i], stride);
      }
    }
    if (n.type == "Store" && r.nest_node == nullptr) r.nest_node = &n;
  }
  if (r.nest_node == nullptr) {
    for (const auto& n : graph.nodes) {
      if (!n.sched.axis.empty() && n.sched.loop_axis >= 0) r.nest_node = &n;
    }
  }
  return r;
}

// The case (or the refusal) and the bindings the values are computed under.
QString HeaderText(const report::KernelReport& k, int c, const sym::Bindings& b) {
  QStringList bound;
  for (const auto& [name, value] : b)
    bound << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
  QString head;
  if (c >= 0) {
    const bool chosen = k.has_tiling() && k.tiling().chosen_case() == c;
    head = AxesTab::tr("<b>%1</b> — case %2 of %3%4")
               .arg(QString::fromStdString(k.cases(c).name()).toHtmlEscaped())
               .arg(c)
               .arg(k.cases_size())
               .arg(chosen ? AxesTab::tr(", chosen") : QString());
    if (k.has_tiling() && !k.cases(c).feasible())
      head += AxesTab::tr(" (infeasible for these sizes)");
  } else {
    head = AxesTab::tr("<b>%1</b> — refused (%2): the hint graph's axes")
               .arg(GraphName(k).toHtmlEscaped(), QString::fromStdString(k.error_code()));
  }
  head += QStringLiteral("<br>") +
          (bound.isEmpty() ? AxesTab::tr("Sizes unbound: values appear once s0… are bound "
                                         "(Flags & shapes ▸ Re-run).")
                           : AxesTab::tr("Values under %1").arg(bound.join(", ")));
  return head;
}

// The row of one axis: name, type, value under the bindings, roles, symbolic size.
QList<QStandardItem*> AxisRow(const ir::Graph& graph, const ir::Axis& a, const AxisRoles& roles,
                              const sym::Bindings& b) {
  QString value;
  QString value_tip;
  try {
    value = QLocale::c().toString(static_cast<qlonglong>(a.size.Eval(b)));
  } catch (const std::exception& e) {
    value = QStringLiteral("—");
    value_tip = QString::fromStdString(e.what());
  }
  QStringList role;
  if (a.bind_block) role << AxesTab::tr("bound to cores");
  if (roles.loop_axes.count(a.id) != 0) role << AxesTab::tr("loop axis");
  if (auto it = roles.vectorised.find(a.id); it != roles.vectorised.end()) {
    role << (it->second.isEmpty() ? AxesTab::tr("vectorised")
                                  : AxesTab::tr("vectorised (UB stride %1)").arg(it->second));
  }
  if (a.type == ir::AxisType::kTileInner) role << AxesTab::tr("tile");
  QStringList parents;
  for (auto p : a.from) {
    const ir::Axis* pa = graph.FindAxis(p);
    parents << (pa != nullptr ? QString::fromStdString(pa->name) : QString::number(p));
  }
  if (a.type == ir::AxisType::kMerged && parents.size() > 1) {
    role << AxesTab::tr("merge of %1").arg(parents.join(QStringLiteral(" · ")));
  }
  const QString size = QString::fromStdString(a.size.ToString());
  QList<QStandardItem*> row = {Cell(QString::fromStdString(a.name)), Cell(TypeText(a.type)),
                               Cell(value), Cell(role.join(QStringLiteral(", "))), Cell(size)};
  row[AxesTab::kSize]->setToolTip(size);
  row[AxesTab::kRole]->setToolTip(row[AxesTab::kRole]->text());
  row[AxesTab::kValue]->setToolTip(value_tip);
  row[AxesTab::kAxis]->setData(static_cast<qlonglong>(a.id), Qt::UserRole);
  if (a.bind_block) {
    for (auto* cell : row)
      cell->setBackground(QColor(0xde, 0xeb, 0xf7));
  }
  if (roles.vectorised.count(a.id) != 0) {
    for (auto* cell : row)
      cell->setBackground(QColor(0xfd, 0xe8, 0xd0));
  }
  return row;
}

// A merged axis also shows under its other parents, as a reference.
void AddMergedReferences(const ir::Axis& a, const std::map<std::int64_t, QStandardItem*>& items) {
  for (std::size_t i = 0; i + 1 < a.from.size(); ++i) {
    auto it = items.find(a.from[i]);
    if (it == items.end()) continue;
    auto* ref = Cell(QStringLiteral("↳ %1").arg(QString::fromStdString(a.name)));
    QFont f = ref->font();
    f.setItalic(true);
    ref->setFont(f);
    ref->setForeground(QColor(0x70, 0x70, 0x70));
    it->second->appendRow({ref, Cell(AxesTab::tr("merged into")), Cell(QString()), Cell(QString()),
                           Cell(QString())});  // columns as in Column
  }
}

// "Loop nest of <node>: z0TB [cores] ▸ z0Tb ▸ ..." ("" without a nest).
QString LoopNestText(const ir::Graph& graph, const AxisRoles& roles) {
  const ir::Node* nest_node = roles.nest_node;
  if (nest_node == nullptr || nest_node->sched.axis.empty()) return {};
  QStringList nest;
  for (auto id : nest_node->sched.axis) {
    const ir::Axis* a = graph.FindAxis(id);
    QString s = a != nullptr ? QString::fromStdString(a->name) : QString::number(id);
    QStringList tags;
    if (a != nullptr && a->bind_block) tags << AxesTab::tr("cores");
    if (id == nest_node->sched.loop_axis) tags << AxesTab::tr("loop axis");
    if (roles.vectorised.count(id) != 0) tags << AxesTab::tr("vector");
    if (!tags.isEmpty()) s += QStringLiteral(" <i>[%1]</i>").arg(tags.join(", "));
    nest << s;
  }
  return AxesTab::tr("Loop nest of <b>%1</b>: %2")
      .arg(QString::fromStdString(nest_node->name).toHtmlEscaped(),
           nest.join(QStringLiteral(" ▸ ")));
}

}  // namespace

void AxesTab::showKernel(const RunPtr& run, int kernel, int tcase) {
  model_->clear();
  model_->setHorizontalHeaderLabels(
      {tr("Axis"), tr("Type"), tr("Value"), tr("Role"), tr("Size (symbolic)")});
  loop_nest_->clear();
  const report::KernelReport* k = shownKernel(run, kernel);
  if (k == nullptr) {
    header_->setText(tr("Select a kernel to see how its axes were split."));
    return;
  }
  const int c = EffectiveCase(*k, tcase);
  GraphResult g;
  if (c >= 0) {
    g = KernelGraph(*k, GraphKind::kImpl, c);
  } else {
    g = KernelGraph(*k, GraphKind::kHint, -1);  // refused: the hint graph's axes at least
  }
  if (!g.graph) {
    header_->setText(g.error.toHtmlEscaped());
    return;
  }
  const ir::Graph& graph = *g.graph;
  const sym::Bindings b = CaseBindings(*k, c);
  const AxisRoles roles = RolesOf(graph);
  header_->setText(HeaderText(*k, c, b));

  // The split tree: each axis under the axis it came from (a merge under its last parent).
  std::map<std::int64_t, QStandardItem*> items;
  for (const auto& a : graph.axes) {
    QList<QStandardItem*> row = AxisRow(graph, a, roles, b);
    QStandardItem* parent = nullptr;
    if (!a.from.empty()) {
      if (auto it = items.find(a.from.back()); it != items.end()) parent = it->second;
    }
    if (parent != nullptr) {
      parent->appendRow(row);
    } else {
      model_->appendRow(row);
    }
    items[a.id] = row[kAxis];
    if (a.type == ir::AxisType::kMerged) AddMergedReferences(a, items);
  }
  tree_->expandAll();
  for (int col = 0; col < kSize; ++col)
    tree_->resizeColumnToContents(col);
  tree_->setColumnWidth(kRole, std::min(tree_->columnWidth(kRole), 260));
  if (const QString nest = LoopNestText(graph, roles); !nest.isEmpty()) loop_nest_->setText(nest);
}

}  // namespace af::viewer
