// The Axes tab: the split tree of the selected tiling case's impl graph, e.g. z1 → z1T / z1t and
// z0 · z1T → z0z1T → z0z1TB / z0z1Tb, with each axis's type, symbolic size, its value under the
// run's bindings and the case's solved tile sizes, and its role (bound to cores, loop axis,
// vectorised in UB, tiled). Below it, the loop nest of the kernel's store.
#pragma once

#include "inspector_tab.h"

class QLabel;
class QStandardItemModel;
class QTreeView;

namespace af::viewer {

class AxesTab : public InspectorTab {
  Q_OBJECT

 public:
  explicit AxesTab(QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;

  QStandardItemModel* model() const { return model_; }
  QString headerText() const;
  QString loopNestText() const;

  enum Column { kAxis = 0, kType, kValue, kRole, kSize };

 private:
  QLabel* header_;
  QLabel* loop_nest_;
  QStandardItemModel* model_;
  QTreeView* tree_;
};

}  // namespace af::viewer
