// Stage markers for watchdogs: with AF_TRACE_STAGES set (to anything but "" or "0"), afc writes
// `afc stage: NAME` to stderr, flushed, as it enters each long stage (schedule/tiling/codegen of a
// kernel, the host compile, the tiling function, the kernel launch, the reference interpreter).
// A caller that kills afc after a time limit (the soak, tests/soak/soak.py) reads the last marker
// to say which stage ran out of time. Off by default: no output, one getenv per process.
#pragma once

#include <string_view>

namespace af {

void TraceStage(std::string_view stage);

}  // namespace af
