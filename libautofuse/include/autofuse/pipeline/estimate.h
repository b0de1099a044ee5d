// Modeled fusion gain (`afc estimate`): for each fused kernel of a model graph, its modeled time
// against the same ops compiled one per kernel, per-launch overhead included; and the totals.
// Kernel time = the tiling solver's modeled cycles of the chosen case at the model clock, plus
// one launch. An op that does not schedule alone is costed by its global-memory bytes at the
// MTE bandwidth over all vector cores; pure views of inputs cost nothing unfused.
#pragma once

#include <string>
#include <vector>

#include "autofuse/pipeline/graph_driver.h"

namespace af::pipeline {

// Model constants (placeholders until the calibrated cost model of issue 5 replaces them).
struct EstimateModel {
  double clock_ghz = 1.8;            // vector core clock used to turn cycles into time
  double launch_us = 3.0;            // per-kernel launch overhead
  double gm_bytes_per_cycle = 32.0;  // per core, as the tiling cost model's MTE terms
};

struct KernelEstimate {
  std::string name;
  std::vector<std::string> nodes;
  double fused_us = 0;
  double unfused_us = 0;
  double gain = 0;  // unfused / fused
};

struct GraphEstimate {
  std::vector<KernelEstimate> kernels;
  double fused_us = 0;
  double unfused_us = 0;
  double gain = 0;
};

// Needs every size bound (options.bindings). Throws af::InputError naming an unbound symbol.
GraphEstimate Estimate(const GraphCompileResult& r, const Options& options,
                       const EstimateModel& model = {});

// {"kernels":[{"name","fused_us","unfused_us","gain","nodes"}…],"total":{"fused_us","unfused_us","gain"}}
std::string EstimateJson(const GraphEstimate& e);

// Binds size symbols from a case directory's inputs/<placeholder>.npy (nothing for other paths).
sym::Bindings BindCaseInputs(const std::string& path);

}  // namespace af::pipeline
