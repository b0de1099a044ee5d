#include "graph_view.h"

#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "graph_scene.h"

namespace af::viewer {

GraphView::GraphView(GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), scene_(scene) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void GraphView::fit() {
  const QRectF r = scene_->hasGraph() ? scene_->graphRect() : scene_->sceneRect();
  if (r.isEmpty()) return;
  fitInView(r, Qt::KeepAspectRatio);
  // Small graphs are not blown up beyond 1.5x: labels would look oversized.
  if (zoom() > 1.5) {
    resetTransform();
    scale(1.5, 1.5);
    centerOn(r.center());
  }
}

void GraphView::showStart() {
  resetTransform();
  fit();
  constexpr double kReadable = 0.45;
  if (zoom() >= kReadable || !scene_->hasGraph()) return;
  resetTransform();
  scale(0.85, 0.85);
  const QRectF r = scene_->graphRect();
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  centerOn(QPointF(r.center().x(), r.top() + visible.height() / 2));
}

void GraphView::zoomIn() {
  zoomBy(1.25);
}
void GraphView::zoomOut() {
  zoomBy(0.8);
}

void GraphView::zoomBy(double factor) {
  const double z = zoom() * factor;
  if (z < 0.02 || z > 20) return;
  scale(factor, factor);
}

double GraphView::zoom() const {
  return transform().m11();
}

void GraphView::centerOnRect(const QRectF& r) {
  if (r.isNull()) return;
  // Keep the node in view; zoom out when it does not fit.
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  if (r.width() > visible.width() || r.height() > visible.height()) {
    fitInView(r.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
  }
  centerOn(r.center());
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) {
    QGraphicsView::wheelEvent(event);
    return;
  }
  zoomBy(std::pow(1.15, steps));
  event->accept();
}

bool GraphView::exportPng(const QString& path, double scale, QString* error) const {
  const QRectF r = scene_->hasGraph() ? scene_->graphRect() : scene_->sceneRect();
  const double max_side = std::max(r.width(), r.height()) * scale;
  if (max_side > 16384) scale *= 16384 / max_side;
  const QSize size(std::max(1, static_cast<int>(std::ceil(r.width() * scale))),
                   std::max(1, static_cast<int>(std::ceil(r.height() * scale))));
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter p(&image);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene_->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), r);
  }
  if (!image.save(path, "PNG")) {
    if (error) *error = tr("cannot write %1").arg(path);
    return false;
  }
  return true;
}

bool GraphView::exportSvg(const QString& path, QString* error) const {
  const QRectF r = scene_->hasGraph() ? scene_->graphRect() : scene_->sceneRect();
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(r.size().toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), r.size()));
  svg.setTitle(QStringLiteral("afviewer graph"));
  QPainter p;
  if (!p.begin(&svg)) {
    if (error) *error = tr("cannot write %1").arg(path);
    return false;
  }
  scene_->render(&p, QRectF(QPointF(0, 0), r.size()), r);
  p.end();
  return true;
}

}  // namespace af::viewer
