#include "graph_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "compute_style.h"
#include "expand_in_place.h"
#include "graph_scene.h"
#include "graph_view.h"
#include "layout_worker.h"
#include "report.pb.h"
#include "run_manager.h"
#include "timing_log.h"

namespace af::viewer {
namespace {

constexpr int kLargeGraph = 1500;      // nodes; beyond this the panel says layout may take a while
constexpr int kProgressAfterMs = 500;  // a layout running longer shows the progress bar

QToolButton* Button(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setToolTip(tip);
  b->setAutoRaise(true);
  return b;
}

}  // namespace

GraphPanel::GraphPanel(RunManager* runs, SelectionModel* selection, LayoutWorker* layouts,
                       QWidget* parent)
    : QWidget(parent), runs_(runs), selection_(selection), layouts_(layouts) {
  scene_ = new GraphScene(this);
  view_ = new GraphView(scene_, this);
  kind_box_ = new QComboBox(this);
  kind_box_->addItem(tr("Hint graph"), static_cast<int>(GraphKind::kHint));
  kind_box_->addItem(tr("Normalised graph"), static_cast<int>(GraphKind::kNormalized));
  kind_box_->addItem(tr("Impl graph (selected case)"), static_cast<int>(GraphKind::kImpl));
  kind_box_->addItem(tr("Model graph (kernels as clusters)"), static_cast<int>(GraphKind::kModel));
  kind_box_->setToolTip(
      tr("Which graph of the selected kernel to draw; the model graph (FX graphs, case folders) "
         "shows the whole run with each fused kernel as a cluster"));
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Search node name or op type…"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(260);
  search_info_ = new QLabel(this);
  auto* fit = Button(tr("Fit"), tr("Fit the graph into the view (F)"), this);
  auto* zin = Button(tr("+"), tr("Zoom in (wheel up)"), this);
  auto* zout = Button(tr("−"), tr("Zoom out (wheel down)"), this);
  collapse_ = Button(tr("Collapse"), tr("Draw every fused kernel as one box"), this);
  expand_ = Button(tr("Expand"), tr("Draw every fused kernel as a cluster of its ops"), this);
  collapse_->hide();
  expand_->hide();
  model_box_ = new QComboBox(this);
  model_box_->setToolTip(tr("Which model folder's graph to draw (forward, backward, inference)"));
  model_box_->hide();
  grouping_box_ = new QComboBox(this);
  grouping_box_->addItem(tr("Our kernels"), static_cast<int>(Grouping::kOurs));
  grouping_box_->addItem(tr("Inductor's kernels"), static_cast<int>(Grouping::kInductor));
  grouping_box_->setToolTip(
      tr("Which fusion the clusters show: ours, or Inductor's own groups (ir_post_fusion.txt)"));
  grouping_box_->hide();
  engine_box_ = new QComboBox(this);
  engine_box_->addItem(tr("Layout: auto"), static_cast<int>(LayoutEngine::kAuto));
  engine_box_->addItem(tr("Layout: dot"), static_cast<int>(LayoutEngine::kDot));
  engine_box_->addItem(tr("Layout: layered"), static_cast<int>(LayoutEngine::kLayered));
  engine_box_->setToolTip(tr("Graphviz dot draws best but grows steeply with size; the layered "
                             "engine is linear. Auto: dot up to %1 nodes.")
                              .arg(kDotNodeLimit));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 0);  // busy indicator: a layout has no steps to count
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->hide();
  progress_timer_ = new QTimer(this);
  progress_timer_->setSingleShot(true);
  progress_timer_->setInterval(kProgressAfterMs);
  connect(progress_timer_, &QTimer::timeout, progress_, &QProgressBar::show);
  legend_ = new QLabel(this);
  legend_->setTextFormat(Qt::RichText);
  info_ = new QLabel(this);
  info_->setStyleSheet(QStringLiteral("color: #555;"));

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(kind_box_);
  bar->addWidget(model_box_);
  bar->addWidget(grouping_box_);
  bar->addWidget(search_);
  bar->addWidget(search_info_);
  bar->addStretch(1);
  bar->addWidget(collapse_);
  bar->addWidget(expand_);
  bar->addWidget(zout);
  bar->addWidget(zin);
  bar->addWidget(fit);
  bar->addWidget(engine_box_);
  bar->addWidget(progress_);
  auto* foot = new QHBoxLayout;
  foot->setContentsMargins(4, 0, 4, 2);
  foot->addWidget(legend_, 1);
  foot->addWidget(info_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  layout->addLayout(foot);

  connect(kind_box_, &QComboBox::currentIndexChanged, this, [this](int) {
    kind_ = static_cast<GraphKind>(kind_box_->currentData().toInt());
    refresh();
  });
  connect(model_box_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0 && i != model_index_) setModel(i);
  });
  connect(grouping_box_, &QComboBox::currentIndexChanged, this, [this](int) {
    setGrouping(static_cast<Grouping>(grouping_box_->currentData().toInt()));
  });
  connect(engine_box_, &QComboBox::currentIndexChanged, this, [this](int) {
    setLayoutEngine(static_cast<LayoutEngine>(engine_box_->currentData().toInt()));
  });
  connect(layouts_, &LayoutWorker::busyChanged, this, &GraphPanel::setBusy);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) { search(t); });
  connect(search_, &QLineEdit::returnPressed, this, &GraphPanel::findNext);
  connect(fit, &QToolButton::clicked, view_, &GraphView::fit);
  connect(zin, &QToolButton::clicked, view_, &GraphView::zoomIn);
  connect(zout, &QToolButton::clicked, view_, &GraphView::zoomOut);
  connect(scene_, &GraphScene::nodeClicked, this, &GraphPanel::onNodeClicked);
  connect(scene_, &GraphScene::clusterClicked, this, &GraphPanel::onClusterClicked);
  connect(scene_, &GraphScene::clusterDoubleClicked, this, &GraphPanel::toggleCollapsed);
  // Finds the group first, then toggles: toggleCollapsed rebuilds spec_ and the scene, which
  // owns the name the signal passed (iterating spec_ across it was a use after free the ASan
  // stage found).
  connect(scene_, &GraphScene::nodeDoubleClicked, this, [this](const QString& clicked) {
    if (!model_) return;
    const QString name = clicked;
    int group = -1;
    for (const auto& n : spec_.nodes) {
      if (n.name == name && n.collapsed) {
        group = n.group;
        break;
      }
    }
    if (group >= 0) toggleCollapsed(group);
  });
  connect(collapse_, &QToolButton::clicked, this, [this] { setAllCollapsed(true); });
  connect(expand_, &QToolButton::clicked, this, [this] { setAllCollapsed(false); });
  connect(selection_, &SelectionModel::selectionChanged, this, &GraphPanel::onSelectionChanged);
  connect(layouts_, &LayoutWorker::ready, this, &GraphPanel::onLayoutReady);
  refresh();
}

void GraphPanel::setGraphKind(GraphKind kind) {
  kind_box_->setCurrentIndex(kind_box_->findData(static_cast<int>(kind)));
}

void GraphPanel::setModel(int model) {
  if (model < 0) return;
  model_index_ = model;
  {
    const QSignalBlocker block(model_box_);
    if (model < model_box_->count()) model_box_->setCurrentIndex(model);
  }
  if (model_) refresh();
}

void GraphPanel::setGrouping(Grouping grouping) {
  {
    const QSignalBlocker block(grouping_box_);
    grouping_box_->setCurrentIndex(grouping_box_->findData(static_cast<int>(grouping)));
  }
  if (grouping == grouping_) return;
  grouping_ = grouping;
  if (model_) refresh();
}

void GraphPanel::setLayoutEngine(LayoutEngine engine) {
  {
    const QSignalBlocker block(engine_box_);
    engine_box_->setCurrentIndex(engine_box_->findData(static_cast<int>(engine)));
  }
  if (engine == engine_) return;
  engine_ = engine;
  refresh();
}

void GraphPanel::setBusy(bool busy) {
  if (busy) {
    progress_timer_->start();
  } else {
    progress_timer_->stop();
    progress_->hide();
  }
}

QString GraphPanel::collapseKey(int run_id) const {
  return QStringLiteral("%1/%2/%3").arg(run_id).arg(model_index_).arg(static_cast<int>(grouping_));
}

int GraphPanel::groupOfKernel(int kernel) const {
  if (kernel < 0) return -1;
  for (std::size_t i = 0; i < group_kernel_.size(); ++i)
    if (group_kernel_[i] == kernel) return static_cast<int>(i);
  return -1;
}

void GraphPanel::updateModelControls(const std::vector<ModelGraph>& models) {
  const bool show = model_ && !models.empty();
  {
    const QSignalBlocker block(model_box_);
    model_box_->clear();
    for (const auto& m : models)
      model_box_->addItem(m.label);
    if (model_index_ >= static_cast<int>(models.size())) model_index_ = 0;
    model_box_->setCurrentIndex(model_index_);
  }
  model_box_->setVisible(show && models.size() > 1);
  const bool inductor = show && models[static_cast<std::size_t>(model_index_)].has_inductor;
  grouping_box_->setVisible(inductor);
}

bool GraphPanel::wantsModel(const Selection& sel) const {
  const RunPtr run = runs_->run(sel.run);
  return run && GraphScene::HasModelGraph(*run) && (sel.kernel < 0 || kind_ == GraphKind::kModel);
}

QSet<int> GraphPanel::collapsedKernels() const {
  const RunPtr run = runs_->run(selection_->current().run);
  return run ? collapsed_.value(collapseKey(run->id)) : QSet<int>();
}

void GraphPanel::setKernelCollapsed(int kernel, bool collapsed) {
  const RunPtr run = runs_->run(selection_->current().run);
  if (!run || kernel < 0) return;
  QSet<int>& set = collapsed_[collapseKey(run->id)];
  if (collapsed == set.contains(kernel)) return;
  if (collapsed) {
    set.insert(kernel);
  } else {
    set.remove(kernel);
    expanding_ = kernel;  // refresh() may expand it in the drawn layout
  }
  if (model_) refresh();
  expanding_ = -1;
}

void GraphPanel::setAllCollapsed(bool collapsed) {
  const RunPtr run = runs_->run(selection_->current().run);
  if (!run) return;
  QSet<int>& set = collapsed_[collapseKey(run->id)];
  set.clear();
  if (collapsed) {
    const int groups = static_cast<int>(ModelGroups(*run, model_index_, grouping_).size());
    for (int i = 0; i < groups; ++i)
      set.insert(i);
  }
  if (model_) refresh();
}

void GraphPanel::toggleCollapsed(int kernel) {
  setKernelCollapsed(kernel, !collapsedKernels().contains(kernel));
}

void GraphPanel::onSelectionChanged(const Selection& now, const Selection& before) {
  // The model graph stays drawn while the selection moves within its run: only the highlights
  // follow (the kernel's cluster, the node or unfused op).
  if (model_ && now.run == before.run && wantsModel(now)) {
    const RunPtr run = runs_->run(now.run);
    scene_->setSelectedGroup(groupOfKernel(now.kernel));
    QString node = now.node;
    if (node.isEmpty() && now.fallback >= 0 && run->fallback(now.fallback) != nullptr)
      node = QString::fromStdString(run->fallback(now.fallback)->name());
    const QRectF r = scene_->setSelectedNode(node);
    if (!r.isNull()) view_->centerOnRect(r);
    return;
  }
  const bool graph_changed = now.run != before.run || now.kernel != before.kernel ||
                             now.group != before.group ||
                             (kind_ == GraphKind::kImpl && now.tcase != before.tcase);
  if (graph_changed) {
    refresh();
    return;
  }
  if (now.node != before.node && !overview_) {
    const QRectF r = scene_->setSelectedNode(now.node);
    if (!r.isNull()) view_->centerOnRect(r);
  }
}

void GraphPanel::refresh() {
  const Selection& sel = selection_->current();
  const RunPtr run = runs_->run(sel.run);
  // What is drawn now: an expanded kernel is placed into it instead of a new layout.
  const bool was_model = model_ && ready_;
  GraphSpec drawn = std::move(spec_);
  const std::shared_ptr<const GraphLayout> drawn_layout = layout_;
  ready_ = false;
  overview_ = false;
  model_ = false;
  spec_ = {};
  key_.clear();
  layout_.reset();
  group_kernel_.clear();
  request_timer_.start();
  const bool has_model = run && GraphScene::HasModelGraph(*run);
  kind_box_->setEnabled(run && run->ok() && (sel.kernel >= 0 || has_model));
  collapse_->setVisible(has_model && wantsModel(sel));
  expand_->setVisible(has_model && wantsModel(sel));
  auto message = [this](const QString& text) {
    scene_->showMessage(text);
    view_->resetTransform();
    view_->centerOn(scene_->sceneRect().center());
    legend_->clear();
    info_->clear();
    ready_ = true;
    emit graphShown(key_);
  };
  if (!run) {
    message(tr("Open a graph file or a report.json: File ▸ Open, or drop it here."));
    return;
  }
  if (!run->ok()) {
    message(tr("This run failed:\n%1").arg(run->error));
    return;
  }
  if (wantsModel(sel)) {
    model_ = true;
    if (model_run_ != run->id) {
      model_run_ = run->id;
      model_index_ = 0;
    }
    const std::vector<ModelGraph> models = ModelGraphs(*run);
    updateModelControls(models);
    const std::vector<ModelGroup> groups =
        ModelGroups(*run, models[static_cast<std::size_t>(model_index_)], grouping_);
    for (const auto& g : groups)
      group_kernel_.push_back(g.kernel);
    const QString ckey = collapseKey(run->id);
    if (!collapsed_.contains(ckey)) {  // first time: large graphs start collapsed
      QSet<int>& set = collapsed_[ckey];
      if (models[static_cast<std::size_t>(model_index_)].nodes.size() >
          static_cast<std::size_t>(kCollapseAbove)) {
        for (int i = 0; i < static_cast<int>(groups.size()); ++i)
          set.insert(i);
      }
    }
    const QSet<int> collapsed = collapsed_.value(ckey);
    spec_ = GraphScene::SpecForModelGraph(*run, models[static_cast<std::size_t>(model_index_)],
                                          groups, grouping_, collapsed);
    QList<int> ids(collapsed.begin(), collapsed.end());
    std::sort(ids.begin(), ids.end());
    QStringList parts;
    for (int i : ids)
      parts << QString::number(i);
    QString set = parts.join(QLatin1Char(','));
    if (ids.size() > 8) {  // keep keys (and the timing log) short: count and a hash of the set
      set = QStringLiteral("%1collapsed#%2").arg(ids.size()).arg(qHash(set), 0, 16);
    }
    key_ = QStringLiteral("run%1/model%2/g%3/%4")
               .arg(run->id)
               .arg(model_index_)
               .arg(static_cast<int>(grouping_))
               .arg(set);
  } else if (sel.kernel < 0 || run->kernel(sel.kernel) == nullptr) {
    if (run->kernelCount() == 0) {
      message(tr("The input holds no AscGraph to compile."));
      return;
    }
    overview_ = true;
    spec_ = GraphScene::SpecForKernels(*run);
    key_ = QStringLiteral("run%1/kernels").arg(run->id);
  } else {
    // A group of a multi-group kernel shows its own graphs; the kernel as a whole shows its hint
    // graph, and the impl graph of its first group's case (the kernel's own entry has no cases).
    const auto& k = sel.group >= 0 || kind_ == GraphKind::kImpl
                        ? *run->kernelView(sel.kernel, sel.group)
                        : *run->kernel(sel.kernel);
    const int c = EffectiveCase(k, sel.tcase);
    GraphResult g = KernelGraph(k, kind_, c);
    if (!g.graph) {
      message(g.error);
      return;
    }
    spec_ = GraphScene::SpecForGraph(*g.graph);
    key_ = QStringLiteral("run%1/k%2/g%3/%4")
               .arg(run->id)
               .arg(sel.kernel)
               .arg(sel.group)
               .arg(static_cast<int>(kind_));
    if (kind_ == GraphKind::kImpl) key_ += QStringLiteral("/c%1").arg(c);
  }
  if (!model_) updateModelControls({});
  // The layout cache's key: the engine, then what is drawn (run, kernel, graph kind, case).
  spec_ms_ = static_cast<double>(request_timer_.nsecsElapsed()) / 1e6;
  const LayoutEngine engine = ChooseEngine(spec_, engine_);
  key_ = QStringLiteral("e%1:").arg(static_cast<int>(engine)) + key_;
  std::shared_ptr<const GraphLayout> ready;
  if (model_ && was_model && expanding_ >= 0 && drawn_layout && engine == LayoutEngine::kLayered) {
    // A large model: lay out the kernel's ops alone and keep the rest of the picture.
    ready = layouts_->request(
        key_, [drawn = std::move(drawn), drawn_layout, spec = spec_, group = expanding_, engine] {
          std::optional<GraphLayout> l = ExpandInPlace(drawn, *drawn_layout, spec, group);
          return l ? *std::move(l) : LayoutWith(spec, engine);
        });
  } else {
    ready = layouts_->request(key_, spec_, engine_);
  }
  if (auto layout = ready) {
    show(layout);
  } else {
    scene_->showMessage(spec_.nodes.size() > static_cast<std::size_t>(kLargeGraph)
                            ? tr("Laying out %1 nodes (large graph, this may take a while)…")
                                  .arg(spec_.nodes.size())
                            : tr("Laying out %1 nodes…").arg(spec_.nodes.size()));
    info_->clear();
  }
}

void GraphPanel::onLayoutReady(const QString& key) {
  if (key != key_ || ready_) return;
  show(layouts_->cached(key));
}

void GraphPanel::show(const std::shared_ptr<const GraphLayout>& layout) {
  if (!layout) return;
  layout_ = layout;
  QElapsedTimer scene_timer;
  scene_timer.start();
  scene_->setGraph(spec_, *layout);
  const double scene_ms = static_cast<double>(scene_timer.nsecsElapsed()) / 1e6;
  updateLegend();
  QString info;
  if (layout->ok()) {
    info = tr("%1 nodes, %2 edges · %3 layout %4 ms")
               .arg(spec_.nodes.size())
               .arg(spec_.edges.size())
               .arg(layout->engine)
               .arg(layout->ms, 0, 'f', 1);
    if (spec_.hidden > 0) info += tr(" · %1 size nodes not drawn").arg(spec_.hidden);
  }
  info_->setText(info);
  view_->showStart();
  const Selection& sel = selection_->current();
  QString node = sel.node;
  if (model_) {
    const RunPtr run = runs_->run(sel.run);
    if (node.isEmpty() && run && run->fallback(sel.fallback) != nullptr)
      node = QString::fromStdString(run->fallback(sel.fallback)->name());
    scene_->setSelectedGroup(groupOfKernel(sel.kernel));
  } else {
    scene_->setSelectedGroup(-1);
  }
  if (!overview_ && !node.isEmpty()) scene_->setSelectedNode(node);
  search(search_->text());
  ready_ = true;
  if (TimingLogOn()) {
    view_->viewport()->repaint();  // the first paint, inside the measurement
    LogTiming(QStringLiteral("graph %1: %2 nodes, %3 edges; spec %4 ms, %5 layout %6 ms, scene "
                             "%7 ms; on screen %8 ms after it was asked for")
                  .arg(key_)
                  .arg(spec_.nodes.size())
                  .arg(spec_.edges.size())
                  .arg(spec_ms_, 0, 'f', 1)
                  .arg(layout->engine)
                  .arg(layout->ms, 0, 'f', 1)
                  .arg(scene_ms, 0, 'f', 1)
                  .arg(static_cast<double>(request_timer_.nsecsElapsed()) / 1e6, 0, 'f', 1));
  }
  emit graphShown(key_);
}

void GraphPanel::updateLegend() {
  if (model_) {
    legend_->setText(
        tr("<span style='background:#cfe0f3'>&nbsp;cluster = fused kernel&nbsp;</span> "
           "<span style='background:#f4c7c3'>&nbsp;unfused op [fallback code]&nbsp;</span> "
           "<span style='background:#d6e6f5'>&nbsp;input&nbsp;</span> · double-click a "
           "kernel to collapse or expand it "));
    return;
  }
  if (overview_) {
    legend_->setText(
        tr("<span style='background:#b8e0b0'>&nbsp;compiled&nbsp;</span> "
           "<span style='background:#f4a5a5'>&nbsp;refused&nbsp;</span> · click a kernel to open "
           "it"));
    return;
  }
  std::set<QString> present;
  for (const auto& n : spec_.nodes)
    present.insert(n.compute);
  QStringList chips;
  for (const QString& c : ComputeNames()) {
    if (!present.contains(c)) continue;
    chips << QStringLiteral("<span style='background:%1'>&nbsp;%2&nbsp;</span>")
                 .arg(ComputeColor(c).name(), c);
  }
  if (present.contains(QStringLiteral("unknown"))) chips << tr("white: unknown op");
  legend_->setText(chips.join(QStringLiteral(" ")));
}

QStringList GraphPanel::search(const QString& text) {
  matches_ = scene_->search(text);
  match_index_ = -1;
  if (text.isEmpty()) {
    search_info_->clear();
  } else {
    search_info_->setText(matches_.isEmpty()
                              ? tr("no match")
                              : tr("%n match(es)", "", static_cast<int>(matches_.size())));
  }
  if (search_->text() != text) search_->setText(text);
  if (!matches_.isEmpty()) {
    match_index_ = 0;
    view_->centerOnRect(scene_->nodeRect(matches_.front()));
  }
  return matches_;
}

void GraphPanel::findNext() {
  if (matches_.isEmpty()) return;
  match_index_ = (match_index_ + 1) % static_cast<int>(matches_.size());
  const QString name = matches_[match_index_];
  if (overview_) {
    view_->centerOnRect(scene_->nodeRect(name));
  } else {
    selection_->selectNode(name);
  }
}

void GraphPanel::onClusterClicked(int group) {
  if (!model_ || group < 0 || static_cast<std::size_t>(group) >= group_kernel_.size()) return;
  const int kernel = group_kernel_[static_cast<std::size_t>(group)];
  if (kernel < 0) {  // a group this run did not compile (the other grouping): highlight it only
    scene_->setSelectedGroup(group);
    return;
  }
  const Selection& sel = selection_->current();
  // Stay on the model graph while its kernels are picked.
  if (kind_ != GraphKind::kModel) {
    const QSignalBlocker block(kind_box_);
    kind_ = GraphKind::kModel;
    kind_box_->setCurrentIndex(kind_box_->findData(static_cast<int>(kind_)));
  }
  if (sel.kernel != kernel) selection_->selectKernel(sel.run, kernel);
}

void GraphPanel::onNodeClicked(const QString& name) {
  const Selection& sel = selection_->current();
  if (model_) {
    const RunPtr run = runs_->run(sel.run);
    const GraphSpec::Node* n = nullptr;
    for (const auto& sn : spec_.nodes) {
      if (sn.name == name) n = &sn;
    }
    if (n == nullptr || !run) {
      if (name.isEmpty()) selection_->selectNode(QString());
      return;
    }
    if (n->group >= 0) {  // an op of a kernel, or a collapsed kernel: select the kernel
      onClusterClicked(n->group);
      if (!n->collapsed) selection_->selectNode(name);
      return;
    }
    for (int i = 0; i < run->fallbackCount(); ++i) {  // an unfused op
      if (QString::fromStdString(run->fallback(i)->name()) == name) {
        selection_->selectFallback(sel.run, i);
        return;
      }
    }
    selection_->selectNode(name);  // an input or the output
    return;
  }
  if (overview_) {
    if (name.isEmpty()) return;
    for (std::size_t i = 0; i < spec_.nodes.size(); ++i) {
      if (spec_.nodes[i].name == name) {
        selection_->selectKernel(sel.run, static_cast<int>(i));
        return;
      }
    }
    return;
  }
  selection_->selectNode(name);
}

}  // namespace af::viewer
