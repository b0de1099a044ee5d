#include "navigator_panel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "navigator_model.h"
#include "run_manager.h"

namespace af::viewer {

NavigatorPanel::NavigatorPanel(RunManager* runs, SelectionModel* selection, QWidget* parent)
    : QWidget(parent), runs_(runs), selection_(selection) {
  model_ = new NavigatorModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setRecursiveFilteringEnabled(true);
  proxy_->setAutoAcceptChildRows(true);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(0);
  proxy_->setFilterRole(NavigatorModel::kSearchRole);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter: kernel, case, reason code…"));
  filter_->setClearButtonEnabled(true);
  tree_ = new QTreeView(this);
  tree_->setModel(proxy_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->setColumnWidth(0, 190);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(filter_);
  layout->addWidget(tree_, 1);

  connect(filter_, &QLineEdit::textChanged, this, &NavigatorPanel::setFilter);
  connect(runs_, &RunManager::runAdded, this, &NavigatorPanel::onRunAdded);
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { onCurrentChanged(current); });
  connect(selection_, &SelectionModel::selectionChanged, this,
          [this](const Selection& now, const Selection&) { onSelectionChanged(now); });
}

void NavigatorPanel::setFilter(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  proxy_->setFilterFixedString(text);
  tree_->expandAll();
}

void NavigatorPanel::onRunAdded(int index) {
  if (const RunPtr run = runs_->run(index)) model_->addRun(index, *run);
  const QModelIndex src = model_->index(model_->rowCount() - 1, 0);
  tree_->expand(proxy_->mapFromSource(src));
  for (int k = 0; k < model_->rowCount(src); ++k)
    tree_->expand(proxy_->mapFromSource(model_->index(k, 0, src)));
}

void NavigatorPanel::onCurrentChanged(const QModelIndex& current) {
  if (syncing_ || !current.isValid()) return;
  Selection s = NavigatorModel::selectionFor(proxy_->mapToSource(current));
  const Selection& cur = selection_->current();
  if (s.run == cur.run && s.kernel == cur.kernel) s.node = cur.node;
  selection_->select(s);
}

void NavigatorPanel::onSelectionChanged(const Selection& now) {
  const QModelIndex src = model_->indexFor(now);
  const QModelIndex idx = proxy_->mapFromSource(src);
  if (!idx.isValid() || idx == tree_->currentIndex()) return;
  syncing_ = true;
  tree_->setCurrentIndex(idx);
  tree_->scrollTo(idx);
  syncing_ = false;
}

}  // namespace af::viewer
