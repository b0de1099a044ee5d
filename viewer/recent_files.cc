#include "recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace af::viewer {
namespace {
constexpr char kKey[] = "recentFiles";
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {
  files_ = QSettings().value(kKey).toStringList();
  while (files_.size() > kMax)
    files_.removeLast();
}

void RecentFiles::add(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  files_.removeAll(abs);
  files_.prepend(abs);
  while (files_.size() > kMax)
    files_.removeLast();
  save();
  emit changed();
}

void RecentFiles::clear() {
  files_.clear();
  save();
  emit changed();
}

void RecentFiles::fillMenu(QMenu* menu) {
  menu->clear();
  int n = 1;
  for (const QString& f : files_) {
    QAction* a =
        menu->addAction(QStringLiteral("&%1 %2").arg(n++ % 10).arg(QFileInfo(f).fileName()));
    a->setToolTip(f);
    a->setStatusTip(f);
    a->setEnabled(QFileInfo::exists(f));
    connect(a, &QAction::triggered, this, [this, f] { emit openRequested(f); });
  }
  if (files_.isEmpty()) menu->addAction(tr("(none)"))->setEnabled(false);
  menu->addSeparator();
  connect(menu->addAction(tr("Clear list")), &QAction::triggered, this, &RecentFiles::clear);
}

void RecentFiles::save() const {
  QSettings().setValue(kKey, files_);
}

}  // namespace af::viewer
