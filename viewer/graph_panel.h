// The graph panel: what the graph view shows for the current selection, with its toolbar. For a
// run, one box per kernel; for a kernel, its hint graph (default), normalised graph or the impl
// graph of the selected tiling case, nodes coloured by ComputeType with a legend. Front-end runs
// (FX graphs, case folders) also have the model graph, shown for the run and as the "model graph"
// kind: each fused kernel a coloured cluster of its ops (a click selects the kernel, a double-click
// collapses it to one box), unfused ops with their fallback code; large model graphs start with
// every kernel collapsed, so only the collapsed level is laid out. Each graph is
// laid out on its own, off the GUI thread (large inputs are never laid out all at once). Search
// by node name or op type, fit, zoom, and clicks that select nodes (or kernels) for every panel.
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "graph_layout.h"
#include "model_graphs.h"
#include "report_graphs.h"
#include "selection_model.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTimer;
class QToolButton;

namespace af::viewer {

class GraphScene;
class GraphView;
class LayoutWorker;
class RunManager;

class GraphPanel : public QWidget {
  Q_OBJECT

 public:
  GraphPanel(RunManager* runs, SelectionModel* selection, LayoutWorker* layouts,
             QWidget* parent = nullptr);

  GraphScene* scene() const { return scene_; }
  GraphView* view() const { return view_; }
  GraphKind graphKind() const { return kind_; }
  void setGraphKind(GraphKind kind);
  // True once the graph for the current selection is drawn (or a message replaces it).
  bool ready() const { return ready_; }
  QString currentKey() const { return key_; }
  // The model graph of a front-end run is drawn.
  bool modelView() const { return model_; }
  // Kernels of the selected run drawn as one box in the model graph; changing them lays the graph
  // out again (in the background).
  QSet<int> collapsedKernels() const;
  void setKernelCollapsed(int kernel, bool collapsed);
  void setAllCollapsed(bool collapsed);
  // Model graphs with more nodes start with every kernel collapsed.
  static constexpr int kCollapseAbove = 300;
  // Which model of a run with several (a torch_compile_debug run: one per model folder), which
  // grouping its clusters show, and which layout engine draws graphs.
  void setModel(int model);
  int model() const { return model_index_; }
  void setGrouping(Grouping grouping);
  Grouping grouping() const { return grouping_; }
  void setLayoutEngine(LayoutEngine engine);
  LayoutEngine layoutEngine() const { return engine_; }
  // The layout of what is drawn (null while it is being made).
  std::shared_ptr<const GraphLayout> currentLayout() const { return layout_; }

  // Marks matches and selects the first; returns the matching node names.
  QStringList search(const QString& text);
  void findNext();

 signals:
  void graphShown(const QString& key);

 private:
  void onSelectionChanged(const Selection& now, const Selection& before);
  void onLayoutReady(const QString& key);
  void refresh();
  void show(const std::shared_ptr<const GraphLayout>& layout);
  void onNodeClicked(const QString& name);
  void onClusterClicked(int group);
  void toggleCollapsed(int kernel);
  bool wantsModel(const Selection& sel) const;
  void updateLegend();
  void updateModelControls(const std::vector<ModelGraph>& models);  // empty: hidden
  QString collapseKey(int run_id) const;
  int groupOfKernel(int kernel) const;
  void setBusy(bool busy);

  RunManager* runs_;
  SelectionModel* selection_;
  LayoutWorker* layouts_;
  GraphScene* scene_;
  GraphView* view_;
  QComboBox* kind_box_;
  QLineEdit* search_;
  QLabel* search_info_;
  QLabel* legend_;
  QLabel* info_;
  QToolButton* collapse_;
  QToolButton* expand_;
  QComboBox* model_box_;
  QComboBox* grouping_box_;
  QComboBox* engine_box_;
  QProgressBar* progress_;
  QTimer* progress_timer_;
  QElapsedTimer request_timer_;  // since the graph now wanted was asked for
  double spec_ms_ = 0;           // building its spec
  GraphKind kind_ = GraphKind::kHint;
  int model_index_ = 0;
  Grouping grouping_ = Grouping::kOurs;
  LayoutEngine engine_ = LayoutEngine::kAuto;
  std::vector<int> group_kernel_;  // per group of the drawn model graph: its kernel, -1: none
  std::shared_ptr<const GraphLayout> layout_;
  int expanding_ = -1;  // the group setKernelCollapsed is expanding, during its refresh()
  QString key_;
  GraphSpec spec_;
  bool overview_ = false;                // showing a run's kernels
  bool model_ = false;                   // showing a run's model graph
  int model_run_ = -1;                   // the run id whose model graph is shown
  QHash<QString, QSet<int>> collapsed_;  // group indices, by run id, model and grouping
  bool ready_ = false;
  QStringList matches_;
  int match_index_ = -1;
};

}  // namespace af::viewer
