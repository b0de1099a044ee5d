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

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>

#include "graph_layout.h"
#include "report_graphs.h"
#include "selection_model.h"

class QComboBox;
class QLabel;
class QLineEdit;
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
  void onClusterClicked(int kernel);
  void toggleCollapsed(int kernel);
  bool wantsModel(const Selection& sel) const;
  void updateLegend();

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
  GraphKind kind_ = GraphKind::kHint;
  QString key_;
  GraphSpec spec_;
  bool overview_ = false;            // showing a run's kernels
  bool model_ = false;               // showing a run's model graph
  int model_run_ = -1;               // the run id whose model graph is shown
  QHash<int, QSet<int>> collapsed_;  // by run id
  bool ready_ = false;
  QStringList matches_;
  int match_index_ = -1;
};

}  // namespace af::viewer
