// The Fusion tab: every decision the stages took about this kernel, with its stage and reason
// code (UPCAST_FP32, KEEP_AXES_APART, REUSE_TBUF, TILING_CASE, ...), the refusal reason when the
// kernel was not compiled (or why a fallback / unfused op of the run is outside every kernel), and
// the UB buffers the schedule planned. For front-end runs (FX graphs, case folders) it also lists
// the fusion decider's decisions about the kernel's ops or the unfused op: accepted and refused
// pairs of groups with reason code, stage, message and the bytes the fusion saves. Decisions that
// name the selected graph node are highlighted; the filter box narrows the stage decisions.
#pragma once

#include "inspector_tab.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace af::viewer {

class FusionTab : public InspectorTab {
  Q_OBJECT

 public:
  explicit FusionTab(QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;
  void showNode(const QString& node) override;
  // A fallback / unfused op of the run (Run::fallback): why it is not in a kernel, and where it
  // came from.
  void showFallback(const RunPtr& run, int fallback);

  QStandardItemModel* decisions() const { return decisions_; }
  QStandardItemModel* buffers() const { return buffers_; }
  // The front end's decisions that concern the kernel or unfused op shown (FrontendColumn).
  QStandardItemModel* frontendDecisions() const { return frontend_; }
  // "Inductor vs autofuse grouping": the report's framework_groupings (identical pairs, splits,
  // merges, nodes fused by one side only) with our reason codes; hidden when the report has none.
  QStandardItemModel* grouping() const { return grouping_; }
  QString refusal() const;
  // Rows of decisions() that mention the selected node.
  QList<int> highlightedRows() const;

  enum Column { kStage = 0, kCode, kMessage };
  enum FrontendColumn {
    kFeResult = 0,
    kFeCode,
    kFeStage,
    kFeKind,
    kFeFirst,
    kFeSecond,
    kFeBytes,
    kFeMessage,
    kFeColumns
  };

 private:
  QLabel* refusal_;
  QLineEdit* filter_;
  QStandardItemModel* decisions_;
  QSortFilterProxyModel* proxy_;
  QTableView* decisions_view_;
  QStandardItemModel* buffers_;
  QTableView* buffers_view_;
  QWidget* frontend_box_;
  QLabel* frontend_label_;
  QStandardItemModel* frontend_;
  QTableView* frontend_view_;
  QString node_;
  QWidget* grouping_box_;
  QStandardItemModel* grouping_;

  void showGrouping(const Run* run);

  // Fills frontend() with the run's fusion decisions that name one of `nodes`.
  void showFrontendDecisions(const Run& run, const QStringList& nodes, const QString& what);
};

}  // namespace af::viewer
