#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QThread>
#include <QToolButton>
#include <fstream>

#include "autofuse/exporters/dot.h"
#include "autofuse/exporters/onnx_export.h"
#include "autofuse/exporters/trace.h"
#include "autofuse/support/error.h"
#include "flags_panel.h"
#include "graph_panel.h"
#include "graph_view.h"
#include "kernel_inspector.h"
#include "layout_worker.h"
#include "navigator_panel.h"
#include "recent_files.h"
#include "report.pb.h"
#include "report_loader.h"
#include "run_diff.h"
#include "run_manager.h"
#include "selection_model.h"

namespace af::viewer {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("afviewer"));
  setAcceptDrops(true);
  runs_ = new RunManager(this);
  selection_ = new SelectionModel(this);
  layouts_ = new LayoutWorker(this);
  recent_ = new RecentFiles(this);

  graph_ = new GraphPanel(runs_, selection_, layouts_, this);
  setCentralWidget(graph_);
  navigator_ = new NavigatorPanel(runs_, selection_, this);
  flags_ = new FlagsPanel(runs_, selection_, this);
  inspector_ = new KernelInspector(runs_, selection_, this);

  auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea a) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(a, d);
    return d;
  };
  QDockWidget* nav =
      dock(tr("Navigator"), QStringLiteral("navigator"), navigator_, Qt::LeftDockWidgetArea);
  QDockWidget* flg =
      dock(tr("Flags & shapes"), QStringLiteral("flags"), flags_, Qt::LeftDockWidgetArea);
  QDockWidget* ins = dock(tr("Kernel inspector"), QStringLiteral("inspector"), inspector_,
                          Qt::RightDockWidgetArea);
  resizeDocks({nav, ins}, {380, 640}, Qt::Horizontal);
  resizeDocks({nav, flg}, {520, 380}, Qt::Vertical);

  status_text_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 0);  // busy indicator until the first stage is reported
  progress_->setMaximumWidth(160);
  progress_->hide();
  cancel_button_ = new QToolButton(this);
  cancel_button_->setText(tr("Cancel"));
  cancel_button_->hide();
  statusBar()->addWidget(status_text_, 1);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_button_);

  buildMenus();
  connect(runs_, &RunManager::runAdded, this, &MainWindow::onRunAdded);
  connect(runs_, &RunManager::busyChanged, this, &MainWindow::onBusyChanged);
  connect(runs_, &RunManager::progress, status_text_, &QLabel::setText);
  connect(runs_, &RunManager::step, this, [this](int done, int total) {
    progress_->setRange(0, total);  // total 0: busy indicator
    progress_->setValue(done);
  });
  connect(cancel_button_, &QToolButton::clicked, this, &MainWindow::cancel);
  connect(flags_, &FlagsPanel::rerunRequested, this, [this] { rerun(); });
  connect(flags_, &FlagsPanel::cancelRequested, this, &MainWindow::cancel);
  connect(recent_, &RecentFiles::openRequested, this, [this](const QString& p) { open(p); });
  status_text_->setText(tr("Open a graph file or a report.json (File ▸ Open, or drop it here)."));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  QAction* folder = file->addAction(tr("Open &Folder…"), this, &MainWindow::openFolderDialog);
  folder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  connect(recent_menu_, &QMenu::aboutToShow, this, [this] { recent_->fillMenu(recent_menu_); });
  file->addSeparator();
  QAction* save = file->addAction(tr("&Save Report…"), this, [this] { saveDialog(false); });
  save->setShortcut(QKeySequence::Save);
  file->addAction(tr("Save Report with &Sources…"), this, [this] { saveDialog(true); });
  file->addSeparator();
  file->addAction(tr("Export Graph as &PNG…"), this,
                  [this] { exportDialog(QStringLiteral("png")); });
  file->addAction(tr("Export Graph as S&VG…"), this,
                  [this] { exportDialog(QStringLiteral("svg")); });
  QMenu* exports = file->addMenu(tr("E&xport"));
  exports->addAction(tr("Graphviz &DOT…"), this,
                     [this] { exportReportDialog(QStringLiteral("dot")); });
  exports->addAction(tr("&ONNX for Netron…"), this,
                     [this] { exportReportDialog(QStringLiteral("onnx")); });
  exports->addAction(tr("ONNX &Text…"), this,
                     [this] { exportReportDialog(QStringLiteral("onnxtxt")); });
  exports->addAction(tr("Perfetto &Trace…"), this,
                     [this] { exportReportDialog(QStringLiteral("trace")); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* fit = view->addAction(tr("&Fit Graph"), graph_->view(), &GraphView::fit);
  fit->setShortcut(QKeySequence(Qt::Key_F));
  QAction* zin = view->addAction(tr("Zoom &In"), graph_->view(), &GraphView::zoomIn);
  zin->setShortcut(QKeySequence::ZoomIn);
  QAction* zout = view->addAction(tr("Zoom &Out"), graph_->view(), &GraphView::zoomOut);
  zout->setShortcut(QKeySequence::ZoomOut);
  QAction* find = view->addAction(tr("Find &Node…"), this, [this] {
    if (auto* edit = graph_->findChild<QLineEdit*>()) edit->setFocus();
  });
  find->setShortcut(QKeySequence::Find);
  view->addSeparator();
  view->addAction(tr("&Hint Graph"), this, [this] { graph_->setGraphKind(GraphKind::kHint); });
  view->addAction(tr("&Normalised Graph"), this,
                  [this] { graph_->setGraphKind(GraphKind::kNormalized); });
  view->addAction(tr("&Impl Graph of the Case"), this,
                  [this] { graph_->setGraphKind(GraphKind::kImpl); });

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QAction* re = run->addAction(tr("&Re-run with Flags && Shapes"), this, [this] { rerun(); });
  re->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  QAction* compare = run->addAction(tr("C&ompare Runs…"), this, [this] { compareRuns(); });
  compare->setShortcut(QKeySequence(tr("Ctrl+D")));
  QAction* cancel = run->addAction(tr("&Cancel"), this, &MainWindow::cancel);
  cancel->setShortcut(QKeySequence(Qt::Key_Escape));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About afviewer"), this, [this] {
    QMessageBox::about(this, tr("About afviewer"),
                       tr("<b>afviewer</b> %1<br>The inspection tool of autofuse: fused kernels, "
                          "axis splits, tiling cases and their modelled cost, generated AscendC "
                          "source and the reasons behind every decision.")
                           .arg(QStringLiteral(AF_VERSION)));
  });
}

void MainWindow::open(const QString& path, const RunRequest& request) {
  recent_->add(path);
  runs_->open(path, request);
}

bool MainWindow::rerun() {
  RunRequest r;
  QString error;
  if (!flags_->request(&r, &error)) {
    flags_->showError(error);
    return false;
  }
  flags_->showError(QString());
  const Selection& sel = selection_->current();
  reselect_kernel_ = sel.kernel;
  reselect_group_ = sel.group;
  reselect_node_ = sel.node;
  reselect_ticket_ = runs_->compile(r, runs_->run(sel.run));
  return true;
}

void MainWindow::cancel() {
  reselect_ticket_ = 0;
  runs_->cancel();
}

void MainWindow::onRunAdded(int index) {
  const RunPtr run = runs_->run(index);
  if (!run) return;
  const bool rerun = run->ticket != 0 && run->ticket == reselect_ticket_;
  if (rerun && run->kernel(reselect_kernel_) != nullptr) {
    // The same group of the re-run kernel when it still has that many (a re-run may regroup).
    const report::KernelReport* k = run->kernel(reselect_kernel_);
    const int group = reselect_group_ < k->groups_size() ? reselect_group_ : -1;
    selection_->select({index, reselect_kernel_, -1, reselect_node_, -1, group});
  } else if (run->kernelCount() == 1) {
    selection_->selectKernel(index, 0);
  } else {
    selection_->selectRun(index);
  }
  if (rerun) reselect_ticket_ = 0;
  if (!run->ok()) flags_->showError(run->error);
}

void MainWindow::onBusyChanged(bool busy) {
  progress_->setVisible(busy);
  cancel_button_->setVisible(busy);
}

bool MainWindow::selectKernel(const QString& which) {
  const int r = selection_->current().run;
  const RunPtr run = runs_->run(r);
  if (!run) return false;
  const std::string w = which.toStdString();
  for (int pass = 0; pass < 3; ++pass) {
    for (int i = 0; i < run->kernelCount(); ++i) {
      const auto& k = *run->kernel(i);
      const bool hit = pass == 0   ? k.name() == w || k.hint_graph().graph_name() == w
                       : pass == 1 ? QString::number(i) == which
                                   : QString::fromStdString(k.name()).contains(which);
      if (hit) {
        selection_->selectKernel(r, i);
        return true;
      }
    }
  }
  return false;
}

bool MainWindow::idle() const {
  return !runs_->busy() && graph_->ready();
}

bool MainWindow::waitUntilIdle(int timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (!idle()) {
    if (t.elapsed() > timeout_ms) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  QApplication::processEvents();
  return true;
}

bool MainWindow::exportGraph(const QString& path, QString* error) {
  if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
    return graph_->view()->exportSvg(path, error);
  }
  return graph_->view()->exportPng(path, 2.0, error);
}

bool MainWindow::saveReport(const QString& path, QString* error) {
  const RunPtr run = runs_->run(selection_->current().run);
  try {
    if (!run) throw InputError({path.toStdString(), 0, 0}, "no run is selected");
    SaveReport(*run, path);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

bool MainWindow::exportReport(const QString& format, const QString& path, QString* error) {
  const RunPtr run = runs_->run(selection_->current().run);
  try {
    if (!run || !run->report) throw InputError({path.toStdString(), 0, 0}, "no run is selected");
    const report::CompileReport& r = *run->report;
    std::string text;
    if (format == QStringLiteral("dot")) {
      text = exporters::ReportDot(
          r, r.model_nodes_size() > 0 ? exporters::DotGraph::kModel : exporters::DotGraph::kHint);
    } else if (format == QStringLiteral("onnx")) {
      text = exporters::OnnxModelBinary(r);
    } else if (format == QStringLiteral("onnxtxt")) {
      text = exporters::OnnxModelText(r);
    } else if (format == QStringLiteral("trace")) {
      text = exporters::TraceJson(r);
    } else {
      throw InputError({}, "unknown export format '" + format.toStdString() + "'");
    }
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw InputError({path.toStdString(), 0, 0}, "cannot write the file");
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void MainWindow::exportReportDialog(const QString& format) {
  const QString suffix = format == QStringLiteral("trace") ? QStringLiteral("json") : format;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export"), QStringLiteral("autofuse.") + suffix);
  if (path.isEmpty()) return;
  QString error;
  if (!exportReport(format, path, &error)) QMessageBox::warning(this, tr("Export"), error);
}

bool MainWindow::saveReportWithSources(const QString& dir, QString* error) {
  const RunPtr run = runs_->run(selection_->current().run);
  try {
    if (!run) throw InputError({dir.toStdString(), 0, 0}, "no run is selected");
    SaveReportWithSources(*run, dir);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void MainWindow::openDialog() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open a graph or a report"), QString(),
      tr("Graphs and reports (*.txt *.pbtxt *.json *.py);;All files (*)"));
  if (!path.isEmpty()) open(path);
}

void MainWindow::openFolderDialog() {
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open a torch_compile_debug folder, a case folder or an afc output folder"));
  if (!dir.isEmpty()) open(dir);
}

CompareDialog* MainWindow::compareRuns(int a, int b) {
  if (runs_->count() < 2) {
    status_text_->setText(tr("Compare runs needs two runs open."));
    return nullptr;
  }
  if (a < 0 || b < 0) {
    const int sel = selection_->current().run;
    b = sel >= 0 ? sel : runs_->count() - 1;
    a = b > 0 ? b - 1 : 1;
    if (const RunPtr r = runs_->run(b); r && r->parent) {
      for (int i = 0; i < runs_->count(); ++i) {
        if (runs_->run(i) == r->parent) a = i;
      }
    }
  }
  auto* dialog = new CompareDialog(runs_, a, b, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

void MainWindow::saveDialog(bool with_sources) {
  QString error;
  if (with_sources) {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Save report and sources into"));
    if (dir.isEmpty()) return;
    if (!saveReportWithSources(dir, &error)) QMessageBox::warning(this, tr("Save report"), error);
  } else {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save report"), QStringLiteral("report.json"), tr("CompileReport (*.json)"));
    if (path.isEmpty()) return;
    if (!saveReport(path, &error)) QMessageBox::warning(this, tr("Save report"), error);
  }
}

void MainWindow::exportDialog(const QString& suffix) {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export graph"), QStringLiteral("graph.") + suffix,
      suffix == QStringLiteral("svg") ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportGraph(path, &error)) QMessageBox::warning(this, tr("Export graph"), error);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) open(url.toLocalFile());
  }
  event->acceptProposedAction();
}

}  // namespace af::viewer
