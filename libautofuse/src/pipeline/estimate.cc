// Modeled fusion gain (see estimate.h).
#include "autofuse/pipeline/estimate.h"

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "autofuse/att/price.h"
#include "autofuse/att/tiling.h"
#include "autofuse/data/npy.h"
#include "autofuse/frontend/device_facts.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/frontend/lower.h"
#include "autofuse/frontend/op_registry.h"
#include "autofuse/hw/profile.h"
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

// A cube op launched alone (the cube library's kernel): modeled as the cube + vector kernel of
// the op alone (the cube tiling and the fixpipe's write); nullopt when it has none.
std::optional<double> CubeOpUs(const model::Graph& g, int id, const Options& o,
                               const ModelClock& clock) {
  try {
    frontend::LowerOptions lo;
    lo.matmul = true;
    const auto lk = frontend::LowerGroup(g, {id}, lo);
    std::set<std::string> unbound;
    std::string why;
    return KernelLaunchUs(lk.graph, o, clock, &unbound, &why);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// One op of a fused kernel launched alone: its own kernel when it schedules alone (a cube op:
// CubeOpUs); else views of inputs are free and anything else costs its global-memory bytes.
double UnfusedUs(const model::Graph& g, int id, const Options& o, const ModelClock& clock,
                 const EstimateModel& m, const hw::Profile& profile) {
  const auto& n = g.node(id);
  if (frontend::KindOfNode(n) == frontend::OpKind::kCube) {
    if (const auto us = CubeOpUs(g, id, o, clock)) return *us;
  }
  try {
    const auto lk = frontend::LowerGroup(g, {id});
    std::set<std::string> unbound;
    std::string why;
    if (const auto us = KernelLaunchUs(lk.graph, o, clock, &unbound, &why)) return *us;
  } catch (const std::exception&) {
  }
  if (frontend::KindOfNode(n) == frontend::OpKind::kView) return 0;
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
  return clock.Us(bytes / (m.gm_bytes_per_cycle * static_cast<double>(profile.vector_cores))) +
         clock.launch_us;
}

}  // namespace

ModelClock ClockFor(const hw::Profile& profile, const EstimateModel& m) {
  const auto& facts = frontend::GetDeviceFacts(profile);
  return {m.clock_ghz > 0 ? m.clock_ghz : facts.clock_ghz,
          m.launch_us >= 0 ? m.launch_us : facts.launch_us};
}

std::optional<double> KernelLaunchUs(const ir::Graph& hint, const Options& o,
                                     const ModelClock& clock, std::set<std::string>* unbound,
                                     std::string* why) {
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const att::KernelPrice p =
      att::PriceKernel(hint, o.bindings, profile, att::SolverOptionsFrom(o.flags, profile));
  // A multi-group kernel pays a SyncAll before each group that reads the workspace.
  if (p.Priced())
    return clock.Us(*p.cycles) + clock.launch_us + p.barriers * hw::kSyncAllAssumptionUs;
  if (!p.unbound.empty()) {
    unbound->insert(p.unbound.begin(), p.unbound.end());
    *why = "unbound sizes";
  } else if (!p.schedule_code.empty()) {
    *why = "schedule refused [" + p.schedule_code + "]: " + p.error;
  } else {
    *why = "no tiling: " + p.error;
  }
  return std::nullopt;
}

void FinishEstimate(GraphEstimate& e, const ModelClock& c) {
  e.fused_us = 0;
  e.unfused_us = 0;
  for (const auto& k : e.kernels) {
    e.fused_us += k.fused_us;
    e.unfused_us += k.unfused_us;
  }
  e.gain = e.fused_us > 0 ? e.unfused_us / e.fused_us : 0;
  e.clock_ghz = c.ghz;
  e.launch_us = c.launch_us;
}

sym::Bindings BindCaseInputs(const model::Graph& g, const std::string& case_dir) {
  if (!fs::is_directory(case_dir)) return {};
  std::vector<data::HostArray> inputs;
  for (int v : g.inputs) {
    const auto& val = g.value(v);
    if (!val.type.IsTensor()) continue;
    const fs::path p = fs::path(case_dir) / "inputs" / (val.name + ".npy");
    if (!fs::exists(p)) return {};
    inputs.push_back(data::ReadNpy(p.string(), val.type.dtype));
  }
  return frontend::BindFromInputs(g, inputs);
}

GraphEstimate Estimate(const CompileResult& r, const Options& o, const EstimateModel& m) {
  if (!r.front_end) throw InputError({r.input}, "afc estimate needs a model graph here");
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const ModelClock clock = ClockFor(profile, m);
  const auto& g = r.front_end->graph;
  const auto& fusion = r.front_end->fusion;
  for (const auto& s : g.symbols)
    if (o.bindings.find(s) == o.bindings.end())
      throw InputError({r.input}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
  GraphEstimate e;
  for (std::size_t i = 0; i < fusion.kernels.size(); ++i) {
    const auto& fk = fusion.kernels[i];
    const auto& k = r.kernels.at(i);
    KernelEstimate ke;
    ke.name = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
    for (int id : fk.nodes)
      ke.nodes.push_back(g.node(id).name);
    if (!k.error.empty()) {
      e.skipped.push_back({ke.name, "not compiled [" + k.error_code + "]: " + k.error});
      continue;
    }
    std::set<std::string> unbound;
    std::string why;
    const auto fused = KernelLaunchUs(k.hint, o, clock, &unbound, &why);
    if (!fused) throw InputError({r.input}, "kernel " + ke.name + " not modeled: " + why);
    ke.fused_us = *fused;
    ke.dynamic_us = ke.fused_us;
    if (k.tiling) {
      ke.traffic_ratio = k.tiling->traffic.ratio;
      ke.dynamic_us += static_cast<double>(k.tiling->solve_ns) / 1000.0;
    }
    for (int id : fk.nodes)
      ke.unfused_us += UnfusedUs(g, id, o, clock, m, profile);
    ke.gain = ke.fused_us > 0 ? ke.unfused_us / ke.fused_us : 0;
    e.kernels.push_back(ke);
  }
  FinishEstimate(e, clock);
  for (const auto& f : fusion.fallbacks) {
    const auto& n = g.node(f.node);
    if (frontend::KindOfNode(n) != frontend::OpKind::kCube) continue;
    const auto us = CubeOpUs(g, f.node, o, clock);
    if (!us) {
      e.skipped.push_back({n.name, "cube op outside the kernels, not modeled"});
      continue;
    }
    KernelEstimate ke;
    ke.name = n.name;
    ke.nodes = {n.name};
    ke.fused_us = *us;
    ke.unfused_us = *us;
    ke.gain = 1;
    e.cube_outside_us += *us;
    e.cube_outside.push_back(ke);
  }
  e.graph_launches = static_cast<int>(e.kernels.size() + e.cube_outside.size());
  e.graph_us = e.fused_us + e.cube_outside_us;
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
                  {"traffic_ratio", k.traffic_ratio},
                  {"dynamic_us", k.dynamic_us},
                  {"nodes", k.nodes}});
  j["kernels"] = ks;
  j["total"] = {{"fused_us", e.fused_us}, {"unfused_us", e.unfused_us}, {"gain", e.gain}};
  nlohmann::json co = nlohmann::json::array();
  for (const auto& k : e.cube_outside)
    co.push_back({{"name", k.name}, {"us", k.fused_us}});
  j["cube_outside"] = co;
  j["graph"] = {{"launches", e.graph_launches},
                {"kernels", e.kernels.size()},
                {"cube_ops_outside", e.cube_outside.size()},
                {"us", e.graph_us}};
  j["model"] = {{"clock_ghz", e.clock_ghz}, {"launch_us", e.launch_us}};
  nlohmann::json sk = nlohmann::json::array();
  for (const auto& s : e.skipped)
    sk.push_back({{"name", s.name}, {"reason", s.reason}});
  j["skipped"] = sk;
  return j.dump(2) + "\n";
}

}  // namespace af::pipeline
