// Internal to the schedule: AscIR's V2 Softmax node (softmax along its innermost axis, as
// AscendC's SoftMax normalises the last dim) rewritten as the reductions and elementwise ops the
// templates already schedule: Max, Broadcast, Sub, Exp, Sum, Broadcast, Div. The partition into
// groups and normalize run it first, so a Softmax is a norm-like graph like any other.
#pragma once

#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Rewrites every Softmax node of `g` in place (the Div keeps the node's name, so its readers and
// reports still find it); records SOFTMAX_EXPANDED per node in `d` when given. A graph without
// Softmax nodes is left as it is.
void ExpandSoftmax(ir::Graph& g, std::vector<Decision>* d);

}  // namespace af::schedule
