// Lowering of model-graph (aten / prims) ops to AscIR hint graphs. A group of model nodes becomes
// one hint graph: the values it reads from outside become Data + Load (views of graph inputs such
// as permute, slice, select, split, expand and contiguous reshapes fold into the Load's strides
// and offset; gathers read their params and indices straight from Data), data movement becomes
// Concat (cat, constant_pad_nd), Split (split of a computed value) and Gather, every op becomes a
// few AscIR nodes over one shared loop nest (broadcasts explicit, reductions keep-dim, fp16/bf16
// computed in fp32), and the values used outside the group become Store + Output. Ops or groups
// that cannot be lowered raise LowerError with a reason code.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "autofuse/frontend/op_registry.h"
#include "autofuse/ir/graph.h"
#include "autofuse/model/graph.h"

namespace af::frontend {

// A node or group that cannot become a hint graph; `code` is a stable reason code
// (UNSUPPORTED_OP, UNSUPPORTED_DTYPE, CUBE_OP, AXIS_CONFLICT, VIEW_NOT_FUSIBLE, ...).
class LowerError : public std::runtime_error {
 public:
  LowerError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// Who reads each value of a model graph: the nodes with a tensor output that read it (size
// queries such as sym_size read no data), and whether the graph returns it. A group's outputs are
// its values read outside it; LowerGroup computes this index per call unless given one, so callers
// lowering many groups of one graph (the fusion decider) compute it once (ComputeValueUses).
struct ValueUses {
  std::vector<std::vector<int>> readers;  // value id -> reading node ids, ascending, no repeats
  std::vector<bool> returned;             // value id -> the graph returns it
};
ValueUses ComputeValueUses(const model::Graph& g);

struct LowerOptions {
  bool upcast_half = true;  // compute fp16/bf16 in fp32 (AutoFuse's precision rule)
  std::string name = "fused";
  bool all_outputs = false;         // store every tensor the group computes (single-op checks)
  const ValueUses* uses = nullptr;  // ComputeValueUses(g) of the graph lowered; null: per call
  // --autofuse_enable_pass=matmul: mm, bmm and addmm lower to AscIR's cube ops (cube + vector
  // kernels); off, they are CUBE_OP as every cube op.
  bool matmul = false;
};

struct OpSupport {
  OpKind kind = OpKind::kOther;
  std::string code;     // empty when supported
  std::string message;  // why not
  bool ok() const { return code.empty(); }
};

// Whether a single node can be lowered (op known, attributes understood, dtypes supported).
// With `matmul` (the matmul pass), mm, bmm and addmm are checked as cube + vector kernel members.
OpSupport CheckOp(const model::Graph& g, const model::Node& n, bool matmul = false);

struct LoweredKernel {
  ir::Graph graph;
  std::vector<int> inputs;   // model value ids feeding Data index k
  std::vector<int> outputs;  // model value ids written by Output index k
};

// Lowers the nodes `nodes` (model node ids) of `g` into one hint graph. The outputs are the group's
// values used by nodes outside the group or returned by the graph, in value-id order. Throws
// LowerError.
LoweredKernel LowerGroup(const model::Graph& g, const std::vector<int>& nodes,
                         const LowerOptions& options = {});

}  // namespace af::frontend
