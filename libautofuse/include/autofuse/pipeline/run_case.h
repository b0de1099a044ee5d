// Running a whole model graph (a PyTorch oracle case folder: fx_graph_readable.py, inputs/,
// expected/): the fused kernels through their generated code on the CPU runtime, the ops left
// outside on the model-graph reference evaluator, in dependency order; then the returned values
// against the case's expected arrays.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autofuse/pipeline/pipeline.h"
#include "autofuse/pipeline/run.h"

namespace af::pipeline {

struct CaseRun {
  bool ok = false;
  std::vector<OutputCheck> outputs;  // one per returned tensor
  std::vector<std::string> log;      // one line per executed kernel / fallback op
  CompileResult compiled;
};

// `input` is a case folder imported as a model graph (input.path the folder): inputs/<placeholder>
// .npy, expected/out<K>.npy. Size symbols are bound from the inputs (and options.bindings).
// Tolerances default by dtype (reduction-aware).
CaseRun RunCase(const Input& input, const Options& options,
                std::optional<double> atol = std::nullopt,
                std::optional<double> rtol = std::nullopt);

}  // namespace af::pipeline
