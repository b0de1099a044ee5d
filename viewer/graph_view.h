// The graph view: a QGraphicsView over a GraphScene with zoom (wheel, anchored under the mouse;
// buttons), pan (drag), fit-to-window, centring on a node, and export of the whole graph to PNG
// or SVG (vector, from the scene items, not a screenshot of the viewport).
#pragma once

#include <QGraphicsView>
#include <QString>

namespace af::viewer {

class GraphScene;

class GraphView : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);

  void fit();
  // The first view of a new graph: fitted when that stays readable, else at a readable zoom on
  // the top of the graph (where the inputs are).
  void showStart();
  void zoomIn();
  void zoomOut();
  void zoomBy(double factor);
  double zoom() const;  // 1 = one scene point per pixel
  void centerOnRect(const QRectF& r);

  // Render the whole graph. PNG at `scale` pixels per point (capped so neither side exceeds
  // 16384 px). Return false (with `error`) when the file cannot be written.
  bool exportPng(const QString& path, double scale = 2.0, QString* error = nullptr) const;
  bool exportSvg(const QString& path, QString* error = nullptr) const;

 protected:
  void wheelEvent(QWheelEvent* event) override;

 private:
  GraphScene* scene_;
};

}  // namespace af::viewer
