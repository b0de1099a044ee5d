// The recent-files list: the last inputs opened (graph files and reports), most recent first,
// kept in QSettings so it survives restarts, and shown as a File ▸ Open Recent menu.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace af::viewer {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  explicit RecentFiles(QObject* parent = nullptr);

  static constexpr int kMax = 10;

  QStringList files() const { return files_; }
  void add(const QString& path);
  void clear();
  // Rebuilds `menu` from the list; choosing an entry emits openRequested.
  void fillMenu(QMenu* menu);

 signals:
  void openRequested(const QString& path);
  void changed();

 private:
  void save() const;

  QStringList files_;
};

}  // namespace af::viewer
