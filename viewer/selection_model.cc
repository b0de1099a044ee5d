#include "selection_model.h"

namespace af::viewer {

void SelectionModel::selectRun(int run) {
  select({run, -1, -1, {}});
}

void SelectionModel::selectKernel(int run, int kernel) {
  if (run == current_.run && kernel == current_.kernel) return;
  select({run, kernel, -1, {}});
}

void SelectionModel::selectFallback(int run, int fallback) {
  select({run, -1, -1, {}, fallback});
}

void SelectionModel::selectCase(int tcase) {
  Selection s = current_;
  s.tcase = tcase;
  select(s);
}

void SelectionModel::selectGroup(int group) {
  Selection s = current_;
  if (s.group == group) return;
  s.group = group;
  s.tcase = -1;
  select(s);
}

void SelectionModel::selectNode(const QString& node) {
  Selection s = current_;
  s.node = node;
  select(s);
}

void SelectionModel::select(const Selection& s) {
  if (s == current_) return;
  const Selection before = current_;
  current_ = s;
  emit selectionChanged(current_, before);
}

}  // namespace af::viewer
