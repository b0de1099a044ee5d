#include "cost_tab.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QStackedBarSeries>
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

QChartView* MakeView(QWidget* parent) {
  auto* v = new QChartView(parent);
  v->setRenderHint(QPainter::Antialiasing);
  v->setMinimumHeight(150);
  return v;
}

}  // namespace

CostTab::CostTab(SelectionModel* selection, QWidget* parent)
    : InspectorTab(parent), selection_(selection) {
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::RichText);
  cycles_view_ = MakeView(this);
  ub_view_ = MakeView(this);
  cores_view_ = MakeView(this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(message_);
  layout->addWidget(cycles_view_, 1);
  layout->addWidget(ub_view_, 1);
  layout->addWidget(cores_view_, 1);
  showKernel(nullptr, -1, -1);
}

QString CostTab::message() const {
  return message_->text();
}

void CostTab::showKernel(const RunPtr& run, int kernel, int tcase) {
  categories_.clear();
  cycles_.clear();
  ub_bytes_.clear();
  cores_.clear();
  ub_capacity_ = 0;
  core_count_ = 0;
  chosen_ = -1;
  selected_ = -1;
  const report::KernelReport* k = run ? run->kernel(kernel) : nullptr;
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
    }
    message_->setText(tr("Per case under %1 on %2; <span style='color:%3'>■</span> chosen, "
                         "<span style='color:%4'>■</span> selected. Click a bar to select a case.")
                          .arg(BindingsText(run->request.bindings), QString::fromStdString(t.soc()),
                               kChosen.name(), kSelected.name()));
  }
  rebuild();
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
        labels << (fits ? categories_[i] + QStringLiteral("\n") +
                              loc.toString((*s.values)[i], 'f', s.values == &cycles_ ? 1 : 0)
                        : categories_[i]);
      }
      auto* x = new QBarCategoryAxis;
      x->append(labels);
      chart->addAxis(x, Qt::AlignBottom);
      series->attachAxis(x);
      double top = 0;
      for (double v : *s.values)
        top = std::max(top, v);
      top = std::max(top, s.limit);
      auto* y = new QValueAxis;
      y->setRange(0, top > 0 ? top * 1.12 : 1);
      y->setLabelFormat(QStringLiteral("%.0f"));
      y->applyNiceNumbers();
      chart->addAxis(y, Qt::AlignLeft);
      series->attachAxis(y);
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
        line->attachAxis(y);
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

}  // namespace af::viewer
