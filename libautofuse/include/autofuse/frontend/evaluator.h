// The reference evaluator of model graphs: runs aten/prims ops on host arrays, one op at a time,
// computing in double and rounding every result into its dtype as eager PyTorch does. It runs the
// ops the fusion front end leaves outside fused kernels (matmul included) when a whole graph is
// run (`afc run CASE`), and checks lowering in tests. Ops it does not know throw af::InputError
// "not supported by the reference evaluator".
#pragma once

#include <map>
#include <vector>

#include "autofuse/data/host_array.h"
#include "autofuse/model/graph.h"
#include "autofuse/sym/expr.h"

namespace af::frontend {

// Binds the size symbols of the graph inputs' annotated shapes (a dim that is a bare symbol)
// from the arrays given for them. Throws af::InputError on rank or size disagreements.
sym::Bindings BindFromInputs(const model::Graph& g, const std::vector<data::HostArray>& inputs);

class Evaluator {
 public:
  Evaluator(const model::Graph& g, sym::Bindings bindings);

  void Set(int value, data::HostArray a);
  bool Has(int value) const { return values_.contains(value); }
  const data::HostArray& Get(int value) const;
  // Evaluates node `id` (its inputs must be set); sets its outputs.
  void EvalNode(int id);
  // The concrete shape of a value's annotated / inferred type under the bindings.
  std::vector<std::int64_t> ShapeOf(int value) const;

 private:
  const model::Graph& g_;
  sym::Bindings b_;
  std::map<int, data::HostArray> values_;
};

}  // namespace af::frontend
