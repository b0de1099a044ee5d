// afc compile / run on whole model graphs (aten FX files and PyTorch oracle case directories):
// the fusion front end, then every fused kernel through the pipeline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

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

// Inductor's grouping beside ours (the CompileReport's framework_groupings, in report.json's
// form): a compact summary per model folder for --json output, and the text form.
nlohmann::json GroupingSummary(const nlohmann::json& groupings);
void PrintGroupingSummary(const nlohmann::json& groupings, const std::string& indent);
// framework_groupings of the report.json in `dir` (an empty array when it has none).
nlohmann::json ReportGroupings(const std::string& dir);
// framework_groupings for a model folder: Inductor's groups against our front end's decisions
// with the default options (an empty array when the folder lacks one side).
nlohmann::json FolderGroupings(const std::string& model_dir);

}  // namespace af::cli
