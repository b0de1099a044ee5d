// The reference evaluator of model graphs (see evaluator.h): binding sizes from the inputs, and
// running one node by its op's evaluation rule (eval_*.cc, found through the op registry).
#include "autofuse/frontend/evaluator.h"

#include "autofuse/support/error.h"
#include "eval_rules.h"
#include "op_rules.h"

namespace af::frontend {

using Shape = std::vector<std::int64_t>;

sym::Bindings BindFromInputs(const model::Graph& g, const std::vector<data::HostArray>& inputs) {
  sym::Bindings b;
  std::size_t k = 0;
  for (int v : g.inputs) {
    const auto& t = g.value(v).type;
    if (!t.IsTensor()) continue;
    if (k >= inputs.size()) throw InputError({}, "fewer input arrays than tensor inputs");
    const auto& a = inputs[k++];
    if (a.shape.size() != t.shape.size()) {
      throw InputError({}, "input " + g.value(v).name + " has rank " +
                               std::to_string(a.shape.size()) + ", the graph says " + t.ToString());
    }
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      const auto& e = t.shape[d];
      if (e.IsSymbol()) {
        auto [it, fresh] = b.emplace(e.name(), a.shape[d]);
        if (!fresh && it->second != a.shape[d])
          throw InputError({}, "symbol " + e.name() + " bound to two sizes");
      }
    }
  }
  for (std::size_t j = 0, kk = 0; j < g.inputs.size(); ++j) {
    const auto& t = g.value(g.inputs[j]).type;
    if (!t.IsTensor()) continue;
    const auto& a = inputs[kk++];
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      std::int64_t want = 0;
      try {
        want = t.shape[d].Eval(b);
      } catch (const std::exception&) {
        continue;
      }
      if (want != a.shape[d]) {
        throw InputError({}, "input " + g.value(g.inputs[j]).name + " dim " + std::to_string(d) +
                                 " is " + std::to_string(a.shape[d]) + ", the graph says " +
                                 t.ToString());
      }
    }
  }
  return b;
}

Evaluator::Evaluator(const model::Graph& g, sym::Bindings bindings)
    : g_(g), b_(std::move(bindings)) {}

void Evaluator::Set(int value, data::HostArray a) {
  values_[value] = std::move(a);
}

const data::HostArray& Evaluator::Get(int value) const {
  auto it = values_.find(value);
  if (it == values_.end()) throw InputError({}, "value " + g_.value(value).name + " not computed");
  return it->second;
}

std::vector<std::int64_t> Evaluator::ShapeOf(int value) const {
  const auto& t = g_.value(value).type;
  Shape s;
  for (const auto& e : t.shape) {
    try {
      s.push_back(e.Eval(b_));
    } catch (const std::exception& ex) {
      throw InputError({}, "size of " + g_.value(value).name + ": " + ex.what());
    }
  }
  return s;
}
void Evaluator::EvalNode(int id) {
  const model::Node& n = g_.node(id);
  if (n.kind != model::NodeKind::kOp || n.outputs.empty()) return;
  bool tensor_out = false;
  for (int v : n.outputs)
    tensor_out = tensor_out || g_.value(v).type.IsTensor();
  if (!tensor_out) return;  // size queries and other scalar ops: nothing to compute
  const eval_detail::Ctx c(*this, g_, b_, n);
  const OpRule* rule = FindOpRule(n.op.name);
  if (rule == nullptr || rule->eval == nullptr)
    eval_detail::Fail(n, "not supported by the reference evaluator");
  rule->eval(c);
}

}  // namespace af::frontend
