// The navigator's tree: runs → kernels → tiling cases (and, per run, the groups Inductor fused
// that we could not lower or the ops the front end left unfused, each with its reason), with each
// kernel's refusal reason (code and message) under it and a run's error under the run. Column 0
// names the item, column 1 says how it came out (chosen case and cores, "refused NO_AXES", bindings
// and profile of a run); a kernel is named by the graph it was fused from, its kernel name is in
// the tooltip. Items carry their run index, kernel index and case index in roles so the selection
// model can map between tree indexes and selections.
#pragma once

#include <QStandardItemModel>

#include "run_data.h"
#include "selection_model.h"

namespace af::viewer {

class NavigatorModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Role {
    kRunRole = Qt::UserRole + 1,
    kKernelRole,
    kCaseRole,
    kKindRole,         // ItemKind
    kSearchRole,       // everything the filter matches: names, kernel name, outcome, reasons
    kFallbackRole,     // index of a fallback / unfused op in the run (Run::fallback)
    kKernelGroupRole,  // a group of a multi-group kernel (Selection::group); -1: none
  };
  // kGroupItem: the "fallbacks" / "unfused ops" folder under a run; kFallbackItem: one of them;
  // kKernelGroupItem: a group of a multi-group kernel (its cases below it).
  enum ItemKind {
    kRunItem = 1,
    kKernelItem,
    kCaseItem,
    kReasonItem,
    kGroupItem,
    kFallbackItem,
    kKernelGroupItem
  };

  explicit NavigatorModel(QObject* parent = nullptr);

  // Appends the run (its index in the run manager is `run_index`).
  void addRun(int run_index, const Run& run);
  // The tree index of a selection (the deepest item it names); invalid when absent.
  QModelIndex indexFor(const Selection& s) const;
  // The selection a tree index stands for.
  static Selection selectionFor(const QModelIndex& index);
};

}  // namespace af::viewer
