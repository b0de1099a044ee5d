// Whether a model op node is a view that moves no data in our buffers, so that a kernel reading
// its result may read its input's buffer instead (SuperKernel planning, superkernel.h: such a
// view does not cut a segment).
//
// Every value our runtime hands a kernel is a dense row-major buffer of the value's shape (the
// separate run passes kernels dense arrays; a kernel writes its outputs that way). A view of
// such a buffer aliases it when element i of the result is element i of the input for every i:
// the op's strides over the input buffer (derived from the op: contiguous for the reshape family,
// permuted for permute/transpose, 0 on broadcast dims for expand) equal the contiguous strides
// of the result's shape on every dim whose size is not the constant 1, and the element counts
// agree. Sizes are symbolic: a dim counts as size 1 only when its size is the constant 1, so the
// decision holds for every binding of the size symbols. Ops that copy by contract (clone, the
// split family, slices that drop elements) never alias.
#pragma once

#include <string>

#include "autofuse/model/graph.h"

namespace af::pipeline {

struct ViewAlias {
  bool aliases = false;
  int source = -1;     // the value the result aliases (the op's input) when `aliases`
  std::string reason;  // why it aliases, or why it moves data ("" when it is no view op at all)
};

// The decision for op node `n` of `g` (any node; a node that is not an aten/prims view op gives
// aliases = false and an empty reason).
ViewAlias ViewAliasOf(const model::Graph& g, const model::Node& n);

}  // namespace af::pipeline
