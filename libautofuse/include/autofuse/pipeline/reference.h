// The references `afc run` checks a generated kernel against, both from the reference
// interpreter. A kernel computes fp16/bf16 in fp32 with the rounding casts the schedule inserts
// (normalize's upcast), so the interpreter's run of the hint graph as written, which rounds every
// half step, is not what it computes: near a tie a comparison of upcast halves can come out the
// other way in the kernel and flip a Where (soak seeds 607, 991, 1585). So the first reference is
// the interpreter's run of schedule::PrecisionGraph (exactly the numbers the kernel computes);
// the second is the per-step run of the hint graph, in which a comparison whose operands are
// equal within the half's tolerance, or a float-to-integer Cast one integer off, takes the first
// reference's outcome (a settled tie), kept as a check that normalisation did not change what the
// graph means.
#pragma once

#include <cstdint>
#include <vector>

#include "autofuse/data/host_array.h"
#include "autofuse/ir/graph.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/sym/expr.h"

namespace af::pipeline {

struct References {
  std::vector<data::HostArray> normalized;  // outputs of the precision graph (Output order)
  // Outputs of the hint graph as written, ties settled; empty when the precision passes change
  // nothing (no fp16/bf16, no cast they rewrite): then `normalized` is that run already.
  std::vector<data::HostArray> per_step;
  std::int64_t settled_ties = 0;  // comparison elements the per-step run took from `normalized`
};

// Runs the interpreter on the precision graph of `hint` and, when it differs from `hint`, on
// `hint` itself with comparison ties settled. A tie: a two-operand comparison reading an fp16/bf16
// value whose per-step operands a, b satisfy |a - b| <= atol + rtol * max(|a|, |b|) at the
// tolerance of the graph's least precise half (data::DefaultTolerance, after a reduction when the
// graph reduces) while its outcome differs from the precision graph's; and a Cast from a float to
// an integer whose result is a neighbouring integer of the precision graph's (within 1 + the
// half's rtol * |value|, as an integer output truncated from a half is compared).
References ComputeReferences(const ir::Graph& hint, const schedule::ScheduleOptions& options,
                             const sym::Bindings& bindings,
                             const std::vector<data::HostArray>& inputs);

}  // namespace af::pipeline
