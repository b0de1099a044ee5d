// Shared helpers of the afviewer tests: where the inputs are, a QApplication on the offscreen
// platform (made once by the test environment), and waiting for the window to settle.
#pragma once

#include <QString>
#include <functional>

#include "main_window.h"
#include "run_data.h"

namespace af::viewer::test {

QString SamplePath();                      // samples/hint_graphs/add_bcast_relu.AscGraphDef.txt
QString FixturePath(const QString& name);  // tests/viewer/fixtures/<name>
QString TempPath(const QString& name);     // a fresh file or folder name in a per-test temp dir
RunRequest Bound(std::int64_t s0, std::int64_t s1);

// Processes events until pred() holds; false after timeout_ms.
bool WaitFor(const std::function<bool()>& pred, int timeout_ms = 60000);
// Opens `path` in the window and waits until the new run is in and the graph is drawn.
bool OpenAndWait(MainWindow* w, const QString& path, const RunRequest& request = RunRequest());

}  // namespace af::viewer::test
