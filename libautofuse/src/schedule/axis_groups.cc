// Axis groups, reduction levels and the nodes of each R-loop sweep.
#include "axis_groups.h"

#include <algorithm>
#include <optional>

#include "node_kinds.h"

namespace af::schedule {

using ir::Graph;
using ir::Node;
using sym::Expr;

// Axis groups: the R group is the set of dims some reduction removes (all reductions of a graph
// must remove the same set: AutoFuse's YR+YR merge rule); the rest form the Y group.
void GroupAxes(ScheduleResult& r) {
  const Graph& g = r.graph;
  const std::size_t n_dims = r.dims.size();
  r.groups.r_dim.assign(n_dims, false);
  std::optional<std::uint32_t> rset;
  std::string first;
  for (const auto& n : g.nodes) {
    if (!IsReduce(n)) continue;
    const auto& in = g.nodes[n.inputs.at(0).node].outputs.at(n.inputs[0].output);
    const auto& out = n.outputs.at(0);
    // ArgMax computes in its input's dtype (AscendC's ReduceMax takes half and float).
    const bool argmax_ok =
        n.type == "ArgMax" && (in.dtype == ir::DType::kFloat32 || in.dtype == ir::DType::kFloat16);
    if (out.dtype != ir::DType::kFloat32 && !argmax_ok) {
      throw ScheduleError("REDUCE_DTYPE",
                          "reduction '" + n.name + "' computes in " +
                              std::string(ir::DTypeName(out.dtype)) +
                              "; the AscendC pattern reductions of Atlas A2/A3 take fp32 (inputs "
                              "of fp16/bf16 are upcast, integer reductions are not supported)");
    }
    std::uint32_t m = 0;
    for (std::size_t j = 0; j < n_dims; ++j) {
      if (out.repeats[j] == Expr(1) && in.repeats[j] != Expr(1)) m |= 1u << j;
    }
    if (m == 0) continue;
    if (rset && *rset != m) {
      throw ScheduleError("REDUCE_AXES_CONFLICT",
                          "reductions '" + first + "' and '" + n.name +
                              "' reduce different axes: their YR axis groups cannot merge");
    }
    rset = m;
    first = n.name;
  }
  if (rset) {
    for (std::size_t j = 0; j < n_dims; ++j)
      r.groups.r_dim[j] = ((*rset >> j) & 1u) != 0;
  }
  // Reduction levels (how many reductions lie on the longest path into a node) and R-invariance.
  r.groups.avail.assign(g.nodes.size(), 0);
  r.groups.r_invariant.assign(g.nodes.size(), false);
  int max_stage = -1;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    int base = 0;
    for (const auto& in : n.inputs)
      base = std::max(base, r.groups.avail[in.node]);
    if (IsReduce(n)) {
      max_stage = std::max(max_stage, base);
      r.groups.avail[i] = base + 1;
    } else {
      r.groups.avail[i] = base;
    }
    bool inv = true;
    if (!n.outputs.empty() && !n.outputs[0].axis.empty()) {
      for (std::size_t j = 0; j < n_dims; ++j) {
        if (r.groups.r_dim[j] && n.outputs[0].repeats[j] != Expr(1)) inv = false;
      }
    }
    r.groups.r_invariant[i] = inv && n.type != "Data" && n.type != "Output";
  }
  // Sweeps: one per reduction level, and one more when varying values computed from the last
  // reductions are stored (softmax's normalised output).
  int sweeps = max_stage + 1;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type == "Store" && !r.groups.r_invariant[i])
      sweeps = std::max(sweeps, r.groups.avail[i] + 1);
  }
  r.groups.passes = rset ? sweeps : 0;
}

std::vector<bool> SweepNodes(const ScheduleResult& s, int p) {
  const auto& g = s.graph;
  const int n = static_cast<int>(g.nodes.size());
  std::vector<bool> need(static_cast<std::size_t>(n), false);
  std::vector<int> stack;
  for (int i = 0; i < n; ++i) {
    const Node& node = g.nodes[i];
    const bool target =
        (IsReduce(node) && s.groups.avail[i] - 1 == p) ||
        (node.type == "Store" && !s.groups.r_invariant[i] && s.groups.avail[i] == p);
    if (target) stack.push_back(i);
  }
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (need[i]) continue;
    need[i] = true;
    for (const auto& in : g.nodes[i].inputs) {
      const Node& src = g.nodes[in.node];
      if (s.groups.r_invariant[in.node] || IsReduce(src) || src.type == "Data") continue;
      stack.push_back(in.node);
    }
  }
  return need;
}

}  // namespace af::schedule
