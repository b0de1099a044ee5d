// The one table of what the front end knows of each aten/prims op, keyed by the op's name: its
// kind (how the fusion rules treat it), whether it runs on the cube unit, and the rules that lower
// it to AscIR (src/frontend/lower_*.cc) and evaluate it on host arrays (src/frontend/eval_*.cc).
// Shape inference rules are keyed by the same names (model/infer_*.cc). Callers that need to know
// what an op is ask here instead of keeping their own lists of names.
#pragma once

#include <cstdint>

#include "autofuse/model/graph.h"

namespace af::frontend {

// What kind of op a model node is, for the fusion rules.
enum class OpKind : std::uint8_t {
  kPointwise,  // elementwise math, comparisons, where, casts
  kReduce,     // sum, mean, amax, amin, prod, var, var_mean, any, all
  kView,       // view/reshape, unsqueeze, squeeze, expand, permute, slice, select, alias, clone,
               // split, split_with_sizes, chunk, unbind
  kData,       // data movement that copies: cat, constant_pad_nd, index_select, embedding, gather,
               // index (one index tensor)
  kCube,       // mm, bmm, addmm: lowered to AscIR's MatMul family only with the matmul pass
               // (--autofuse_enable_pass=matmul), else CUBE_OP like kOther
  kOther,      // not lowerable
};

// The kind of `op`: kOther for ops outside aten/prims, ops without a lowering rule, and the split
// and gather families outside aten.
OpKind KindOfOp(const model::OpName& op);
// The kind of node `n` (kOther for Python-level nodes).
OpKind KindOfNode(const model::Node& n);
// True for the reductions (kind kReduce): sum, mean, amax, amin, prod, any, all, var, var_mean.
bool IsReduction(const model::OpName& op);
// True for the matmul and convolution family (by name, any namespace): they run on the cube unit.
bool IsCubeOp(const model::OpName& op);
// True for ops whose result depends on the order they accumulate in (by name, any namespace): the
// reductions, the cube ops and softmax / log_softmax. Comparisons against a reference that
// accumulates in another order need a looser tolerance for them.
bool Accumulates(const model::OpName& op);

}  // namespace af::frontend
