// afc compile / run on whole model graphs (aten FX files and PyTorch oracle case directories):
// the fusion front end, then every fused kernel through the pipeline.
#pragma once

#include "autofuse/pipeline/pipeline.h"
#include "commands.h"

namespace af::cli {

int RunCompileGraph(const CompileOptions& opts, const pipeline::Options& o);
int RunRunGraph(const RunCmdOptions& opts, const pipeline::Options& o);

// afc estimate INPUT [--bind ...] [--soc ...] [--json]: modeled fused vs unfused time.
struct EstimateOptions {
  CommonOptions common;
};
int RunEstimate(const EstimateOptions& opts);

}  // namespace af::cli
