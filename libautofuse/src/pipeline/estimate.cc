// Modeled fusion gain (see estimate.h).
#include "autofuse/pipeline/estimate.h"

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "autofuse/data/npy.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/frontend/lower.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;

double ValueBytes(const model::Graph& g, int v, const sym::Bindings& b) {
  const auto& t = g.value(v).type;
  if (!t.IsTensor()) return 0;
  double n = 1;
  for (const auto& d : t.shape)
    n *= static_cast<double>(d.Eval(b));
  const int es = ir::DTypeBytes(t.dtype);
  return n * (es > 0 ? es : 4);
}

double KernelCycles(const ir::Graph& hint, const Options& o, const hw::Profile& profile) {
  const auto s = schedule::Schedule(hint, profile);
  const auto d =
      att::Solve(s, o.bindings, profile, -1, -1, att::SolverOptionsFrom(o.flags, profile));
  return d.solution.cost;
}

}  // namespace

sym::Bindings BindCaseInputs(const std::string& path) {
  if (!fs::is_directory(path)) return {};
  const model::Graph g =
      importers::LoadFxGraphFile((fs::path(path) / "fx_graph_readable.py").string());
  std::vector<data::HostArray> inputs;
  for (int v : g.inputs) {
    const auto& val = g.value(v);
    if (!val.type.IsTensor()) continue;
    const fs::path p = fs::path(path) / "inputs" / (val.name + ".npy");
    if (!fs::exists(p)) return {};
    inputs.push_back(data::ReadNpy(p.string(), val.type.dtype));
  }
  return frontend::BindFromInputs(g, inputs);
}

GraphEstimate Estimate(const GraphCompileResult& r, const Options& o, const EstimateModel& m) {
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const auto& g = r.graph;
  for (const auto& s : g.symbols)
    if (o.bindings.find(s) == o.bindings.end())
      throw InputError({r.input}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
  auto us = [&](double cycles) { return cycles / (m.clock_ghz * 1e3); };
  GraphEstimate e;
  for (std::size_t i = 0; i < r.fusion.kernels.size(); ++i) {
    const auto& fk = r.fusion.kernels[i];
    const auto& k = r.compiled.kernels.at(i);
    KernelEstimate ke;
    ke.name = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
    for (int id : fk.nodes)
      ke.nodes.push_back(g.node(id).name);
    if (!k.error.empty()) continue;
    ke.fused_us = us(KernelCycles(k.hint, o, profile)) + m.launch_us;
    for (int id : fk.nodes) {
      const auto& n = g.node(id);
      try {
        const auto lk = frontend::LowerGroup(g, {id});
        ke.unfused_us += us(KernelCycles(lk.graph, o, profile)) + m.launch_us;
        continue;
      } catch (const std::exception&) {
      }
      // does not schedule alone: views of inputs are free, anything else costs its bytes
      if (frontend::CheckOp(g, n).kind == frontend::OpKind::kView) continue;
      double bytes = 0;
      std::function<void(const model::Arg&)> scan = [&](const model::Arg& a) {
        if (a.IsValue()) bytes += ValueBytes(g, a.value, o.bindings);
        for (const auto& it : a.items)
          scan(it);
      };
      for (const auto& a : n.args)
        scan(a);
      for (int v : n.outputs)
        bytes += ValueBytes(g, v, o.bindings);
      ke.unfused_us +=
          us(bytes / (m.gm_bytes_per_cycle * static_cast<double>(profile.vector_cores))) +
          m.launch_us;
    }
    ke.gain = ke.fused_us > 0 ? ke.unfused_us / ke.fused_us : 0;
    e.fused_us += ke.fused_us;
    e.unfused_us += ke.unfused_us;
    e.kernels.push_back(ke);
  }
  e.gain = e.fused_us > 0 ? e.unfused_us / e.fused_us : 0;
  return e;
}

std::string EstimateJson(const GraphEstimate& e) {
  nlohmann::json j;
  nlohmann::json ks = nlohmann::json::array();
  for (const auto& k : e.kernels)
    ks.push_back({{"name", k.name},
                  {"fused_us", k.fused_us},
                  {"unfused_us", k.unfused_us},
                  {"gain", k.gain},
                  {"nodes", k.nodes}});
  j["kernels"] = ks;
  j["total"] = {{"fused_us", e.fused_us}, {"unfused_us", e.unfused_us}, {"gain", e.gain}};
  return j.dump(2) + "\n";
}

}  // namespace af::pipeline
