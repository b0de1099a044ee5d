// The navigator panel: the runs → kernels → cases tree with a filter box (matches names, outcomes
// and refusal codes; parents of a match stay visible). Picking an item selects it for every
// panel, and the tree follows selections made elsewhere.
#pragma once

#include <QWidget>

#include "selection_model.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace af::viewer {

class NavigatorModel;
class RunManager;

class NavigatorPanel : public QWidget {
  Q_OBJECT

 public:
  NavigatorPanel(RunManager* runs, SelectionModel* selection, QWidget* parent = nullptr);

  NavigatorModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTreeView* tree() const { return tree_; }
  void setFilter(const QString& text);

 private:
  void onRunAdded(int index);
  void onCurrentChanged(const QModelIndex& current);
  void onSelectionChanged(const Selection& now);

  RunManager* runs_;
  SelectionModel* selection_;
  NavigatorModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* tree_;
  QLineEdit* filter_;
  bool syncing_ = false;
};

}  // namespace af::viewer
