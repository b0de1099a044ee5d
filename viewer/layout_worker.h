// Lays graphs out off the GUI thread and remembers the results. A panel asks for a layout by key
// (run, kernel, graph kind, case); a cached layout is returned at once, otherwise Graphviz runs
// in a worker and `ready(key)` follows. Panels ignore keys they no longer show, so switching
// kernels while a large graph is being laid out never blocks anything.
#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <memory>

#include "graph_layout.h"

namespace af::viewer {

class LayoutWorker : public QObject {
  Q_OBJECT

 public:
  explicit LayoutWorker(QObject* parent = nullptr);
  ~LayoutWorker() override;  // waits for a layout still running

  // The layout for `key` when it is cached; otherwise starts it and returns null. `engine` picks
  // dot or the layered engine (kAuto: by size, graph_layout.h).
  std::shared_ptr<const GraphLayout> request(const QString& key, const GraphSpec& spec,
                                             LayoutEngine engine = LayoutEngine::kAuto);
  // Same, for a layout computed by `make` (a layout derived from a cached one).
  std::shared_ptr<const GraphLayout> request(const QString& key, std::function<GraphLayout()> make);
  std::shared_ptr<const GraphLayout> cached(const QString& key) const;
  bool busy() const { return !pending_.isEmpty(); }

 signals:
  void ready(const QString& key);
  void busyChanged(bool busy);

 private:
  void finish(const QString& key, std::shared_ptr<const GraphLayout> layout);

  QHash<QString, std::shared_ptr<const GraphLayout>> cache_;
  QSet<QString> pending_;
  QThreadPool pool_;
};

}  // namespace af::viewer
