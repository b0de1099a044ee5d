// Modeled fusion gain (see estimate.h).
#include "autofuse/pipeline/estimate.h"

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "autofuse/data/npy.h"
#include "autofuse/frontend/device_facts.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/frontend/lower.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;
namespace ind = importers::inductor;

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

// The clock and launch overhead in use: the model's overrides, else the profile's facts.
struct Clock {
  double ghz = 0;
  double launch_us = 0;
  double Us(double cycles) const { return cycles / (ghz * 1e3); }
};

Clock ClockFor(const hw::Profile& profile, const EstimateModel& m) {
  const auto& facts = frontend::GetDeviceFacts(profile);
  return {m.clock_ghz > 0 ? m.clock_ghz : facts.clock_ghz,
          m.launch_us >= 0 ? m.launch_us : facts.launch_us};
}

void Finish(GraphEstimate& e, const Clock& c) {
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
  const Clock clock = ClockFor(profile, m);
  const auto& g = r.graph;
  for (const auto& s : g.symbols)
    if (o.bindings.find(s) == o.bindings.end())
      throw InputError({r.input}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
  GraphEstimate e;
  for (std::size_t i = 0; i < r.fusion.kernels.size(); ++i) {
    const auto& fk = r.fusion.kernels[i];
    const auto& k = r.compiled.kernels.at(i);
    KernelEstimate ke;
    ke.name = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
    for (int id : fk.nodes)
      ke.nodes.push_back(g.node(id).name);
    if (!k.error.empty()) {
      e.skipped.push_back({ke.name, "not compiled [" + k.error_code + "]: " + k.error});
      continue;
    }
    ke.fused_us = clock.Us(KernelCycles(k.hint, o, profile)) + clock.launch_us;
    for (int id : fk.nodes) {
      const auto& n = g.node(id);
      try {
        const auto lk = frontend::LowerGroup(g, {id});
        ke.unfused_us += clock.Us(KernelCycles(lk.graph, o, profile)) + clock.launch_us;
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
          clock.Us(bytes / (m.gm_bytes_per_cycle * static_cast<double>(profile.vector_cores))) +
          clock.launch_us;
    }
    ke.gain = ke.fused_us > 0 ? ke.unfused_us / ke.fused_us : 0;
    e.kernels.push_back(ke);
  }
  Finish(e, clock);
  return e;
}

GraphEstimate EstimateInductor(const std::string& path, const Options& o, const EstimateModel& m) {
  const hw::Profile& profile = hw::GetProfile(o.soc);
  const Clock clock = ClockFor(profile, m);
  const auto tree = ind::DiscoverDebugDump(path);
  GraphEstimate e;
  std::set<std::string> unbound;
  bool any_post = false;
  // Modeled time of one hint graph; nullopt with the reason when it does not schedule or tile.
  auto time_of = [&](const ir::Graph& hint, std::string* why) -> std::optional<double> {
    try {
      const auto s = schedule::Schedule(hint, profile);
      bool bound = true;
      for (const auto& sym : att::KernelSymbols(s))
        if (o.bindings.find(sym) == o.bindings.end()) {
          unbound.insert(sym);
          bound = false;
        }
      if (!bound) {
        *why = "unbound sizes";
        return std::nullopt;
      }
      const auto d =
          att::Solve(s, o.bindings, profile, -1, -1, att::SolverOptionsFrom(o.flags, profile));
      return clock.Us(d.solution.cost) + clock.launch_us;
    } catch (const schedule::ScheduleError& x) {
      *why = "schedule refused [" + x.code() + "]: " + x.what();
    } catch (const InputError& x) {
      *why = std::string("no tiling: ") + x.what();
    }
    return std::nullopt;
  };
  for (const auto& md : tree.models) {
    // ir_post_fusion.txt, else other scheduler-node text (a renamed dump, a log excerpt) that
    // does not say it is pre-fusion.
    const auto* post = md.Find(ind::DumpFileKind::kIrPostFusion);
    std::optional<ind::IrFile> loaded;
    if (post == nullptr) {
      post = md.Find(ind::DumpFileKind::kIrText);
      if (post == nullptr) continue;
      loaded = ind::LoadInductorIrFile(post->path);
      if (loaded->stage == "pre") continue;
    }
    any_post = true;
    const auto post_ir = loaded ? *loaded : ind::LoadInductorIrFile(post->path);
    const auto groups = ind::BuildHintGraphs(post_ir);
    // The parts: every scheduler node alone. ir_pre_fusion.txt lists them unfused; without it,
    // the post-fusion file's sub-node dumps (torch >= 2.1) stand in.
    ind::IrFile singles;
    std::string singles_from;
    if (const auto* pre = md.Find(ind::DumpFileKind::kIrPreFusion); pre != nullptr) {
      try {
        singles = ind::LoadInductorIrFile(pre->path);
        singles_from = pre->path.filename().string();
      } catch (const InputError&) {
        singles.nodes.clear();  // a damaged pre-fusion file: fall back to the sub-node dumps
      }
    }
    if (singles_from.empty()) {
      singles.file = post_ir.file;
      for (const auto& n : post_ir.nodes) {
        if (n.kind == ind::NodeKind::kFused && n.snodes.empty()) continue;  // 2.0: names only
        for (const auto* leaf : n.Leaves())
          singles.nodes.push_back(*leaf);
      }
      singles_from = "the sub-node dumps of " + post->path.filename().string();
    }
    std::map<std::string, ind::HintGroup> single_groups;
    for (auto& sg : ind::BuildHintGraphs(singles, nullptr))
      single_groups.emplace(sg.name, std::move(sg));
    const std::string where = tree.models.size() > 1 ? md.name + "/" : "";
    for (const auto& grp : groups) {
      const std::string name = where + grp.name;
      if (!grp.graph) {
        e.skipped.push_back({name, "not lowered (Inductor fallback): " + grp.reason});
        continue;
      }
      std::string why;
      const auto fused = time_of(*grp.graph, &why);
      if (!fused) {
        e.skipped.push_back({name, "fused kernel not modeled: " + why});
        continue;
      }
      KernelEstimate ke;
      ke.name = name;
      ke.fused_us = *fused;
      const std::vector<std::string> members =
          grp.members.empty() ? std::vector<std::string>{grp.name} : grp.members;
      std::string missing;
      for (const auto& mem : members) {
        ke.nodes.push_back(mem);
        auto it = single_groups.find(mem);
        if (it == single_groups.end()) {
          missing = "scheduler node '" + mem + "' has no loop body alone in " + singles_from;
          break;
        }
        if (!it->second.graph) {
          missing = "scheduler node '" + mem + "' does not lower alone: " + it->second.reason;
          break;
        }
        std::string why_part;
        const auto part = time_of(*it->second.graph, &why_part);
        if (!part) {
          missing = "scheduler node '" + mem + "' not modeled alone: " + why_part;
          break;
        }
        ke.unfused_us += *part;
      }
      if (!missing.empty()) {
        e.skipped.push_back({name, missing});
        continue;
      }
      ke.gain = ke.fused_us > 0 ? ke.unfused_us / ke.fused_us : 0;
      e.kernels.push_back(ke);
    }
  }
  if (!any_post)
    throw InputError({path, 0, 0},
                     "no ir_post_fusion.txt (Inductor's fused groups) found: afc estimate needs "
                     "the post-fusion IR to know which scheduler nodes share a kernel");
  if (!unbound.empty()) {
    std::string list;
    for (const auto& s : unbound)
      list += (list.empty() ? "" : ",") + s + "=N";
    throw InputError({path, 0, 0}, "size symbols unbound: pass --bind " + list);
  }
  Finish(e, clock);
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
  j["model"] = {{"clock_ghz", e.clock_ghz}, {"launch_us", e.launch_us}};
  nlohmann::json sk = nlohmann::json::array();
  for (const auto& s : e.skipped)
    sk.push_back({{"name", s.name}, {"reason", s.reason}});
  j["skipped"] = sk;
  return j.dump(2) + "\n";
}

}  // namespace af::pipeline
