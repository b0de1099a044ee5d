// The units of a model graph in execution order (see units.h).
#include "autofuse/pipeline/units.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

namespace af::pipeline {

std::vector<int> UnitReads(const CompileResult& r, const Unit& u) {
  const auto& fr = r.front_end->fusion;
  if (u.kernel >= 0) return fr.kernels[static_cast<std::size_t>(u.kernel)].lowered.inputs;
  const model::Graph& g = r.front_end->graph;
  std::vector<int> vals;
  std::function<void(const model::Arg&)> scan = [&](const model::Arg& a) {
    if (a.IsValue() && g.value(a.value).type.IsTensor()) vals.push_back(a.value);
    for (const auto& it : a.items)
      scan(it);
  };
  for (const auto& a : g.node(u.node).args)
    scan(a);
  for (const auto& [key, a] : g.node(u.node).kwargs)
    scan(a);
  return vals;
}

std::vector<int> UnitWrites(const CompileResult& r, const Unit& u) {
  if (u.kernel >= 0)
    return r.front_end->fusion.kernels[static_cast<std::size_t>(u.kernel)].lowered.outputs;
  return r.front_end->graph.node(u.node).outputs;
}

std::vector<Unit> ExecutionOrder(const CompileResult& r, std::vector<std::string>* log) {
  const auto& fr = r.front_end->fusion;
  const model::Graph& g = r.front_end->graph;
  std::vector<Unit> units;
  std::set<int> in_kernel;
  for (std::size_t i = 0; i < fr.kernels.size(); ++i) {
    const Kernel& k = r.kernels[i];
    if (!k.error.empty()) {  // a later stage refused it: its ops run on the reference evaluator
      if (log != nullptr) {
        log->push_back("kernel " + k.hint.name + " not compiled [" + k.error_code +
                       "]: " + k.error + "; its ops run on the reference evaluator");
      }
      continue;
    }
    units.push_back({fr.kernels[i].nodes.front(), static_cast<int>(i), -1});
    in_kernel.insert(fr.kernels[i].nodes.begin(), fr.kernels[i].nodes.end());
  }
  for (const auto& n : g.nodes)
    if (n.kind == model::NodeKind::kOp && !in_kernel.contains(n.id))
      units.push_back({n.id, -1, n.id});
  std::sort(units.begin(), units.end(),
            [](const Unit& x, const Unit& y) { return x.first < y.first; });
  // Values some unit writes do not exist before it ran; every other value does.
  std::set<int> pending;
  for (const Unit& u : units)
    for (const int v : UnitWrites(r, u))
      pending.insert(v);
  std::vector<Unit> order;
  std::vector<bool> done(units.size(), false);
  for (std::size_t left = units.size(); left > 0;) {
    bool progress = false;
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (done[i]) continue;
      const auto reads = UnitReads(r, units[i]);
      if (std::ranges::any_of(reads, [&](int v) { return pending.contains(v); })) continue;
      for (const int v : UnitWrites(r, units[i]))
        pending.erase(v);
      order.push_back(units[i]);
      done[i] = true;
      --left;
      progress = true;
    }
    if (!progress) throw std::runtime_error("the graph's units have a cyclic dependency");
  }
  return order;
}

}  // namespace af::pipeline
