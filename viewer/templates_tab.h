// The Templates tab: every tiling case (template) of the kernel with the axis it tiles, its
// symbolic UB occupancy and, under the run's bindings, whether it fits, its tile, tiles per block,
// cores, UB bytes and modelled cycles; the case chosen for these shapes is marked and explained
// in the summary line (cost model or force_tiling_case). Clicking a row selects that case for
// every panel.
#pragma once

#include "inspector_tab.h"

class QLabel;
class QStandardItemModel;
class QTableView;

namespace af::viewer {

class SelectionModel;

class TemplatesTab : public InspectorTab {
  Q_OBJECT

 public:
  explicit TemplatesTab(SelectionModel* selection, QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;

  QStandardItemModel* model() const { return model_; }
  QString summary() const;
  // The row marked as chosen; -1 when none (sizes unbound, refused kernel).
  int chosenRow() const { return chosen_; }

  enum Column {
    kCase = 0,
    kTiles,
    kFeasible,
    kTile,
    kTilesPerBlock,
    kCores,
    kUbBytes,
    kCycles,
    kUbExpr,
    kTemplate,  // elementwise, brc_inline, all_load, common, r_core (docs/schedule.md)
    kColumns
  };

 private:
  SelectionModel* selection_;
  QLabel* summary_;
  QStandardItemModel* model_;
  QTableView* table_;
  int chosen_ = -1;
  bool syncing_ = false;
};

}  // namespace af::viewer
