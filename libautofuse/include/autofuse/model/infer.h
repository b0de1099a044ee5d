// Shape and dtype inference for model-graph nodes. Rules exist for the common aten/prims ops
// (pointwise with broadcasting and type promotion, comparisons, where, casts, reductions, views,
// matmul/convolution shapes, tensor creation, multi-output ops) and for Python arithmetic on
// symbolic sizes. Ops without a rule are opaque: their outputs keep the types the input file
// gives. Where both exist, inference is a check: a disagreement becomes a diagnostic, never an
// error, and the file's annotation is kept.
#pragma once

#include <string>
#include <vector>

#include "autofuse/model/graph.h"

namespace af::model {

struct InferResult {
  enum class Status : std::uint8_t {
    kInferred,      // `outputs` holds every output's type
    kNoRule,        // the op has no rule (opaque)
    kUnknownInput,  // an input's type is not known, so nothing can be said
    kFailed,        // the rule could not decide; `reason` says why
  };
  Status status = Status::kNoRule;
  std::vector<ValueType> outputs;
  bool multi_output = false;  // the op returns a tuple
  std::string reason;
};

// Infers the output types of one node from the current types of its inputs. Pure: the graph is
// not changed.
InferResult InferNode(const Graph& g, const Node& n);

// True when there is a rule for `op` (ignoring the overload when the rule covers all of them).
bool HasInferenceRule(const OpName& op);

// True when `op` is known to return a tuple (var_mean, unbind, max.dim, convolution_backward...).
bool IsMultiOutputOp(const OpName& op);

// Runs InferNode over all nodes in order. Unknown output types are filled in (source kInferred);
// annotated ones are checked (kChecked or kConflict, the latter with a kMismatch diagnostic).
// Multi-output nodes get output values for outputs the file never names. Sets Node::infer.
void InferTypes(Graph& g);

// The ops with rules, as "ns.name" (sorted), for documentation and `afc inspect`.
std::vector<std::string> InferableOps();

}  // namespace af::model
