// Shared helpers of the afviewer tests: where the inputs are, a QApplication on the offscreen
// platform (made once by the test environment), waiting for the window to settle, and the
// fixture that gives each test a fresh, shown main window.
#pragma once

#include <gtest/gtest.h>

#include <QString>
#include <functional>
#include <memory>

#include "main_window.h"
#include "run_data.h"

namespace af::viewer::test {

QString SamplePath();                      // samples/hint_graphs/add_bcast_relu.AscGraphDef.txt
QString SourcePath(const QString& rel);    // <source dir>/<rel>
QString FixturePath(const QString& name);  // tests/viewer/fixtures/<name>
QString TempPath(const QString& name);     // a fresh file or folder name in a per-test temp dir
RunRequest Bound(std::int64_t s0, std::int64_t s1);

// Processes events until pred() holds; false after timeout_ms.
bool WaitFor(const std::function<bool()>& pred, int timeout_ms = 60000);
// Opens `path` in the window and waits until the new run is in and the graph is drawn.
bool OpenAndWait(MainWindow* w, const QString& path, const RunRequest& request = RunRequest());

// A 1600×1000 main window, shown, made fresh for every test.
class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    w_ = std::make_unique<MainWindow>();
    w_->resize(1600, 1000);
    w_->show();
  }
  void TearDown() override { w_.reset(); }
  MainWindow* w() { return w_.get(); }
  std::unique_ptr<MainWindow> w_;
};

}  // namespace af::viewer::test
