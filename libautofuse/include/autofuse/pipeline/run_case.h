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

// Where a case's arrays are: empty = inputs/ and expected/ of the case folder (input.path when
// it is a folder, else the folder holding the file, as for a GE dump).
struct CaseDirs {
  std::string inputs;
  std::string expected;
};

// `input` is a model graph with its case folder: inputs/<placeholder>.npy (or the name with
// every character outside [A-Za-z0-9_.-] as '_', or in<K>.npy), expected/out<K>.npy; constants
// the input holds (input.constants) need no array. Size symbols are bound from the inputs (and
// options.bindings). Tolerances default by dtype (reduction-aware).
CaseRun RunCase(const Input& input, const Options& options,
                std::optional<double> atol = std::nullopt,
                std::optional<double> rtol = std::nullopt, const CaseDirs& dirs = {});

}  // namespace af::pipeline
