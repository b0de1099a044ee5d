// Driving the window from the command line: after the inputs are loaded, apply --select, --case,
// --graph, --tab and --node; and the --screenshot mode, which renders the 1600×1000 window to a
// PNG once the pipeline and the graph layout are done, then returns the exit code.
#pragma once

#include <QString>

#include "app_options.h"

namespace af::viewer {

class MainWindow;

constexpr int kScreenshotWidth = 1600;
constexpr int kScreenshotHeight = 1000;

// Applies the view options to the selected run; false (with `error`) when one names something
// that is not there (an unknown kernel, case or node).
bool ApplyViewOptions(MainWindow* w, const AppOptions& o, QString* error);

// Opens o.inputs[0], applies the view options, waits, saves the window to o.screenshot.
// Returns 0 when the picture was written and the run succeeded, 2 when the input could not be
// compiled or an option named nothing (the picture is still written when possible), 1 when
// the picture could not be written or the pipeline did not finish in time.
int RunScreenshot(MainWindow* w, const AppOptions& o, QString* error);

}  // namespace af::viewer
