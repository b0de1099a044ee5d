#include "screenshot.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>

#include "graph_panel.h"
#include "graph_scene.h"
#include "kernel_inspector.h"
#include "main_window.h"
#include "model_graphs.h"
#include "report.pb.h"
#include "run_manager.h"
#include "selection_model.h"

namespace af::viewer {
namespace {
constexpr int kTimeoutMs = 180000;
}

bool ApplyViewOptions(MainWindow* w, const AppOptions& o, QString* error) {
  bool ok = true;
  auto fail = [&](const QString& text) {
    if (error) *error = error->isEmpty() ? text : *error + "; " + text;
    ok = false;
  };
  w->graph()->setLayoutEngine(o.layout == QStringLiteral("dot")       ? LayoutEngine::kDot
                              : o.layout == QStringLiteral("layered") ? LayoutEngine::kLayered
                                                                      : LayoutEngine::kAuto);
  w->graph()->setGrouping(o.grouping == QStringLiteral("inductor") ? Grouping::kInductor
                                                                   : Grouping::kOurs);
  if (!o.graph.isEmpty()) {
    w->graph()->setGraphKind(o.graph == QStringLiteral("impl")    ? GraphKind::kImpl
                             : o.graph == QStringLiteral("hint")  ? GraphKind::kHint
                             : o.graph == QStringLiteral("model") ? GraphKind::kModel
                                                                  : GraphKind::kNormalized);
  }
  if (!o.model.isEmpty()) {
    const RunPtr run = w->runs()->run(w->selection()->current().run);
    const std::vector<ModelGraph> models = run ? ModelGraphs(*run) : std::vector<ModelGraph>();
    bool is_index = false;
    int index = o.model.toInt(&is_index);
    if (!is_index) {
      index = -1;
      for (std::size_t i = 0; i < models.size(); ++i)
        if (models[i].label == o.model) index = static_cast<int>(i);
    }
    if (index < 0 || static_cast<std::size_t>(index) >= models.size()) {
      fail(QStringLiteral("no model graph '%1' in the run").arg(o.model));
    } else {
      w->graph()->setModel(index);
    }
  }
  if (!o.select.isEmpty() && !w->selectKernel(o.select)) {
    fail(QStringLiteral("no kernel '%1' in the run").arg(o.select));
  }
  if (o.tcase >= 0) {
    const RunPtr run = w->runs()->run(w->selection()->current().run);
    const auto* k = run ? run->kernel(w->selection()->current().kernel) : nullptr;
    if (k == nullptr || o.tcase >= k->cases_size()) {
      fail(QStringLiteral("no tiling case %1 in the selected kernel").arg(o.tcase));
    } else {
      w->selection()->selectCase(o.tcase);
    }
  }
  if (!o.tab.isEmpty() && !w->inspector()->setCurrentTab(o.tab)) {
    fail(QStringLiteral("no inspector tab '%1'").arg(o.tab));
  }
  if (!o.node.isEmpty()) {
    w->waitUntilIdle(kTimeoutMs);
    if (w->graph()->scene()->nodeRect(o.node).isNull()) {
      fail(QStringLiteral("no node '%1' in the drawn graph").arg(o.node));
    } else {
      w->selection()->selectNode(o.node);
    }
  }
  return ok;
}

int RunScreenshot(MainWindow* w, const AppOptions& o, QString* error) {
  w->resize(kScreenshotWidth, kScreenshotHeight);
  w->show();
  const int before = w->runs()->count();
  w->open(o.inputs.value(0), o.request);
  if (!w->waitUntilIdle(kTimeoutMs) || w->runs()->count() == before) {
    if (error) *error = QStringLiteral("the pipeline did not finish in time");
    return 1;
  }
  int code = 0;
  const RunPtr run = w->runs()->run(w->runs()->count() - 1);
  if (!run->ok()) {
    if (error) *error = run->error;
    code = 2;
  }
  QString view_error;
  if (!ApplyViewOptions(w, o, &view_error)) {
    if (error) *error = view_error;
    code = 2;
  }
  if (!w->waitUntilIdle(kTimeoutMs)) {
    if (error) *error = QStringLiteral("the graph layout did not finish in time");
    return 1;
  }
  // Let the last layouts and repaints settle.
  for (int i = 0; i < 5; ++i)
    QApplication::processEvents();
  QImage image = w->grab().toImage();
  if (o.scale < 1.0) {
    image = image.scaled(image.size() * o.scale, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  }
  if (image.isNull() || !image.save(o.screenshot, "PNG")) {
    if (error) *error = QStringLiteral("cannot write %1").arg(o.screenshot);
    return 1;
  }
  return code;
}

}  // namespace af::viewer
