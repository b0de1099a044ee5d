// The fusion decider: which model-graph ops become which fused kernels, and why the rest did
// not. Candidates are vertical (producer -> consumer) and horizontal (siblings reading one input)
// pairs of groups, ranked by priority then by the modeled bytes of global memory the fusion
// saves; a candidate is accepted when it is legal (fusion kind enabled, no cycle through an
// unfused group, within the node and input limits, lowerable as one hint graph, and accepted by
// the schedule and codegen). Every decision is a record with a reason code (docs/frontend.md).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "autofuse/frontend/lower.h"
#include "autofuse/model/graph.h"
#include "autofuse/sym/expr.h"

namespace af::frontend {

struct FusionOptions {
  std::string soc = "ascend910b";
  bool enabled = true;  // --enable_autofuse: false leaves every op outside AutoFuse's kernels
  // Fusion kinds beyond elementwise/broadcast (always on): reduce, slice, transpose.
  std::set<std::string> enabled_passes = {"reduce", "slice", "transpose"};
  int max_nodes = 64;   // AscIR nodes per kernel (AutoFuse max_fusion_size)
  int max_inputs = 8;   // inputs per kernel (max_input_nums_after_fuse: 8 on V1 SoCs, 14 on V2)
  int max_rounds = 10;  // AutoFuse max_fuse_rounds
  // AutoFuse's max_proximity: the most graph positions (last minus first op) one kernel's ops
  // may span; -1 = unlimited (AutoFuse's default).
  std::int64_t max_proximity = -1;
  // --skip_node_names_cfg: model node names and op types ("aten.add.Tensor" or "add") that
  // stay out of every kernel (AutoFuse's [ByNodeName] / [ByNodeType] sections).
  std::set<std::string> skip_names;
  std::set<std::string> skip_types;
  bool upcast_half = true;
  // Size bindings for the memory guards and the gain check (symbols not bound here fall back to
  // the graph's hints, see docs/frontend.md).
  sym::Bindings bindings;
  // Peak-memory guard (ours): refuse a fusion that raises the graph's modeled peak of live
  // global-memory bytes above this many bytes. -1: the device's HBM (DeviceFacts); 0: off.
  std::int64_t peak_memory_limit = -1;
  // AutoFuse's max_output_memory_size_after_fusion: the bytes a fused kernel writes, 13 GiB.
  std::int64_t max_output_memory = std::int64_t{13} << 30;
  // Modeled-gain check: fuse only when the ATT-modeled time of the fused kernel (plus one launch)
  // is below the sum of its parts' (each plus one launch) divided by min_gain.
  bool gain_check = false;
  double min_gain = 1.0;
  std::map<std::string, std::string> solver_flags;  // --autofuse_att_* / --att_* for the solver
};

// Reads --enable_autofuse, --autofuse_enable_pass=..., --autofuse_disable_pass=...,
// --max_fusion_size / --max_fuse_rounds / --max_proximity (AutoFuse's config names),
// --skip_node_names_cfg=FILE.ini, --autofuse_max_fusion_size=N,
// --autofuse_max_input_nums=N,
// --autofuse_max_fuse_rounds=N, --autofuse_peak_memory_limit=BYTES,
// --autofuse_max_output_memory=BYTES, --autofuse_fusion_gain_check=0|1 and
// --autofuse_fusion_min_gain=X from AutoFuse-style flags; the SoC sets the input limit. Throws
// LowerError("BAD_FLAG") on a malformed value.
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
  // The numbers behind the memory guard and the gain check, when they ran (-1: not computed).
  double peak_before = -1;  // modeled peak live global-memory bytes without this fusion
  double peak_after = -1;   // ... with it
  double fused_us = -1;     // modeled time of the fused kernel, one launch included
  double parts_us = -1;     // modeled time of the two parts, one launch each
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
