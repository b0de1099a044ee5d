// The main window: the graph view in the middle, the navigator and the Flags & shapes form on the
// left, the kernel inspector on the right (all dockable), File/View/Run menus, a status bar with
// the worker's progress and a Cancel button, drag-and-drop of inputs and a recent-files list. It
// owns the run manager, the layout worker and the one selection model, and wires them to the
// panels; the panels never talk to each other directly.
#pragma once

#include <QMainWindow>
#include <QString>

#include "run_data.h"

class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace af::viewer {

class CompareDialog;
class FlagsPanel;
class GraphPanel;
class KernelInspector;
class LayoutWorker;
class NavigatorPanel;
class RecentFiles;
class RunManager;
class SelectionModel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  RunManager* runs() const { return runs_; }
  SelectionModel* selection() const { return selection_; }
  LayoutWorker* layouts() const { return layouts_; }
  NavigatorPanel* navigator() const { return navigator_; }
  GraphPanel* graph() const { return graph_; }
  KernelInspector* inspector() const { return inspector_; }
  FlagsPanel* flags() const { return flags_; }
  RecentFiles* recent() const { return recent_; }

  // Opens a graph file or report in the worker; graph files are compiled with `request`
  // (profile, bindings, flags). The run appears in the navigator when it is done.
  void open(const QString& path, const RunRequest& request = RunRequest());
  // Compiles the selected run's input again with the Flags & shapes form; the new run is added
  // next to the old one and selected (same kernel). False, with the reason shown in the form,
  // when the form does not parse.
  bool rerun();
  void cancel();
  // Opens the Compare Runs dialog on runs a and b (run manager indexes; -1: the selected run and
  // the run it re-ran, else the run before it). Null when fewer than two runs are open.
  CompareDialog* compareRuns(int a = -1, int b = -1);
  // Selects a kernel of the selected run by name, graph name or index.
  bool selectKernel(const QString& which);
  // No job running and the graph view showing the current selection.
  bool idle() const;
  // Processes events until idle() or the timeout; false on timeout.
  bool waitUntilIdle(int timeout_ms);

  // Exports the drawn graph; the format follows the suffix (.png or .svg).
  bool exportGraph(const QString& path, QString* error);
  // Saves the selected run's report (JSON), or report.json plus sources into a folder.
  bool saveReport(const QString& path, QString* error);
  bool saveReportWithSources(const QString& dir, QString* error);
  // File ▸ Export: the selected run's report through exporters/ — "dot", "onnx", "onnxtxt" or
  // "trace" (afc export's formats; docs/cli.md).
  bool exportReport(const QString& format, const QString& path, QString* error);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildMenus();
  void onRunAdded(int index);
  void onBusyChanged(bool busy);
  void openDialog();
  void openFolderDialog();
  void saveDialog(bool with_sources);
  void exportDialog(const QString& suffix);
  void exportReportDialog(const QString& format);

  RunManager* runs_;
  SelectionModel* selection_;
  LayoutWorker* layouts_;
  RecentFiles* recent_;
  NavigatorPanel* navigator_;
  GraphPanel* graph_;
  KernelInspector* inspector_;
  FlagsPanel* flags_;
  QMenu* recent_menu_ = nullptr;
  QLabel* status_text_;
  QProgressBar* progress_;
  QToolButton* cancel_button_;
  // A re-run selects the kernel and node that were selected when it was asked for.
  int reselect_ticket_ = 0;
  int reselect_kernel_ = -1;
  int reselect_group_ = -1;
  QString reselect_node_;
};

}  // namespace af::viewer
