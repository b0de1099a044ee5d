// Inductor's post-fusion kernel groups as AscIR hint graphs, the way inductor_npu_ext lowers a
// LoopBody (reference §1.4), for the pointwise subset: canonical axes from the loop variables,
// Data/Load per input buffer with the view its index expression gives (offset, stride 0 =
// broadcast, then one Broadcast per broadcast axis), the pointwise ops, Store/Output for buffers
// read outside the group, fp16/bf16 computed in fp32. Groups we cannot lower (reductions,
// indirect or masked indexing, non-affine or transposed views, other ops, templates, extern
// kernels) become records with the reason, like inductor_npu_ext's fallbacks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autofuse/importers/inductor_dtypes.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/ir/graph.h"

namespace af::importers::inductor {

struct HintGroup {
  std::string name;                  // the post-fusion node (op1_op2)
  std::vector<std::string> members;  // its scheduler nodes
  std::optional<ir::Graph> graph;    // set when lowered (the graph passed ir::Validate)
  std::string reason;                // why not, when not
};

// One entry per kernel-producing top-level node of a post-fusion file (extern and nop nodes are
// not kernels and are left out). torch 2.0 fused nodes list only their members' names; their
// loop bodies are taken from the top-level nodes of `post`, then of `pre` (may be null).
// Buffer dtypes come from the layouts of `post` and `pre`, or from `types` when given
// (inductor_dtypes.h: layouts, then the FX graph and loop-body propagation).
std::vector<HintGroup> BuildHintGraphs(const IrFile& post, const IrFile* pre,
                                       const BufferDTypes* types = nullptr);
// As above, with `pre` read from the ir_pre_fusion.txt next to `post.file` when a fused node
// needs it and the file is there (a damaged one is ignored: those groups fall back), and, when
// the dump prints no layouts (torch 2.0), the dtypes derived with the model folder's FX graph.
std::vector<HintGroup> BuildHintGraphs(const IrFile& post);

}  // namespace af::importers::inductor
