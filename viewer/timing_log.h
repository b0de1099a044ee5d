// The viewer's own timings (`afviewer --timings`): how long the pipeline ran, how long each graph
// took to lay out and how long until it was on screen, one line each on stderr. Performance is
// measured, never asserted: docs/benchmarks.md records what these lines say for the real models.
#pragma once

#include <QString>

namespace af::viewer {

void SetTimingLog(bool on);
bool TimingLogOn();
// Writes "afviewer: timing: <text>" to stderr when the log is on.
void LogTiming(const QString& text);

}  // namespace af::viewer
