#include "timing_log.h"

#include <atomic>
#include <cstdio>

namespace af::viewer {
namespace {
std::atomic<bool> g_on{false};
}

void SetTimingLog(bool on) {
  g_on = on;
}

bool TimingLogOn() {
  return g_on;
}

void LogTiming(const QString& text) {
  if (!g_on) return;
  std::fprintf(stderr, "afviewer: timing: %s\n", qPrintable(text));
  std::fflush(stderr);
}

}  // namespace af::viewer
