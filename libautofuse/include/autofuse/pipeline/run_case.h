// Running a whole model graph (a PyTorch oracle case folder: fx_graph_readable.py, inputs/,
// expected/): the fused kernels through their generated code on the CPU runtime, the ops left
// outside on the model-graph reference evaluator, in dependency order; then the returned values
// against the case's expected arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/pipeline/pipeline.h"
#include "autofuse/pipeline/run.h"
#include "autofuse/pipeline/superkernel.h"

namespace af::pipeline {

struct CaseRun {
  bool ok = false;
  std::vector<OutputCheck> outputs;  // one per returned tensor
  std::vector<std::string> log;      // one line per executed kernel / fallback op
  CompileResult compiled;
  // Drawn inputs (--superkernel on a model graph without a case folder): no expected arrays.
  bool random_inputs = false;
  // --superkernel: the plan, the second run's log, how many kernel-written values were compared
  // between the separate kernels and the super kernels and how many differed, and the returned
  // values of the super run against the expected arrays.
  std::optional<SuperPlan> super_plan;
  std::vector<std::string> super_log;
  int super_values_checked = 0;
  int super_values_differ = 0;
  std::vector<OutputCheck> super_outputs;
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
// --superkernel: after the separate run, the graph runs again with super kernels
// (superkernel.h) and every value a kernel writes must be byte for byte the same; a model graph
// without a case folder then runs on inputs drawn from `seed` (sizes from options.bindings).
struct SuperCaseOptions {
  bool enabled = false;
  std::uint64_t seed = 0;
};

CaseRun RunCase(const Input& input, const Options& options,
                std::optional<double> atol = std::nullopt,
                std::optional<double> rtol = std::nullopt, const CaseDirs& dirs = {},
                const SuperCaseOptions& super = {});

}  // namespace af::pipeline
