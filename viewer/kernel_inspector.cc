#include "kernel_inspector.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>

#include "axes_tab.h"
#include "cost_tab.h"
#include "fusion_tab.h"
#include "report.pb.h"
#include "run_manager.h"
#include "source_tab.h"
#include "stage_stepper.h"
#include "templates_tab.h"
#include "timeline_tab.h"

namespace af::viewer {

KernelInspector::KernelInspector(RunManager* runs, SelectionModel* selection, QWidget* parent)
    : QWidget(parent), runs_(runs), selection_(selection) {
  title_ = new QLabel(this);
  title_->setTextFormat(Qt::RichText);
  title_->setWordWrap(true);
  groups_ = new QComboBox(this);
  groups_->setToolTip(
      tr("A multi-group kernel runs its groups one after another (a SyncAll before a group that "
         "reads another's workspace); each group has its own tiling cases"));
  groups_->setVisible(false);
  connect(groups_, &QComboBox::activated, this,
          [this](int index) { selection_->selectGroup(index); });
  tabs_ = new QTabWidget(this);
  axes_ = new AxesTab(tabs_);
  templates_ = new TemplatesTab(selection, tabs_);
  cost_ = new CostTab(selection, tabs_);
  source_ = new SourceTab(tabs_);
  fusion_ = new FusionTab(tabs_);
  stages_ = new StageStepper(tabs_);
  timeline_ = new TimelineTab(selection, tabs_);
  tabs_->addTab(axes_, tr("Axes"));
  tabs_->addTab(templates_, tr("Templates"));
  tabs_->addTab(cost_, tr("Cost"));
  tabs_->addTab(source_, tr("Source"));
  tabs_->addTab(fusion_, tr("Fusion"));
  tabs_->addTab(stages_, tr("Stages"));
  tabs_->addTab(timeline_, tr("Timeline"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(title_);
  layout->addWidget(groups_);
  layout->addWidget(tabs_, 1);
  connect(selection_, &SelectionModel::selectionChanged, this,
          &KernelInspector::onSelectionChanged);
  refresh();
}

QStringList KernelInspector::TabNames() {
  return {QStringLiteral("axes"),    QStringLiteral("templates"), QStringLiteral("cost"),
          QStringLiteral("source"),  QStringLiteral("fusion"),    QStringLiteral("stages"),
          QStringLiteral("timeline")};
}

bool KernelInspector::setCurrentTab(const QString& name) {
  const int i = static_cast<int>(TabNames().indexOf(name.toLower()));
  if (i < 0) return false;
  tabs_->setCurrentIndex(i);
  return true;
}

QString KernelInspector::currentTab() const {
  const int i = tabs_->currentIndex();
  return i >= 0 && i < TabNames().size() ? TabNames()[i] : QString();
}

QString KernelInspector::title() const {
  return title_->text();
}

void KernelInspector::onSelectionChanged(const Selection& now, const Selection& before) {
  if (now.run != before.run || now.kernel != before.kernel || now.tcase != before.tcase ||
      now.fallback != before.fallback || now.group != before.group) {
    refresh();
    return;
  }
  if (now.node != before.node) {
    source_->showNode(now.node);
    fusion_->showNode(now.node);
  }
}

void KernelInspector::refresh() {
  const Selection& sel = selection_->current();
  const RunPtr run = runs_->run(sel.run);
  const auto* k = run ? run->kernel(sel.kernel) : nullptr;
  if (k == nullptr) {
    title_->setText(run ? tr("<b>%1</b> — select a kernel").arg(run->title.toHtmlEscaped())
                        : tr("No kernel selected"));
  } else {
    title_->setText(tr("<b>%1</b> (from %2) · %3")
                        .arg(QString::fromStdString(k->name()).toHtmlEscaped(),
                             GraphName(*k).toHtmlEscaped(), run->title.toHtmlEscaped()));
    if (k->groups_size() > 0) {
      title_->setText(title_->text() + tr(" · %n groups in one kernel", "", k->groups_size()));
    }
  }
  fillGroups(k, sel.group);
  for (InspectorTab* tab : std::initializer_list<InspectorTab*>{axes_, templates_, cost_, source_,
                                                                fusion_, stages_, timeline_}) {
    tab->setGroup(sel.group);
    tab->showKernel(run, k != nullptr ? sel.kernel : -1, sel.tcase);
    tab->showNode(sel.node);
  }
  // A fallback / unfused op: its reason is shown in the Fusion tab.
  const report::FallbackReport* fb = (k == nullptr && run) ? run->fallback(sel.fallback) : nullptr;
  if (fb != nullptr) {
    title_->setText(tr("<b>%1</b> (%2) · %3")
                        .arg(QString::fromStdString(fb->name()).toHtmlEscaped(),
                             run->fallbackGroupName().chopped(1), run->title.toHtmlEscaped()));
    fusion_->showFallback(run, sel.fallback);
    tabs_->setCurrentWidget(fusion_);
  }
}

// One entry per group of a multi-group kernel: "group 1 · <graph> · <chosen case> · after SyncAll".
void KernelInspector::fillGroups(const report::KernelReport* k, int group) {
  const QSignalBlocker block(groups_);
  groups_->clear();
  const bool show = k != nullptr && k->groups_size() > 0;
  groups_->setVisible(show);
  if (!show) return;
  for (int g = 0; g < k->groups_size(); ++g) {
    const report::KernelReport& gr = k->groups(g);
    QStringList parts{tr("group %1 of %2").arg(g).arg(k->groups_size()),
                      QString::fromStdString(gr.name())};
    if (gr.has_tiling() && gr.tiling().chosen_case() >= 0) {
      parts << tr("%1, %2 cycles")
                   .arg(ShortCaseName(gr, gr.tiling().chosen_case()))
                   .arg(gr.tiling().modeled_cycles(), 0, 'f', 0);
    } else {
      parts << tr("%n case(s)", "", gr.cases_size());
    }
    if (gr.after_sync_all()) parts << tr("after SyncAll");
    groups_->addItem(parts.join(QStringLiteral(" · ")));
  }
  groups_->setCurrentIndex(ShownGroup(*k, group));
}

}  // namespace af::viewer
