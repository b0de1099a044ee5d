// The interface every kernel-inspector tab implements: show one kernel of one run (with the
// tiling case picked in the selection) and, optionally, follow the selected graph node. The
// inspector calls these when the shared selection changes; tabs that let the user pick a case
// write it back through the selection model they were given.
#pragma once

#include <QString>
#include <QWidget>

#include "run_data.h"

namespace af::viewer {

class InspectorTab : public QWidget {
  Q_OBJECT

 public:
  using QWidget::QWidget;

  // `run` may be null and `kernel` -1: then the tab shows that there is nothing to inspect.
  virtual void showKernel(const RunPtr& run, int kernel, int tcase) = 0;
  virtual void showNode(const QString& node) { (void)node; }
};

}  // namespace af::viewer
