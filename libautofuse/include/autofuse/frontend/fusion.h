// The fusion decider: which model-graph ops become which fused kernels, and why the rest did
// not. Candidates are vertical (producer -> consumer) and horizontal (siblings reading one input)
// pairs of groups, ranked by priority then by the modeled bytes of global memory the fusion
// saves; a candidate is accepted when it is legal (fusion kind enabled, no cycle through an
// unfused group, within the node and input limits, lowerable as one hint graph, and accepted by
// the schedule and codegen). Every decision is a record with a reason code (docs/frontend.md).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "autofuse/frontend/lower.h"
#include "autofuse/model/graph.h"

namespace af::frontend {

struct FusionOptions {
  std::string soc = "ascend910b";
  // Fusion kinds beyond elementwise/broadcast (always on): reduce, slice, transpose.
  std::set<std::string> enabled_passes = {"reduce", "slice", "transpose"};
  int max_nodes = 64;   // AscIR nodes per kernel (AutoFuse max_fusion_size)
  int max_inputs = 8;   // inputs per kernel (max_input_nums_after_fuse: 8 on V1 SoCs, 14 on V2)
  int max_rounds = 10;  // AutoFuse max_fuse_rounds
  bool upcast_half = true;
};

// Reads --autofuse_enable_pass=..., --autofuse_max_fusion_size=N, --autofuse_max_input_nums=N and
// --autofuse_max_fuse_rounds=N from AutoFuse-style flags; the SoC sets the input limit.
FusionOptions FusionOptionsFromFlags(const std::map<std::string, std::string>& flags,
                                     const std::string& soc);

struct FusionRecord {
  int round = 0;
  std::string kind;                // "vertical", "horizontal"
  std::vector<std::string> first;  // model node names of the two groups
  std::vector<std::string> second;
  bool accepted = false;
  std::string code;   // reason code (FUSED when accepted)
  std::string stage;  // who refused: "decider", "lower", "schedule", "codegen"
  std::string message;
  double bytes_saved = 0;  // modeled global-memory bytes the fusion saves
};

struct Fallback {
  int node = -1;  // model node id
  std::string code;
  std::string stage;
  std::string message;
  std::string Text(const model::Graph& g) const;  // "Fallback aten.mm.default mm reason: ..."
};

struct FusedKernel {
  std::vector<int> nodes;  // model node ids, in graph order
  LoweredKernel lowered;
};

struct FusionResult {
  std::vector<FusedKernel> kernels;  // in order of their first node
  std::vector<Fallback> fallbacks;   // op nodes left outside every kernel, in graph order
  std::vector<FusionRecord> records;
  int rounds = 0;
};

FusionResult DecideFusion(const model::Graph& g, const FusionOptions& options);

// fusion.json: {"graph", "options", "kernels": [...], "fallbacks": [...], "decisions": [...]}.
std::string FusionJson(const model::Graph& g, const FusionResult& r, const FusionOptions& o,
                       const std::vector<std::string>& kernel_names);

}  // namespace af::frontend
