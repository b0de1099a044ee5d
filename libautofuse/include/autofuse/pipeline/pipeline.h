// The pipeline, stage by stage, for one imported input (pipeline/input.h):
//
//   front end   model graphs: fusion decisions and lowering to hint graphs (with a reason for
//               every no); hint-graph inputs are kernels already
//   per kernel  schedule -> tiling -> codegen -> compile (pipeline/compile_kernel.h)
//
// with the dump hook after every stage. The report (pipeline/report.h) and running a built
// kernel (pipeline/run.h) read what Compile returns. Reading files is the input registry's job
// (inputs/registry.h, a layer above): the pipeline never includes an importer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autofuse/frontend/fusion.h"
#include "autofuse/model/graph.h"
#include "autofuse/pipeline/compile_kernel.h"
#include "autofuse/pipeline/input.h"
#include "autofuse/pipeline/options.h"

namespace af::pipeline {

struct StageTiming {
  std::string stage;
  double ms = 0;
};

// What the front end saw and decided, for model-graph inputs.
struct FrontEnd {
  model::Graph graph;
  std::string file;  // the file the graph was read from
  frontend::FusionOptions options;
  frontend::FusionResult fusion;
};

// How many kernels a compile had and where each came from (the report's kernel_counts).
struct KernelCounts {
  int groups = 0;    // kernels of the input (fused groups)
  int distinct = 0;  // structurally distinct kernels: generated once each
  int reused = 0;    // groups that are the same kernel as an earlier one (Kernel::same_as)
  int built = 0;     // host compiles run
  int cached = 0;    // host compiles the kernel cache answered
};

struct CompileResult {
  std::string input;
  std::string format;                 // the input registry's name for the input's format
  std::optional<FrontEnd> front_end;  // model-graph inputs
  // For model graphs one Kernel per fused kernel, in the order of front_end->fusion.kernels.
  std::vector<Kernel> kernels;
  std::vector<Fallback> fallbacks;
  std::vector<StageTiming> timings;  // import, frontend, schedule, tiling, codegen, compile
  KernelCounts counts;
  // The kernels are a framework's own groups (Inductor, AutoFuse): one our schedule refuses
  // falls back like an unlowered group instead of failing the whole input.
  bool framework_groups = false;
};

CompileResult Compile(Input input, const Options& options);

}  // namespace af::pipeline
