// afc compile / run / estimate on whole model graphs (aten FX files and PyTorch oracle case
// directories): what afc prints about the front end's kernels and fallbacks, running a case
// folder, and the modeled fusion estimate.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "autofuse/pipeline/pipeline.h"
#include "commands.h"

namespace af::cli {

// After `afc compile` wrote a model graph's outputs: the kernels, fallbacks and timings.
int PrintCompiledGraph(const CompileOptions& opts, const pipeline::CompileResult& r);
// `afc run` on a case folder imported as a model graph.
int RunRunGraph(const RunCmdOptions& opts, const pipeline::Options& o, const pipeline::Input& in);

// afc estimate INPUT [--bind ...] [--soc ...] [--json]: modeled fused vs unfused time.
struct EstimateOptions {
  CommonOptions common;
  bool superkernel = false;  // separate vs super kernels (pipeline/superkernel.h)
  std::string trace;         // with superkernel: Chrome trace of both timelines
};
int RunEstimate(const EstimateOptions& opts);

// What flags do after a compile, on stderr and disk: --replace_kernel's files, --att_profiling,
// --codegen_compile_debug's dump tree under --debug_dir (pipeline/debug_dump.h).
void FlagEffects(const pipeline::CompileResult& r, const pipeline::Options& o);
// --att_profiling: each kernel's tiling cases and solve time on stderr.
void PrintAttProfiling(const pipeline::CompileResult& r, const pipeline::Options& o);

// framework_groupings of the report.json in `dir` (an empty array when it has none).
nlohmann::json ReportGroupings(const std::string& dir);
// The compile's kernel counts: as JSON, and as the line `afc compile` prints.
nlohmann::json KernelCountsJson(const pipeline::KernelCounts& c);
std::string KernelCountsLine(const pipeline::KernelCounts& c);

}  // namespace af::cli
