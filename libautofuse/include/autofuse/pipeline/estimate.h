// Modeled fusion gain (`afc estimate`): for each fused kernel of a model graph, its modeled time
// against the same ops compiled one per kernel, per-launch overhead included; and the totals.
// Kernel time = the tiling solver's modeled cycles of the chosen case at the device clock, plus
// one launch (frontend/device_facts.h: the clock is sourced per profile, the launch overhead is
// an assumption), priced by att::PriceKernel as the compiler would tile it. An op that does not
// schedule alone is costed by its global-memory bytes at 32 B/cycle per core over all vector
// cores; pure views of inputs cost nothing unfused.
//
// Inductor dumps are estimated by the input registry (inputs/inductor_estimate.h) with the same
// clock, pricing and totals.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/graph.h"
#include "autofuse/model/graph.h"
#include "autofuse/pipeline/pipeline.h"

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
  // The fused kernel's traffic figure (att/traffic.h): modelled MTE2 bytes over compulsory
  // bytes; 0 when the kernel has no tiling.
  double traffic_ratio = 0;
  // The same kernel compiled with unbound sizes: fused_us plus what its generated tiling function
  // costs at each launch (the tiling's solve_ns, measured on this host; docs/cost-model.md).
  double dynamic_us = 0;
};

struct SkippedKernel {
  std::string name;
  std::string reason;
};

struct GraphEstimate {
  std::vector<KernelEstimate> kernels;
  // Cube ops (mm, bmm, addmm) outside every fused kernel, each launched as the cube library's
  // kernel: modeled as its own cube kernel (the cube tiling, the fixpipe writing the product; in
  // fused_us) so that a graph with and without the matmul pass compare on the same model.
  std::vector<KernelEstimate> cube_outside;
  double cube_outside_us = 0;
  // The whole graph's launches of kernels and outside cube ops, and their modeled time (other
  // fallbacks, e.g. convolutions, are not priced).
  int graph_launches = 0;
  double graph_us = 0;
  std::vector<SkippedKernel> skipped;  // kernels / groups not in the totals, with the reason
  double fused_us = 0;
  double unfused_us = 0;
  double gain = 0;
  double clock_ghz = 0;  // what was used
  double launch_us = 0;
};

// The clock and launch overhead in use: the model's overrides, else the profile's facts.
struct ModelClock {
  double ghz = 0;
  double launch_us = 0;
  double Us(double cycles) const { return cycles / (ghz * 1e3); }
};
ModelClock ClockFor(const hw::Profile& profile, const EstimateModel& m);

// One launch of `hint` at the bound sizes: modeled time plus the launch overhead; nullopt with
// *why ("unbound sizes", "schedule refused [CODE]: ...", "no tiling: ...") when it has none.
// Unbound size symbols are added to *unbound.
std::optional<double> KernelLaunchUs(const ir::Graph& hint, const Options& o,
                                     const ModelClock& clock, std::set<std::string>* unbound,
                                     std::string* why);

// Sums the kernels into the totals and records the clock used.
void FinishEstimate(GraphEstimate& e, const ModelClock& c);

// A front-end compile (r.front_end set). Needs every size bound (options.bindings). Throws
// af::InputError naming an unbound symbol.
GraphEstimate Estimate(const CompileResult& r, const Options& options,
                       const EstimateModel& model = {});

// {"kernels":[{"name","fused_us","unfused_us","gain","traffic_ratio","dynamic_us","nodes"}…],"total":{"fused_us","unfused_us",
// "gain"},"model":{"clock_ghz","launch_us"},"skipped":[{"name","reason"}…]}
std::string EstimateJson(const GraphEstimate& e);

// Binds size symbols from a case directory's inputs/<placeholder>.npy for the graph `g` read from
// it (nothing when an input array is missing).
sym::Bindings BindCaseInputs(const model::Graph& g, const std::string& case_dir);

}  // namespace af::pipeline
