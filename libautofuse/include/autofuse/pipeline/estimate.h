// Modeled fusion gain (`afc estimate`): for each fused kernel of a model graph, its modeled time
// against the same ops compiled one per kernel, per-launch overhead included; and the totals.
// Kernel time = the tiling solver's modeled cycles of the chosen case at the device clock, plus
// one launch (frontend/device_facts.h: the clock is sourced per profile, the launch overhead is
// an assumption). An op that does not schedule alone is costed by its global-memory bytes at
// 32 B/cycle per core over all vector cores; pure views of inputs cost nothing unfused.
//
// Inductor dumps (torch_compile_debug folders at any level, ir_post_fusion.txt): each of
// Inductor's fused groups that lowers to a hint graph is a fused kernel; its parts are its
// scheduler nodes, each lowered alone (from ir_pre_fusion.txt, else from the post-fusion file's
// sub-node dumps). Groups that cannot be estimated are listed under `skipped` with the reason.
#pragma once

#include <string>
#include <vector>

#include "autofuse/pipeline/graph_driver.h"

namespace af::pipeline {

// Model constants; 0 / negative values take the profile's DeviceFacts.
struct EstimateModel {
  double clock_ghz = 0;              // vector core clock used to turn cycles into time
  double launch_us = -1;             // per-kernel launch overhead
  double gm_bytes_per_cycle = 32.0;  // per core, for ops that do not schedule alone
};

struct KernelEstimate {
  std::string name;
  std::vector<std::string> nodes;
  double fused_us = 0;
  double unfused_us = 0;
  double gain = 0;  // unfused / fused
};

struct SkippedKernel {
  std::string name;
  std::string reason;
};

struct GraphEstimate {
  std::vector<KernelEstimate> kernels;
  std::vector<SkippedKernel> skipped;  // kernels / groups not in the totals, with the reason
  double fused_us = 0;
  double unfused_us = 0;
  double gain = 0;
  double clock_ghz = 0;  // what was used
  double launch_us = 0;
};

// Needs every size bound (options.bindings). Throws af::InputError naming an unbound symbol.
GraphEstimate Estimate(const GraphCompileResult& r, const Options& options,
                       const EstimateModel& model = {});

// An Inductor dump (torch_compile_debug folder at any level or an ir_post_fusion.txt). Throws
// af::InputError when the path holds no post-fusion IR or a lowered group has unbound sizes.
GraphEstimate EstimateInductor(const std::string& path, const Options& options,
                               const EstimateModel& model = {});

// {"kernels":[{"name","fused_us","unfused_us","gain","nodes"}…],"total":{"fused_us","unfused_us",
// "gain"},"model":{"clock_ghz","launch_us"},"skipped":[{"name","reason"}…]}
std::string EstimateJson(const GraphEstimate& e);

// Binds size symbols from a case directory's inputs/<placeholder>.npy (nothing for other paths).
sym::Bindings BindCaseInputs(const std::string& path);

}  // namespace af::pipeline
