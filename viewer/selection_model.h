// The one selection every panel shares (navigator, graph view, inspector tabs, flags form):
// which run, which kernel of it (and which group of a multi-group kernel), which tiling case,
// which graph node. A panel that changes it
// calls one of the select* functions; every panel (the caller included) follows the single
// selectionChanged signal, so views never talk to each other directly.
#pragma once

#include <QObject>
#include <QString>

namespace af::viewer {

struct Selection {
  int run = -1;       // index in the run manager
  int kernel = -1;    // index in the run's report; -1: the run itself
  int tcase = -1;     // tiling case; -1: the kernel's default (the chosen one)
  QString node;       // node name in the shown graph; empty: none
  int fallback = -1;  // with kernel -1: a fallback / unfused op of the run (Run::fallback)
  // A group of a multi-group kernel (KernelReport::groups); -1: the kernel as a whole. With a
  // group, `tcase` is a case of that group.
  int group = -1;
  friend bool operator==(const Selection&, const Selection&) = default;
};

class SelectionModel : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

  const Selection& current() const { return current_; }

  void selectRun(int run);
  void selectKernel(int run, int kernel);
  void selectFallback(int run, int fallback);
  void selectCase(int tcase);
  // A group of the selected kernel (-1: the kernel as a whole); the case goes back to the default.
  void selectGroup(int group);
  void selectNode(const QString& node);
  void select(const Selection& s);

 signals:
  void selectionChanged(const af::viewer::Selection& now, const af::viewer::Selection& before);

 private:
  Selection current_;
};

}  // namespace af::viewer
