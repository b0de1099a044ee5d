// Whole model graphs through the pipeline: an aten FX graph (a file, or a PyTorch oracle case
// directory holding fx_graph_readable.py) goes through the fusion front end; every fused kernel
// is then scheduled, tiled, generated and compiled like an AscGraph input; `RunCase` runs the
// whole graph -- fused kernels through their generated code on the CPU runtime, the ops left
// outside on the model-graph reference evaluator -- and compares with the case's expected/ arrays.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autofuse/frontend/fusion.h"
#include "autofuse/model/graph.h"
#include "autofuse/pipeline/pipeline.h"

namespace af::report {
class GroupingComparisonReport;
}

namespace af::pipeline {

// A case directory (with fx_graph_readable.py) or a file that reads as an aten FX graph.
bool IsModelGraphInput(const std::string& path);

struct GraphCompileResult {
  std::string input;
  model::Graph graph;
  frontend::FusionOptions fusion_options;
  frontend::FusionResult fusion;
  CompileResult compiled;  // one Kernel per fused kernel, same order as fusion.kernels
};

// Imports, decides fusion, compiles every fused kernel. Kernels a later stage refuses keep their
// error code (as in Compile).
GraphCompileResult CompileModelGraph(const std::string& path, const Options& options);

// The CompileReport of a front-end run: what FillReport writes for the kernels, plus the front
// end's decisions (`fusion_decisions`, one per FusionRecord) and the model graph
// (`model_nodes`: the tensor placeholders, every op node with the kernel that holds it or its
// fallback code, and the graph's output).
void FillGraphReport(const GraphCompileResult& r, const Options& options,
                     report::CompileReport* out);
std::string GraphReportJson(const GraphCompileResult& r, const Options& options);

// Writes the kernels' sources, report.json (FillGraphReport) and fusion.json into dir.
void WriteGraphOutputs(const GraphCompileResult& r, const Options& options, const std::string& dir,
                       bool overwrite);

// Inductor's grouping beside ours (issue 8) for a model folder holding ir_post_fusion.txt:
// Inductor's post-fusion groups mapped onto the FX graph `g` our front end read, our fused
// kernels (`kernel_names`, else codegen's names) and the comparison, into *out. False (and *out
// untouched) without ir_post_fusion.txt. The second form reads the folder's FX graph
// (fx_graph_readable.py, then transformed, then runnable) and decides fusion with `options`'
// flags; false without one.
bool CompareWithInductor(const std::string& model_dir, const model::Graph& g,
                         const frontend::FusionResult& fusion,
                         const std::vector<std::string>& kernel_names,
                         report::GroupingComparisonReport* out);
bool CompareWithInductor(const std::string& model_dir, const Options& options,
                         report::GroupingComparisonReport* out);

struct CaseRun {
  bool ok = false;
  std::vector<OutputCheck> outputs;  // one per returned tensor
  std::vector<std::string> log;      // one line per executed kernel / fallback op
  GraphCompileResult compiled;
};

// Runs a case directory: inputs/<placeholder>.npy, expected/out<K>.npy. Size symbols are bound
// from the inputs (and options.bindings). Tolerances default by dtype (reduction-aware).
CaseRun RunCase(const std::string& case_dir, const Options& options,
                std::optional<double> atol = std::nullopt,
                std::optional<double> rtol = std::nullopt);

}  // namespace af::pipeline
