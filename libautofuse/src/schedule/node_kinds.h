// Node predicates shared by the schedule's steps (axis groups, buffers, cases, templates): which
// nodes compute, which reduce, which loads read their innermost dim with a stride.
#pragma once

#include "autofuse/ir/graph.h"
#include "autofuse/ir/op_registry.h"

namespace af::schedule {

// A node with a compute type other than a buffer (Data, Output, Workspace).
inline bool IsCompute(const ir::Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op != nullptr && op->compute != ir::ComputeType::kBuffer;
}

inline bool IsReduce(const ir::Node& n) {
  return ir::IsReduceOp(n.type);
}

// A Load whose innermost dim is read with a stride other than 1 (and is not a broadcast).
inline bool IsStridedLoad(const ir::Node& n) {
  if (n.type != "Load" || n.outputs.empty()) return false;
  const ir::Tensor& t = n.outputs[0];
  if (t.strides.empty()) return false;
  return t.strides.back() != sym::Expr(1) && t.repeats.back() != sym::Expr(1);
}

}  // namespace af::schedule
