// The afviewer tests' environment: one QApplication on the offscreen platform for the whole test
// binary, QSettings in test mode (the recent-files list never touches the user's settings), and
// the kernel cache inside the build tree.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <memory>

#include "run_manager.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

class QtEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("AF_CACHE_DIR")) qputenv("AF_CACHE_DIR", AF_KERNEL_CACHE_DIR);
    QStandardPaths::setTestModeEnabled(true);
    static int argc = 1;
    static char name[] = "viewer_test";
    static char* argv[] = {name, nullptr};
    app_ = std::make_unique<QApplication>(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("autofuse-tests"));
    QApplication::setApplicationName(QStringLiteral("afviewer-tests"));
  }
  void TearDown() override { app_.reset(); }

 private:
  std::unique_ptr<QApplication> app_;
};

[[maybe_unused]] ::testing::Environment* const kEnv =
    ::testing::AddGlobalTestEnvironment(new QtEnvironment);

}  // namespace

QString SamplePath() {
  return SourcePath(QStringLiteral("samples/hint_graphs/add_bcast_relu.AscGraphDef.txt"));
}

QString SourcePath(const QString& rel) {
  return QDir(QStringLiteral(AF_SOURCE_DIR)).filePath(rel);
}

QString FixturePath(const QString& name) {
  return QDir(QStringLiteral(AF_VIEWER_FIXTURES)).filePath(name);
}

QString TempPath(const QString& name) {
  static QTemporaryDir dir;  // removed when the test binary exits
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const QString sub = info != nullptr ? QString::fromLatin1(info->test_suite_name()) + "." +
                                            QString::fromLatin1(info->name())
                                      : QStringLiteral("global");
  QDir(dir.path()).mkpath(sub);
  return QDir(dir.path()).filePath(sub + "/" + name);
}

RunRequest Bound(std::int64_t s0, std::int64_t s1) {
  RunRequest r;
  r.bindings["s0"] = s0;
  r.bindings["s1"] = s1;
  return r;
}

bool WaitFor(const std::function<bool()>& pred, int timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (!pred()) {
    if (t.elapsed() > timeout_ms) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(1);
  }
  return true;
}

bool OpenAndWait(MainWindow* w, const QString& path, const RunRequest& request) {
  const int before = w->runs()->count();
  w->open(path, request);
  return WaitFor([&] { return w->runs()->count() > before && w->idle(); });
}

}  // namespace af::viewer::test
