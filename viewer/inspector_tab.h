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
  // The group of a multi-group kernel to show (Selection::group); the inspector sets it before
  // showKernel. Tabs about the whole kernel (source, fusion, stages, timeline) ignore it.
  void setGroup(int group) { group_ = group; }

 protected:
  // The report a per-case tab shows for `kernel`: the group's for a multi-group kernel
  // (Run::kernelView), else the kernel's; null when there is none.
  const report::KernelReport* shownKernel(const RunPtr& run, int kernel) const {
    return run ? run->kernelView(kernel, group_) : nullptr;
  }

 private:
  int group_ = -1;
};

}  // namespace af::viewer
