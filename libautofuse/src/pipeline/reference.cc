// The two references a kernel is checked against (see reference.h): the precision graph's run,
// and the per-step run of the hint graph with comparison ties settled from it.
#include "autofuse/pipeline/reference.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "autofuse/data/compare.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/op_registry.h"

namespace af::pipeline {
namespace {

bool IsHalf(ir::DType t) {
  return t == ir::DType::kFloat16 || t == ir::DType::kBFloat16;
}

// The names of the two-operand comparisons (bool results) that read an fp16/bf16 value: the
// kernel compares the upcast fp32 values, the per-step reference the rounded halves.
std::set<std::string> HalfComparisons(const ir::Graph& g) {
  std::set<std::string> names;
  for (const auto& n : g.nodes) {
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op == nullptr || op->out_rule != ir::DTypeRule::kBool || n.inputs.size() != 2) continue;
    const bool half_in = std::any_of(n.inputs.begin(), n.inputs.end(), [&](const ir::InputRef& in) {
      return IsHalf(g.nodes[static_cast<std::size_t>(in.node)].outputs.at(in.output).dtype);
    });
    if (half_in) names.insert(n.name);
  }
  return names;
}

// The names of the Casts from a float to an integer: in a graph that computes halves, the value
// they truncate may differ between the runs by the half's rounding and straddle an integer (soak
// seed 539: bf16 Ln -> fp32 -> int64, expected 1, got 0).
std::set<std::string> FloatToIntCasts(const ir::Graph& g) {
  std::set<std::string> names;
  for (const auto& n : g.nodes) {
    if (n.type != "Cast" || n.inputs.size() != 1 || n.outputs.empty()) continue;
    const ir::InputRef in = n.inputs[0];
    const ir::DType from = g.nodes[static_cast<std::size_t>(in.node)].outputs.at(in.output).dtype;
    const ir::DType to = n.outputs[0].dtype;
    if (ir::IsFloat(from) && !ir::IsFloat(to) && to != ir::DType::kBool) names.insert(n.name);
  }
  return names;
}

// The tolerance two half operands are a tie within: the graph's least precise half's.
data::Tolerance TieTolerance(const ir::Graph& g) {
  ir::DType half = ir::DType::kFloat16;
  bool reduces = false;
  for (const auto& n : g.nodes) {
    reduces = reduces || ir::IsReduceOp(n.type);
    for (const auto& t : n.outputs) {
      if (t.dtype == ir::DType::kBFloat16) half = ir::DType::kBFloat16;
    }
  }
  return data::DefaultTolerance(half, reduces);
}

}  // namespace

References ComputeReferences(const ir::Graph& hint, const schedule::ScheduleOptions& options,
                             const sym::Bindings& bindings,
                             const std::vector<data::HostArray>& inputs) {
  References refs;
  const ir::Graph precise = schedule::PrecisionGraph(hint, options);
  if (precise == hint) {
    refs.normalized = interp::Interpret(hint, bindings, inputs);
    return refs;
  }
  // The precision graph's outcome of every half comparison (the nodes keep their names).
  std::map<std::string, data::HostArray> outcome;
  interp::NodeHook keep;
  keep.nodes = HalfComparisons(hint);
  const std::set<std::string> truncations = FloatToIntCasts(hint);
  keep.nodes.insert(truncations.begin(), truncations.end());
  keep.fn = [&](const ir::Node& n, const std::vector<data::HostArray>&, data::HostArray& value) {
    outcome[n.name] = value;
  };
  refs.normalized = interp::Interpret(precise, bindings, inputs, keep);

  const data::Tolerance tol = TieTolerance(hint);
  interp::NodeHook settle;
  settle.nodes = keep.nodes;
  settle.fn = [&](const ir::Node& n, const std::vector<data::HostArray>& in,
                  data::HostArray& value) {
    const auto it = outcome.find(n.name);
    if (it == outcome.end() || it->second.shape != value.shape || in.empty()) return;
    const bool truncation = truncations.contains(n.name);
    for (std::int64_t k = 0; k < value.numel(); ++k) {
      const std::int64_t want = it->second.GetAsInt(k);
      if (value.GetAsInt(k) == want) continue;
      if (truncation) {  // a neighbouring integer, as CheckOutput allows an integer output
        const double diff = std::fabs(static_cast<double>(value.GetAsInt(k) - want));
        if (diff <= 1.0 + tol.rtol * std::fabs(static_cast<double>(want))) {
          value.SetFromInt(k, want);
          ++refs.settled_ties;
        }
        continue;
      }
      const double a = in[0].GetAsDouble(k);
      const double b = in[1].GetAsDouble(k);
      if (std::fabs(a - b) <= tol.atol + tol.rtol * std::max(std::fabs(a), std::fabs(b))) {
        value.SetFromInt(k, want);
        ++refs.settled_ties;
      }
    }
  };
  refs.per_step = interp::Interpret(hint, bindings, inputs, settle);
  return refs;
}

}  // namespace af::pipeline
