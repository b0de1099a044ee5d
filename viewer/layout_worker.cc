#include "layout_worker.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

namespace af::viewer {

LayoutWorker::LayoutWorker(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(1);
}

LayoutWorker::~LayoutWorker() {
  pool_.waitForDone();
}

std::shared_ptr<const GraphLayout> LayoutWorker::cached(const QString& key) const {
  return cache_.value(key);
}

std::shared_ptr<const GraphLayout> LayoutWorker::request(const QString& key, const GraphSpec& spec,
                                                         LayoutEngine engine) {
  return request(key, [spec, engine] { return LayoutWith(spec, engine); });
}

std::shared_ptr<const GraphLayout> LayoutWorker::request(const QString& key,
                                                         std::function<GraphLayout()> make) {
  if (auto hit = cache_.value(key)) return hit;
  if (pending_.contains(key)) return nullptr;
  const bool was_busy = busy();
  pending_.insert(key);
  if (!was_busy) emit busyChanged(true);
  (void)QtConcurrent::run(&pool_, [this, key, make = std::move(make)] {
    auto layout = std::make_shared<const GraphLayout>(make());
    QMetaObject::invokeMethod(
        this, [this, key, layout] { finish(key, layout); }, Qt::QueuedConnection);
  });
  return nullptr;
}

void LayoutWorker::finish(const QString& key, std::shared_ptr<const GraphLayout> layout) {
  pending_.remove(key);
  cache_.insert(key, std::move(layout));
  emit ready(key);
  if (!busy()) emit busyChanged(false);
}

}  // namespace af::viewer
