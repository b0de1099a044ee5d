#include "cost_tab.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QScrollArea>
#include <QStackedBarSeries>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "report.pb.h"
#include "selection_model.h"

namespace af::viewer {
namespace {

const QColor kChosen(0xe6, 0x55, 0x0d);
const QColor kSelected(0x31, 0x82, 0xbd);
const QColor kOther(0x9e, 0xca, 0xe1);
const QColor kBottleneck(0xb0, 0x00, 0x00);
// MTE2, MTE3, VEC, SCALAR, then the op head cost.
const QColor kPipeColors[] = {QColor(0x6b, 0xae, 0xd6), QColor(0x74, 0xc4, 0x76),
                              QColor(0xfd, 0xae, 0x6b), QColor(0xbc, 0xbd, 0xdc),
                              QColor(0x96, 0x96, 0x96)};

QChartView* MakeView(QWidget* parent) {
  auto* v = new QChartView(parent);
  v->setRenderHint(QPainter::Antialiasing);
  v->setMinimumHeight(170);
  return v;
}

QString Num(double v, int decimals) {
  return QLocale::c().toString(v, 'f', decimals);
}

// What the solution's binding constraint means (CaseReport.binding).
QString BindingMeaning(const QString& b) {
  if (b == QLatin1String("UB")) return CostTab::tr("the tile is as large as the UB allows");
  if (b == QLatin1String("DIM")) return CostTab::tr("the tile holds the whole dim");
  if (b == QLatin1String("CORES")) return CostTab::tr("the work was split to use every core");
  if (b == QLatin1String("UB_CORE_TRADEOFF"))
    return CostTab::tr("the tile was shrunk to give idle cores work");
  if (b == QLatin1String("SEARCH"))
    return CostTab::tr("picked by the solver's search (or a core-count gear)");
  if (b == QLatin1String("NONE")) return CostTab::tr("no solution");
  return QString();
}

// "A2/A3 cost tables V1" for the line above the charts.
// The ATT model's cost tables, for the line above the charts and the details table.
QString PerfTableName(int table) {
  switch (table) {
    case 1:
      return CostTab::tr("V1 cost tables (A2/A3)");
    case 2:
      return CostTab::tr("V2 cost tables (ascend950)");
    default:
      return CostTab::tr("cost tables not recorded");
  }
}

// The axis of a chart over the cases, with the value range [0, top].
void AddAxes(QChart* chart, QAbstractSeries* series, const QStringList& labels, double top) {
  auto* x = new QBarCategoryAxis;
  x->append(labels);
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  auto* y = new QValueAxis;
  y->setRange(0, top > 0 ? top * 1.12 : 1);
  y->setLabelFormat(QStringLiteral("%.0f"));
  y->applyNiceNumbers();
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(y);
}

}  // namespace

CostTab::CostTab(SelectionModel* selection, QWidget* parent)
    : InspectorTab(parent), selection_(selection) {
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::RichText);
  // The charts and the details scroll together when the tab is short.
  auto* body = new QWidget;
  cycles_view_ = MakeView(body);
  pipes_view_ = MakeView(body);
  pipes_view_->setMinimumHeight(210);
  ub_view_ = MakeView(body);
  cores_view_ = MakeView(body);
  pgo_label_ = new QLabel(body);
  pgo_label_->setObjectName(QStringLiteral("pgoText"));
  pgo_label_->setWordWrap(true);
  pgo_label_->setTextFormat(Qt::RichText);
  pgo_view_ = MakeView(body);
  pgo_view_->setObjectName(QStringLiteral("pgoChart"));
  pgo_view_->setMinimumHeight(220);
  details_ = new QStandardItemModel(this);
  details_view_ = new QTableView(body);
  details_view_->setModel(details_);
  details_view_->verticalHeader()->hide();
  details_view_->verticalHeader()->setDefaultSectionSize(details_view_->fontMetrics().height() + 6);
  details_view_->horizontalHeader()->setStretchLastSection(true);
  details_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  details_view_->setSelectionMode(QAbstractItemView::NoSelection);
  details_view_->setWordWrap(false);
  details_view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The selected case's formulas: monospace, wrapped with a hanging indent, selectable.
  formulas_box_ = new QWidget(body);
  formulas_title_ = new QLabel(formulas_box_);
  QFont title_font = formulas_title_->font();
  title_font.setBold(true);
  formulas_title_->setFont(title_font);
  formulas_view_ = new QLabel(formulas_box_);
  formulas_view_->setObjectName(QStringLiteral("costFormulas"));
  formulas_view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  formulas_view_->setTextFormat(Qt::RichText);
  formulas_view_->setWordWrap(true);
  formulas_view_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  formulas_view_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  formulas_view_->setFrameShape(QFrame::StyledPanel);
  formulas_view_->setBackgroundRole(QPalette::Base);
  formulas_view_->setAutoFillBackground(true);
  formulas_view_->setMargin(4);
  formulas_view_->setToolTip(
      tr("The ATT cost model of this case as formulas over its tiling variables, the size "
         "symbols and block_dim: per pipe, the cycles of the busiest core (with the pipe's head "
         "cost), and the modelled cycles = the slowest pipe + the op head cost. They do not "
         "depend on the bindings."));
  auto* formulas_layout = new QVBoxLayout(formulas_box_);
  formulas_layout->setContentsMargins(0, 4, 0, 4);
  formulas_layout->setSpacing(2);
  formulas_layout->addWidget(formulas_title_);
  formulas_layout->addWidget(formulas_view_);
  auto* body_layout = new QVBoxLayout(body);
  body_layout->setContentsMargins(0, 0, 0, 0);
  body_layout->addWidget(cycles_view_, 1);
  body_layout->addWidget(pipes_view_, 1);
  body_layout->addWidget(pgo_label_);
  body_layout->addWidget(pgo_view_, 1);
  body_layout->addWidget(details_view_);
  body_layout->addWidget(formulas_box_);
  body_layout->addWidget(ub_view_, 1);
  body_layout->addWidget(cores_view_, 1);
  // Takes the room of the hidden charts when only the formulas are shown.
  body_layout->addStretch();
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(body);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(message_);
  layout->addWidget(scroll, 1);
  showKernel(nullptr, -1, -1);
}

QString CostTab::PipeName(int pipe) {
  static const char* const kNames[] = {"MTE2", "MTE3", "VEC", "SCALAR"};
  return pipe >= 0 && pipe < kPipes ? QString::fromLatin1(kNames[pipe]) : QString();
}

QString CostTab::CubePipeName(int pipe) {
  static const char* const kNames[] = {"MTE2", "MTE1", "CUBE", "FIXP"};
  return pipe >= 0 && pipe < kCubePipes ? QString::fromLatin1(kNames[pipe]) : QString();
}

QString CostTab::detail(DetailRow row) const {
  const QStandardItem* item = details_->item(row, 1);
  return item != nullptr ? item->text() : QString();
}

QString CostTab::message() const {
  return message_->text();
}

QString CostTab::formulasTitle() const {
  return formulas_title_->text();
}

void CostTab::showKernel(const RunPtr& run, int kernel, int tcase) {
  categories_.clear();
  cycles_.clear();
  ub_bytes_.clear();
  cores_.clear();
  pipes_.clear();
  heads_.clear();
  bottlenecks_.clear();
  ub_capacity_ = 0;
  core_count_ = 0;
  chosen_ = -1;
  selected_ = -1;
  cube_ = false;
  cube_pipes_.clear();
  const report::KernelReport* k = shownKernel(run, kernel);
  if (k != nullptr && k->has_cube()) {
    showCube(*k);
    fillFormulas(run, kernel, tcase);
    fillPgo(run, kernel);
    rebuild();
    rebuildPipes();
    return;
  }
  if (k == nullptr) {
    message_->setText(tr("Select a kernel to compare the cost of its tiling cases."));
  } else if (k->cases_size() == 0) {
    message_->setText(tr("No tiling cases: the kernel was refused (%1).")
                          .arg(QString::fromStdString(k->error_code())));
  } else if (!k->has_tiling()) {
    message_->setText(
        tr("Sizes are unbound, so the cases have no modelled cost yet: bind them "
           "under Flags & shapes and re-run."));
  } else {
    const auto& t = k->tiling();
    chosen_ = t.chosen_case();
    selected_ = EffectiveCase(*k, tcase);
    ub_capacity_ = static_cast<double>(t.ub_capacity());
    core_count_ = t.cores();
    for (int c = 0; c < k->cases_size(); ++c) {
      const auto& cr = k->cases(c);
      categories_ << ShortCaseName(*k, c) + (cr.feasible() ? QString() : tr(" (no fit)"));
      cycles_ << (cr.feasible() ? cr.modeled_cycles() : 0.0);
      ub_bytes_ << (cr.feasible() ? static_cast<double>(cr.ub_bytes()) : 0.0);
      cores_ << (cr.feasible() ? static_cast<double>(cr.block_dim()) : 0.0);
      QList<double> pipes(kPipes, 0.0);
      int bottleneck = -1;
      if (cr.feasible()) {
        pipes = {cr.mte2_cycles(), cr.mte3_cycles(), cr.vec_cycles(), cr.scalar_cycles()};
        bottleneck = static_cast<int>(std::max_element(pipes.begin(), pipes.end()) - pipes.begin());
      }
      pipes_ << pipes;
      heads_ << (cr.feasible() ? cr.head_cycles() : 0.0);
      bottlenecks_ << bottleneck;
    }
    const QString solver = t.solver().empty()
                               ? tr("solver not recorded")
                               : tr("solver %1").arg(QString::fromStdString(t.solver()));
    message_->setText(tr("Per case under %1 on %2 (%3, %4); "
                         "<span style='color:%5'>■</span> chosen, "
                         "<span style='color:%6'>■</span> selected, "
                         "<span style='color:%7'>■</span> bottleneck pipe. Click a bar to select "
                         "a case.")
                          .arg(BindingsText(run->request.bindings), QString::fromStdString(t.soc()),
                               solver.toHtmlEscaped(), PerfTableName(t.perf_table()),
                               kChosen.name(), kSelected.name(), kBottleneck.name()));
  }
  fillDetails(run, kernel);
  fillFormulas(run, kernel, tcase);
  fillPgo(run, kernel);
  rebuild();
  rebuildPipes();
}

// The cube group: one bar for the chosen CV template, its cube pipes, the product in numbers.
void CostTab::showCube(const report::KernelReport& k) {
  cube_ = true;
  const auto& c = k.cube();
  details_->clear();
  if (!c.tiled()) {
    message_->setText(
        tr("The cube group of a cube + vector kernel: sizes are unbound, so its "
           "cube tiling has no modelled cost yet."));
    details_view_->setVisible(false);
    return;
  }
  chosen_ = 0;
  selected_ = 0;
  categories_ << QString::fromStdString(c.template_name());
  cycles_ << c.cycles();
  ub_bytes_ << 0.0;
  cores_ << static_cast<double>(c.block_dim());
  cube_pipes_ = {c.mte2_cycles(), c.mte1_cycles(), c.cube_cycles(), c.fixpipe_cycles()};
  heads_ << 0.0;
  bottlenecks_ << static_cast<int>(std::max_element(cube_pipes_.begin(), cube_pipes_.end()) -
                                   cube_pipes_.begin());
  pipes_ << cube_pipes_;
  message_->setText(tr("The cube group of a cube + vector kernel (AIC cores): the %1 template, "
                       "%2.")
                        .arg(QString::fromStdString(c.template_name()),
                             QString::fromStdString(c.reason()).toHtmlEscaped()));
  fillCubeDetails(k);
}

void CostTab::fillCubeDetails(const report::KernelReport& k) {
  const auto& c = k.cube();
  const QLocale loc = QLocale::c();
  details_->setHorizontalHeaderLabels({tr("Cube group"), tr("Value")});
  auto add = [this](const QString& what, const QString& value) {
    auto* a = new QStandardItem(what);
    auto* b = new QStandardItem(value);
    a->setEditable(false);
    b->setEditable(false);
    details_->appendRow({a, b});
  };
  QString batch;
  for (const auto& b : c.batch())
    batch += QString::fromStdString(b) + QStringLiteral(" × ");
  add(tr("Template"), QStringLiteral("%1 (%2)").arg(QString::fromStdString(c.template_name()),
                                                    QString::fromStdString(c.reason())));
  add(tr("Product"), QStringLiteral("%1%2 × %3 × %4 (M × N × K), %5%6%7")
                         .arg(batch, QString::fromStdString(c.m()), QString::fromStdString(c.n()),
                              QString::fromStdString(c.k()), QString::fromStdString(c.in_dtype()),
                              c.transpose_x1() ? tr(", x1 transposed") : QString(),
                              c.transpose_x2() ? tr(", x2 transposed") : QString()));
  add(tr("kFixpip offered"), c.fixpipe_offered() ? tr("yes: %1%2, skips group %3")
                                                       .arg(c.fix_relu() ? tr("ReLU, ") : QString(),
                                                            QString::fromStdString(c.fix_dtype()))
                                                       .arg(c.epilogue_group())
                                                 : tr("no: the epilogue needs the vector cores"));
  add(tr("Base tile"),
      QStringLiteral("%1 × %2 × %3").arg(c.base_m()).arg(c.base_n()).arg(c.base_k()));
  add(tr("Tiles / cube cores"), QStringLiteral("%1 / %2").arg(c.tiles()).arg(c.block_dim()));
  for (int p = 0; p < kCubePipes; ++p)
    add(tr("%1 cycles").arg(CubePipeName(p)), loc.toString(cube_pipes_.value(p), 'f', 1));
  add(tr("Modelled cycles"), loc.toString(c.cycles(), 'f', 1));
  add(tr("MTE2 bytes (GM → L1)"), loc.toString(static_cast<double>(c.mte2_bytes()), 'f', 0));
  add(tr("LoadData fractals"), loc.toString(static_cast<double>(c.mte1_fractals()), 'f', 0));
  add(tr("Mmad steps"), loc.toString(static_cast<double>(c.cube_steps()), 'f', 0));
  add(tr("Fixpipe fractals"), loc.toString(static_cast<double>(c.fix_fractals()), 'f', 0));
  details_view_->setVisible(true);
}

void CostTab::fillDetails(const RunPtr& run, int kernel) {
  details_->clear();
  const report::KernelReport* k = shownKernel(run, kernel);
  if (k == nullptr || !k->has_tiling() || selected_ < 0 || selected_ >= k->cases_size()) {
    details_view_->setVisible(false);
    return;
  }
  const auto& t = k->tiling();
  const auto& cr = k->cases(selected_);
  const bool fits = cr.feasible();
  const QString none = QStringLiteral("—");
  details_->setHorizontalHeaderLabels({tr("Selected case"), tr("Value")});
  auto add = [this](const QString& what, const QString& value, const QString& tip,
                    bool bold = false) {
    auto* a = new QStandardItem(what);
    auto* b = new QStandardItem(value);
    for (auto* item : {a, b}) {
      item->setEditable(false);
      item->setToolTip(tip);
      if (bold) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
      }
    }
    details_->appendRow({a, b});
    return b;
  };
  add(tr("Solver"),
      t.solver().empty() ? tr("— (not recorded)") : QString::fromStdString(t.solver()),
      tr("--autofuse_att_algorithm: AxesReorder (default), HighPerf or Exhaustive"));
  add(tr("Cost tables"), PerfTableName(t.perf_table()),
      tr("The ATT model's pipe coefficients: V1 for A2/A3 (ascend910b, ascend910_93), V2 for "
         "ascend950"));
  QString role = selected_ == chosen_ ? tr("chosen") : tr("not chosen");
  if (!fits) role = tr("does not fit");
  add(tr("Case"), QStringLiteral("%1 (%2)").arg(ShortCaseName(*k, selected_), role),
      tr("The case these numbers are for: select another in the charts, the Templates table or "
         "the navigator"));
  const QString binding = QString::fromStdString(cr.binding());
  const QString meaning = BindingMeaning(binding);
  add(tr("Binding constraint"),
      binding.isEmpty() ? none
                        : (meaning.isEmpty() ? binding : binding + QStringLiteral(" — ") + meaning),
      tr("What limited the solution: UB (tile as large as the UB allows), DIM (whole dim), CORES "
         "(split to use every core), UB_CORE_TRADEOFF (tile shrunk for idle cores), SEARCH "
         "(picked by the search or a core-count gear), NONE"));
  const int bottleneck = bottlenecks_.value(selected_, -1);
  const QList<double> pipes = pipes_.value(selected_);
  for (int p = 0; p < kPipes; ++p) {
    const bool is_bottleneck = fits && p == bottleneck;
    QStandardItem* v = add(
        tr("%1 cycles").arg(PipeName(p)),
        fits ? Num(pipes.value(p), 1) + (is_bottleneck ? tr("  ◀ bottleneck") : QString()) : none,
        tr("Cycles of the %1 pipe on the busiest core, with the pipe's head cost").arg(PipeName(p)),
        is_bottleneck);
    if (is_bottleneck) v->setForeground(kBottleneck);
  }
  const double head = cr.head_cycles();
  QString head_text = none;
  if (fits) {
    head_text = Num(head, 1);
    if (cr.block_dim() > 0 && head > 0) {
      head_text += tr(" (%1 cores × %2)")
                       .arg(cr.block_dim())
                       .arg(Num(head / static_cast<double>(cr.block_dim()), 1));
    }
  }
  add(tr("Op head cost"), head_text,
      tr("block_dim × OpHeadCost: the cost of starting the kernel on each core"));
  add(tr("Modelled cycles"),
      fits ? tr("%1 = max pipe %2 + head %3")
                 .arg(Num(cr.modeled_cycles(), 1),
                      Num(bottleneck >= 0 ? pipes.value(bottleneck) : 0.0, 1), Num(head, 1))
           : none,
      tr("The busiest pipe of the busiest core plus the op head cost"), true);
  const QString totals = tr("The model's total over all cores");
  add(tr("MTE2 bytes (model)"), fits ? Num(static_cast<double>(cr.model_mte2_bytes()), 0) : none,
      totals + tr(": bytes loaded from GM"));
  add(tr("MTE3 bytes (model)"), fits ? Num(static_cast<double>(cr.model_mte3_bytes()), 0) : none,
      totals + tr(": bytes stored to GM"));
  add(tr("Vector repeats (model)"),
      fits ? Num(static_cast<double>(cr.model_vec_repeats()), 0) : none,
      totals + tr(": vector instruction repeats"));
  // The traffic figure: the case's MTE2 bytes over the kernel's compulsory bytes; the reasons
  // for re-reads are recorded for the chosen case.
  QString traffic_tip =
      tr("MTE2 bytes (model) over the compulsory bytes: every byte the kernel's loads address, "
         "read once");
  if (selected_ == chosen_) {
    for (const auto& d : t.traffic_reasons())
      traffic_tip += QStringLiteral("\n") + QString::fromStdString(d.code() + ": " + d.message());
  }
  add(tr("Traffic (MTE2 / compulsory)"),
      fits && t.compulsory_mte2_bytes() > 0
          ? tr("%1× of %2 B")
                .arg(Num(cr.traffic_ratio(), 2),
                     Num(static_cast<double>(t.compulsory_mte2_bytes()), 0))
          : none,
      traffic_tip);
  details_view_->resizeColumnToContents(0);
  const int rows = details_->rowCount();
  details_view_->setFixedHeight(details_view_->horizontalHeader()->sizeHint().height() +
                                rows * details_view_->verticalHeader()->defaultSectionSize() + 4);
  details_view_->setVisible(true);
}

void CostTab::fillFormulas(const RunPtr& run, int kernel, int tcase) {
  formulas_.clear();
  const report::KernelReport* k = shownKernel(run, kernel);
  // The formulas do not depend on the bindings: shown for unbound runs too.
  const int c = k != nullptr && k->cases_size() > 0 ? EffectiveCase(*k, tcase) : -1;
  if (c >= 0) {
    for (const std::string& f : k->cases(c).pipe_formulas())
      formulas_ << QString::fromStdString(f);
  }
  if (formulas_.isEmpty()) {
    formulas_title_->clear();
    formulas_view_->clear();
    formulas_box_->setVisible(false);
    return;
  }
  formulas_title_->setText(tr("Cost formulas (symbolic) of %1").arg(ShortCaseName(*k, c)));
  // One paragraph per formula, its name in bold; lines that wrap are indented under it.
  const int indent = 4 * formulas_view_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
  QString html;
  for (const QString& f : formulas_) {
    const int eq = f.indexOf(QLatin1String(" = "));
    const QString body = eq > 0 ? QStringLiteral("<b>%1</b>%2")
                                      .arg(f.left(eq).toHtmlEscaped(), f.mid(eq).toHtmlEscaped())
                                : f.toHtmlEscaped();
    html += QStringLiteral(
                "<p style='margin-top:0; margin-bottom:2px; margin-left:%1px; text-indent:-%1px; "
                "white-space:pre-wrap'>%2</p>")
                .arg(indent)
                .arg(body);
  }
  formulas_view_->setText(html);
  formulas_box_->setVisible(true);
}

void CostTab::rebuild() {
  struct Spec {
    QChartView* view;
    QString title;
    const QList<double>* values;
    double limit;  // 0: none
    QString limit_name;
  };
  const QLocale loc = QLocale::c();
  const Spec specs[] = {
      {cycles_view_, tr("Modelled cycles (lower is better)"), &cycles_, 0, QString()},
      {ub_view_, tr("UB occupancy (bytes)"), &ub_bytes_, ub_capacity_,
       tr("UB capacity %1 B").arg(loc.toString(ub_capacity_, 'f', 0))},
      {cores_view_, tr("Cores used (block_dim)"), &cores_, core_count_,
       tr("%1 cores").arg(core_count_)},
  };
  for (const Spec& s : specs) {
    auto* chart = new QChart;
    chart->setTitle(s.title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setVisible(s.limit > 0);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setMargins(QMargins(4, 2, 4, 2));
    if (!categories_.isEmpty()) {
      // Three stacked sets with one value per category each, so every case is a single bar in
      // the colour of its role.
      auto* chosen = new QBarSet(tr("chosen"));
      auto* selected = new QBarSet(tr("selected"));
      auto* other = new QBarSet(tr("other"));
      chosen->setColor(kChosen);
      selected->setColor(kSelected);
      other->setColor(kOther);
      for (int i = 0; i < categories_.size(); ++i) {
        const double v = (*s.values)[i];
        *chosen << (i == chosen_ ? v : 0.0);
        *selected << (i != chosen_ && i == selected_ ? v : 0.0);
        *other << (i != chosen_ && i != selected_ ? v : 0.0);
      }
      auto* series = new QStackedBarSeries;
      series->append(chosen);
      series->append(selected);
      series->append(other);
      series->setBarWidth(0.6);
      chart->addSeries(series);
      // Values go under the case names: bar labels would repeat on the empty stacked sets.
      QStringList labels;
      for (int i = 0; i < categories_.size(); ++i) {
        const bool fits = !categories_[i].endsWith(tr(" (no fit)"));
        labels << (fits ? categories_[i] + QStringLiteral("<br>") +
                              loc.toString((*s.values)[i], 'f', s.values == &cycles_ ? 1 : 0)
                        : categories_[i]);
      }
      double top = 0;
      for (double v : *s.values)
        top = std::max(top, v);
      top = std::max(top, s.limit);
      AddAxes(chart, series, labels, top);
      auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
      // Hide the per-set legend entries; only the limit line is named.
      for (auto* marker : chart->legend()->markers(series))
        marker->setVisible(false);
      if (s.limit > 0) {
        auto* line = new QLineSeries;
        line->setName(s.limit_name);
        line->setPen(QPen(QColor(0xb0, 0x00, 0x00), 1.5, Qt::DashLine));
        *line << QPointF(-0.5, s.limit) << QPointF(categories_.size() - 0.5, s.limit);
        chart->addSeries(line);
        auto* lx = new QValueAxis;
        lx->setRange(-0.5, categories_.size() - 0.5);
        lx->setVisible(false);
        chart->addAxis(lx, Qt::AlignTop);
        line->attachAxis(lx);
        if (y != nullptr) line->attachAxis(y);
      }
      connect(series, &QStackedBarSeries::clicked, this,
              [this](int index, QBarSet*) { selection_->selectCase(index); });
    }
    QChart* old = s.view->chart();
    s.view->setChart(chart);
    delete old;
    s.view->setVisible(!categories_.isEmpty());
  }
}

void CostTab::rebuildPipes() {
  auto* chart = new QChart;
  chart->setTitle(cube_ ? tr("Cube pipe cycles of the busiest cube core")
                        : tr("Pipe cycles of the busiest core and op head cost"));
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignTop);
  chart->setMargins(QMargins(4, 2, 4, 2));
  if (!categories_.isEmpty()) {
    // One set per pipe (and one for the head cost); each case's bottleneck bar is drawn selected,
    // in the bottleneck colour.
    auto* series = new QBarSeries;
    double top = 0;
    const int n_pipes = cube_ ? static_cast<int>(kCubePipes) : static_cast<int>(kPipes);
    for (int p = 0; p <= n_pipes; ++p) {
      if (cube_ && p == n_pipes) break;  // no op head on the cube
      auto* set =
          new QBarSet(p < n_pipes ? (cube_ ? CubePipeName(p) : PipeName(p)) : tr("op head"));
      set->setColor(kPipeColors[p]);
      set->setSelectedColor(kBottleneck);
      for (int i = 0; i < categories_.size(); ++i) {
        const double v = p < n_pipes ? pipes_[i][p] : heads_[i];
        *set << v;
        top = std::max(top, v);
        if (p == bottlenecks_[i]) set->selectBar(i);
      }
      series->append(set);
    }
    series->setBarWidth(0.8);
    chart->addSeries(series);
    QStringList labels;
    for (int i = 0; i < categories_.size(); ++i) {
      const QString star = i == chosen_ ? QStringLiteral("★ ") : QString();
      const QString pipe = cube_ ? CubePipeName(bottlenecks_[i]) : PipeName(bottlenecks_[i]);
      labels << (bottlenecks_[i] >= 0 ? star + categories_[i] + QStringLiteral("<br>") + pipe
                                      : star + categories_[i]);
    }
    AddAxes(chart, series, labels, top);
    connect(series, &QBarSeries::clicked, this,
            [this](int index, QBarSet*) { selection_->selectCase(index); });
  }
  QChart* old = pipes_view_->chart();
  pipes_view_->setChart(chart);
  delete old;
  pipes_view_->setVisible(!categories_.isEmpty());
}

int CostTab::pgoPointCount() const {
  int n = 0;
  for (const auto& pts : pgo_points_)
    n += static_cast<int>(pts.size());
  return n;
}

QString CostTab::pgoTip(PgoRole role, int i) const {
  return pgo_tips_[role].value(i);
}

QString CostTab::pgoText() const {
  return pgo_label_->text();
}

// The PGO search of the kernel (TilingReport.pgo): a scatter of modelled cycles over block_dim.
void CostTab::fillPgo(const RunPtr& run, int kernel) {
  for (int r = 0; r < kPgoRoles; ++r) {
    pgo_points_[r].clear();
    pgo_tips_[r].clear();
  }
  const report::KernelReport* k = shownKernel(run, kernel);
  const bool has = k != nullptr && k->has_tiling() && k->tiling().has_pgo();
  pgo_label_->setVisible(has);
  pgo_view_->setVisible(has);
  if (!has) {
    pgo_label_->clear();
    QChart* old = pgo_view_->chart();
    pgo_view_->setChart(new QChart);
    delete old;
    return;
  }
  const report::PgoReport& p = k->tiling().pgo();
  auto add = [&](PgoRole role, const report::PgoPoint& pt) {
    pgo_points_[role] << QPointF(pt.block_dim(), pt.cycles());
    const QString name = pt.case_index() >= 0 && pt.case_index() < k->cases_size()
                             ? ShortCaseName(*k, pt.case_index())
                             : QString::number(pt.case_index());
    pgo_tips_[role] << tr("case %1 (%2), tile %3, core budget %4, block_dim %5: %6 cycles")
                           .arg(pt.case_index())
                           .arg(name)
                           .arg(pt.tile())
                           .arg(pt.use())
                           .arg(pt.block_dim())
                           .arg(Num(pt.cycles(), 1));
  };
  for (int i = 0; i < p.top_size(); ++i)
    add(i == 0 ? kPgoBest : kPgoKept, p.top(i));
  add(kPgoSolver, p.solver());
  const report::PgoPoint* best = p.top_size() > 0 ? &p.top(0) : nullptr;
  pgo_label_->setText(
      tr("<b>PGO search</b> (%1, step_max %2, top %3): %4 points priced, %5 kept. Solver: case "
         "%6 block_dim %7, %8 cycles; best: %9 — <b>gain ×%10</b>. Result file: <tt>%11</tt>")
          .arg(QString::fromStdString(p.algo()).toHtmlEscaped())
          .arg(p.step_max())
          .arg(p.topn())
          .arg(p.evaluated())
          .arg(p.top_size())
          .arg(p.solver().case_index())
          .arg(p.solver().block_dim())
          .arg(Num(p.solver().cycles(), 1),
               best != nullptr ? tr("case %1 block_dim %2, %3 cycles")
                                     .arg(best->case_index())
                                     .arg(best->block_dim())
                                     .arg(Num(best->cycles(), 1))
                               : tr("none feasible"),
               Num(p.gain(), 3), QString::fromStdString(p.file()).toHtmlEscaped()));
  auto* chart = new QChart;
  chart->setTitle(tr("PGO search: modelled cycles over block_dim (hover a point)"));
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignTop);
  chart->setMargins(QMargins(4, 2, 4, 2));
  struct Style {
    PgoRole role;
    QString name;
    QColor color;
    QScatterSeries::MarkerShape shape;
    double size;
  };
  const Style styles[] = {
      {kPgoKept, tr("kept points"), kOther, QScatterSeries::MarkerShapeCircle, 10},
      {kPgoSolver, tr("solver's choice"), kSelected, QScatterSeries::MarkerShapeRectangle, 13},
      {kPgoBest, tr("best (runs)"), kChosen, QScatterSeries::MarkerShapeStar, 18},
  };
  double xmax = 1;
  double ymax = 1;
  for (const auto& pts : pgo_points_)
    for (const QPointF& q : pts) {
      xmax = std::max(xmax, q.x());
      ymax = std::max(ymax, q.y());
    }
  auto* x = new QValueAxis;
  x->setTitleText(tr("block_dim (cores used)"));
  x->setRange(0, xmax * 1.1);
  x->setLabelFormat(QStringLiteral("%.0f"));
  x->applyNiceNumbers();
  chart->addAxis(x, Qt::AlignBottom);
  auto* y = new QValueAxis;
  y->setTitleText(tr("cycles"));
  y->setRange(0, ymax * 1.15);
  y->setLabelFormat(QStringLiteral("%.0f"));
  y->applyNiceNumbers();
  chart->addAxis(y, Qt::AlignLeft);
  for (const Style& st : styles) {
    auto* series = new QScatterSeries;
    series->setName(st.name);
    series->setColor(st.color);
    series->setBorderColor(st.color.darker(140));
    series->setMarkerShape(st.shape);
    series->setMarkerSize(st.size);
    series->append(pgo_points_[st.role]);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    const PgoRole role = st.role;
    connect(series, &QScatterSeries::hovered, this, [this, role](const QPointF& at, bool on) {
      if (!on) return;
      const auto& pts = pgo_points_[role];
      for (int i = 0; i < pts.size(); ++i)
        if (pts[i] == at) QToolTip::showText(QCursor::pos(), pgo_tips_[role].value(i));
    });
  }
  QChart* old = pgo_view_->chart();
  pgo_view_->setChart(chart);
  delete old;
}

}  // namespace af::viewer
