// Stage markers on stderr when AF_TRACE_STAGES is set (see stage_trace.h).
#include "autofuse/support/stage_trace.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace af {

void TraceStage(std::string_view stage) {
  static const bool on = [] {
    const char* v = std::getenv("AF_TRACE_STAGES");
    return v != nullptr && *v != '\0' && std::string_view(v) != "0";
  }();
  if (!on) return;
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  const std::string line = "afc stage: " + std::string(stage) + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace af
