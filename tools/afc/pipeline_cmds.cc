// afc compile / run / tile: thin wrappers over af::pipeline.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "autofuse/inputs/grouping_summary.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/pipeline/run.h"
#include "autofuse/support/error.h"
#include "commands.h"
#include "graph_cmds.h"

namespace af::cli {
namespace {

using nlohmann::json;

pipeline::Options MakeOptions(const CommonOptions& c, bool build) {
  pipeline::Options o;
  o.soc = c.soc;
  (void)hw::GetProfile(o.soc);  // unknown --soc: exit 2 before any work
  ReadFlags(c, &o.flags);
  pipeline::ParseBindings(c.bind, &o.bindings);
  o.build = build;
  return o;
}

// A kernel a stage refused: exit 2 with the reason code.
int ReportRefused(const pipeline::CompileResult& r) {
  int code = 0;
  for (const auto& f : r.fallbacks) {
    std::cerr << "afc: note: " << f.origin << ": group '" << f.name << "' falls back: " << f.reason
              << "\n";
  }
  for (const auto& k : r.kernels) {
    if (k.error.empty()) continue;
    std::cerr << "afc: " << (r.framework_groups ? "note: " : "") << k.origin << ": kernel '"
              << k.hint.name << "' not compiled [" << k.error_code << "]: " << k.error << "\n";
    // A framework's own group we cannot schedule falls back; a kernel the user gave us fails.
    if (!r.framework_groups) code = 2;
  }
  return code;
}

json PgoPointJson(const att::PgoPoint& p) {
  return {{"case", p.case_index},
          {"tile", p.tile},
          {"use", p.use},
          {"block_dim", p.block_dim},
          {"cycles", p.cycles}};
}

// --autofuse_enable_pgo: the search (docs/tiling.md "PGO").
json PgoJson(const att::PgoResult& r, const std::filesystem::path& file, const att::PgoOptions& o) {
  json top = json::array();
  for (const auto& p : r.top)
    top.push_back(PgoPointJson(p));
  return {{"algo", att::PgoAlgoName(o)},
          {"step_max", o.step_max},
          {"topn", o.topn},
          {"evaluated", r.evaluated},
          {"solver", PgoPointJson(r.solver)},
          {"top", top},
          {"gain", r.gain()},
          {"file", file.string()}};
}

// "3 tiling cases", or "2 groups of 3 + 2 tiling cases".
std::string CasesLine(const pipeline::Kernel& k) {
  if (!k.MultiGroup()) return std::to_string(k.schedule.cases.size()) + " tiling cases";
  std::string s = std::to_string(k.groups.size()) + " groups of ";
  for (std::size_t i = 0; i < k.groups.size(); ++i) {
    const auto& g = k.groups[i];
    s += (i != 0u ? " + " : "") + (g.group.cube
                                       ? std::to_string(g.group.cube->fixpipe ? 2 : 1) + " cube"
                                       : std::to_string(g.schedule.cases.size()));
  }
  return s + " tiling cases";
}

// One schedule's tiling decision (a kernel's, or one group's of a multi-group kernel).
json DecisionJson(const schedule::ScheduleResult& sched, const att::TilingDecision& t,
                  const pipeline::Options& o) {
  const auto& c = sched.cases[t.chosen];
  json tiles;
  tiles[c.tile_var] = t.solution.tile;
  tiles[c.block_var] = t.solution.tiles_per_block;
  json cases = json::array();
  for (const auto& cr : t.cases) {
    const auto& ic = sched.cases[static_cast<std::size_t>(&cr - t.cases.data())];
    cases.push_back(
        {{"name", cr.name},
         {"template", std::string(schedule::CaseKindName(ic.kind))},
         {"indexed_name", ic.indexed_name},
         {"feasible", cr.feasible},
         {"r_iters", cr.solution.r_iters},
         {"tile", cr.solution.tile},
         {"block_dim", cr.solution.block_dim},
         {"ub_bytes", cr.solution.ub_bytes},
         {"binding", af_tiling::BindingName(cr.solution.binding)},
         {"cycles", cr.solution.cost},
         {"traffic_ratio", att::TrafficRatio(cr.solution.mte2_bytes, t.compulsory_bytes)}});
  }
  json reasons = json::array();
  for (const auto& d : t.traffic.reasons)
    reasons.push_back({{"code", d.code}, {"message", d.message}});
  json loads = json::array();
  for (const auto& l : t.traffic.loads) {
    loads.push_back({{"load", l.load},
                     {"input", l.input},
                     {"model_bytes", l.model_bytes},
                     {"compulsory_bytes", l.compulsory_bytes}});
  }
  const auto& sol = t.solution;
  const auto solver = att::SolverOptionsFrom(o.flags, hw::GetProfile(o.soc));
  return {{"template", std::string(schedule::CaseKindName(c.kind))},
          {"case", c.name},
          {"indexed_name", c.indexed_name},
          {"tiling_key", t.chosen},
          {"block_dim", t.solution.block_dim},
          {"tiles", tiles},
          {"ub_bytes", t.solution.ub_bytes},
          {"pipes",
           {{"MTE2", sol.pipes[af_tiling::kPipeMte2]},
            {"MTE3", sol.pipes[af_tiling::kPipeMte3]},
            {"VEC", sol.pipes[af_tiling::kPipeVec]},
            {"SCALAR", sol.pipes[af_tiling::kPipeScalar]}}},
          {"head_cycles", sol.head},
          {"cycles", sol.cost},
          {"binding", af_tiling::BindingName(sol.binding)},
          {"solver", att::AlgorithmName(solver.algorithm)},
          {"solver_options",
           {{"ub_threshold_percent", solver.ub_threshold * 100},
            {"corenum_threshold_percent", solver.corenum_threshold * 100},
            {"multicore_ub_tradeoff", solver.tradeoff != 0},
            {"accuracy_level", solver.accuracy_level}}},
          {"formulas", att::PipeFormulas(sched, t.chosen, solver.perf_version)},
          {"model",
           {{"mte2_bytes", sol.mte2_bytes},
            {"mte3_bytes", sol.mte3_bytes},
            {"vec_repeats", sol.vec_repeats}}},
          {"traffic",
           {{"model_mte2_bytes", sol.mte2_bytes},
            {"compulsory_bytes", t.compulsory_bytes},
            {"ratio", t.traffic.ratio},
            {"loads", loads},
            {"reasons", reasons}}},
          {"solve_ns", t.solve_ns},
          {"cases", cases}};
}

// The cube group's decision: its CV template (tiling_key 0 kCommon, 1 kFixpip; both as "cases"),
// the cube tiling and its per-pipe cycles.
json CubeJson(const schedule::CubeGroup& c, const att::CubeDecision& d) {
  json cases = json::array();
  for (int key : {att::kCubeCommon, att::kCubeFixpip}) {
    const bool offered = key == att::kCubeCommon || c.fixpipe;
    cases.push_back({{"name", att::CubeTemplateName(key)},
                     {"template", att::CubeTemplateName(key)},
                     {"feasible", offered},
                     {"block_dim", d.tiling.block_dim}});
  }
  const auto& t = d.tiling;
  return {{"cube", true},
          {"node", c.node},
          {"template", att::CubeTemplateName(d.chosen)},
          {"case", att::CubeTemplateName(d.chosen)},
          {"tiling_key", d.chosen},
          {"reason", d.reason},
          {"block_dim", t.block_dim},
          {"batch", d.problem.batch},
          {"m", d.problem.m},
          {"n", d.problem.n},
          {"k", d.problem.k},
          {"base_m", t.base_m},
          {"base_n", t.base_n},
          {"base_k", t.base_k},
          {"tiles", t.tiles},
          {"epilogue_group", c.fixpipe ? c.epilogue_group : -1},
          {"pipes",
           {{"MTE2", d.pipes.mte2},
            {"MTE1", d.pipes.mte1},
            {"CUBE", d.pipes.cube},
            {"FIXP", d.pipes.fix}}},
          {"cycles", t.cycles},
          {"model",
           {{"mte2_bytes", t.total.mte2_bytes},
            {"mte1_fractals", t.total.mte1_fractals},
            {"cube_steps", t.total.cube_steps},
            {"fix_fractals", t.total.fix_fractals},
            {"fix_bytes", t.total.fix_bytes}}},
          {"cases", cases}};
}

// A kernel's tiling: its decision, or for a multi-group kernel each group's (under "groups")
// with the summed cycles and the SyncAll barriers between groups.
json TileJson(const pipeline::Kernel& k, const pipeline::Options& o) {
  const std::string name = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
  if (!k.MultiGroup()) {
    json j = DecisionJson(k.schedule, *k.tiling, o);
    j["kernel"] = name;
    if (k.pgo) j["pgo"] = PgoJson(*k.pgo, k.pgo_file, att::PgoOptionsFrom(o.flags));
    return j;
  }
  json groups = json::array();
  std::int64_t block_dim = 1;
  int barriers = 0;
  for (std::size_t q = 0; q < k.groups.size(); ++q) {
    const auto& g = k.groups[q];
    json gj =
        g.group.cube ? CubeJson(*g.group.cube, *g.cube) : DecisionJson(g.schedule, *g.tiling, o);
    gj["graph"] = g.group.graph.name;
    gj["kernel"] = name + "/g" + std::to_string(groups.size());
    gj["after_sync_all"] = g.group.reads_workspace;
    // The epilogue of a cube group that chose kFixpip does not run.
    gj["skipped"] = pipeline::GroupSkipped(k, q);
    const bool cv = std::any_of(k.groups.begin(), k.groups.end(),
                                [](const auto& x) { return x.group.cube.has_value(); });
    const std::int64_t bd = g.group.cube ? g.cube->tiling.block_dim
                            : cv         ? (g.tiling->solution.block_dim + 1) / 2
                                         : g.tiling->solution.block_dim;
    if (!gj["skipped"].get<bool>()) block_dim = std::max<std::int64_t>(block_dim, bd);
    barriers += g.group.reads_workspace && !gj["skipped"].get<bool>() ? 1 : 0;
    groups.push_back(gj);
  }
  return {{"kernel", name},
          {"groups", groups},
          {"cycles", *pipeline::GroupCycles(k)},
          {"block_dim", block_dim},
          {"sync_all_barriers", barriers}};
}

// Size symbols the bindings lack, for a kernel without a tiling ("" when it has one).
std::string MissingSymbols(const pipeline::Kernel& k, const pipeline::Options& o) {
  std::vector<const schedule::ScheduleResult*> scheds;
  std::set<std::string> missing;
  if (k.MultiGroup()) {
    for (const auto& g : k.groups) {
      if (g.group.cube && !g.cube) {
        for (const auto& s : att::CubeSymbols(*g.group.cube))
          if (o.bindings.find(s) == o.bindings.end()) missing.insert(s);
      } else if (!g.group.cube && !g.tiling) {
        scheds.push_back(&g.schedule);
      }
    }
  } else if (!k.tiling) {
    scheds.push_back(&k.schedule);
  }
  for (const auto* sc : scheds)
    for (const auto& s : att::KernelSymbols(*sc))
      if (o.bindings.find(s) == o.bindings.end()) missing.insert(s);
  std::string out;
  for (const auto& s : missing)
    out += (out.empty() ? "" : ",") + s;
  return out;
}

void PrintTile(const json& t) {
  std::cout << t["kernel"].get<std::string>() << ": " << t["case"].get<std::string>() << " ("
            << t["template"].get<std::string>() << ")"
            << ", block_dim " << t["block_dim"] << ", UB " << t["ub_bytes"] << " B, tiles "
            << t["tiles"].dump() << ", modeled " << t["cycles"] << " cycles ("
            << t["solver"].get<std::string>() << ", bound by " << t["binding"].get<std::string>()
            << "), traffic " << t["traffic"]["ratio"].get<double>() << "x compulsory\n";
  for (const auto& why : t["traffic"]["reasons"]) {
    std::cout << "  " << why["code"].get<std::string>() << ": " << why["message"].get<std::string>()
              << "\n";
  }
  if (t.contains("pgo") && !t["pgo"]["top"].empty()) {
    const auto& p = t["pgo"];
    std::cout << "  pgo " << p["algo"].get<std::string>() << ": solver " << p["solver"]["cycles"]
              << " cycles -> searched " << p["top"][0]["cycles"] << " cycles (x" << p["gain"]
              << ", " << p["evaluated"] << " points), " << p["file"].get<std::string>() << "\n";
  }
}

}  // namespace

int RunInspect(const InspectOptions& opts) {
  return inputs::Inspect(opts.input, opts.json);
}

int RunCompile(const CompileOptions& opts) {
  auto o = MakeOptions(opts.common, !opts.no_build);
  o.superkernel = opts.superkernel;
  const auto r = inputs::CompileFile(opts.common.input, o);
  inputs::WriteOutputs(r, o, opts.out, opts.force);
  FlagEffects(r, o);
  if (r.front_end) return PrintCompiledGraph(opts, r);
  if (opts.common.json) {
    json j;
    if (opts.timings) {
      json t;
      for (const auto& s : r.timings)
        t[s.stage] = s.ms;
      j["timings_ms"] = t;
    }
    json ks = json::array();
    for (const auto& k : r.kernels) {
      ks.push_back({{"name", k.code.kernel_name},
                    {"graph", k.hint.name},
                    {"cases", k.schedule.cases.size()},
                    {"error_code", k.error_code}});
    }
    j["kernels"] = ks;
    j["kernel_counts"] = KernelCountsJson(r.counts);
    json fb = json::array();
    for (const auto& f : r.fallbacks)
      fb.push_back({{"name", f.name}, {"origin", f.origin}, {"reason", f.reason}});
    j["fallbacks"] = fb;
    j["framework_groupings"] = inputs::GroupingSummary(ReportGroupings(opts.out));
    j["out"] = opts.out;
    j["report"] = opts.out + "/report.json";
    std::cout << j.dump(2) << "\n";
  } else {
    for (const auto& k : r.kernels) {
      if (!k.error.empty()) continue;
      std::cout << "kernel " << k.code.kernel_name << " (" << CasesLine(k) << ") -> " << opts.out
                << "/" << k.code.kernel_name << "/\n";
    }
    if (opts.timings) {
      for (const auto& s : r.timings)
        std::printf("  %-9s %8.2f ms\n", s.stage.c_str(), s.ms);
    }
    std::cout << KernelCountsLine(r.counts);
    inputs::PrintGroupingSummary(ReportGroupings(opts.out), "");
    std::cout << "report: " << opts.out << "/report.json\n";
  }
  return ReportRefused(r);
}

int RunRun(const RunCmdOptions& opts) {
  const auto o = MakeOptions(opts.common, true);
  pipeline::Input in = inputs::Import(opts.common.input);
  if (in.model) return RunRunGraph(opts, o, in);
  if (opts.superkernel) {
    throw InputError({opts.common.input, 0, 0},
                     "--superkernel needs a model graph (FX graph, case folder, GE dump, Inductor "
                     "dump): the kernels' order and data flow come from it");
  }
  const auto r = pipeline::Compile(std::move(in), o);
  FlagEffects(r, o);
  if (const int rc = ReportRefused(r); rc != 0) return rc;
  bool all_ok = true;
  std::string summary;
  int ran = 0;
  for (const auto& k : r.kernels) {
    if (!k.error.empty()) continue;  // a framework group that fell back (listed above)
    ++ran;
    pipeline::RunOptions ro;
    ro.inputs_dir = opts.inputs;
    ro.expect_dir = opts.expect;
    ro.seed = opts.seed;
    if (opts.atol >= 0) ro.atol = opts.atol;
    if (opts.rtol >= 0) ro.rtol = opts.rtol;
    const auto res = pipeline::Run(k, o, ro);
    std::cout << "kernel " << k.code.kernel_name << ": " << pipeline::ChosenCases(k, res)
              << ", block_dim " << res.block_dim << ", MTE2 " << res.mte2_bytes << " B, MTE3 "
              << res.mte3_bytes << " B, " << res.vec_repeats << " vector repeats, UB peak "
              << res.ub_peak_bytes << " B\n";
    std::cout << "model " << k.code.kernel_name << ": MTE2 " << res.model_mte2_bytes << " B, MTE3 "
              << res.model_mte3_bytes << " B, " << res.model_vec_repeats << " vector repeats\n";
    if (res.cube) {
      std::cout << "kernel " << k.code.kernel_name << ": cube LoadData " << res.cube_mte1_fractals
                << " fractals, Mmad " << res.cube_steps << " steps, Fixpipe "
                << res.cube_fix_fractals << " fractals\n";
      std::cout << "model " << k.code.kernel_name << ": cube LoadData "
                << res.model_cube_mte1_fractals << " fractals, Mmad " << res.model_cube_steps
                << " steps, Fixpipe " << res.model_cube_fix_fractals << " fractals\n";
    }
    for (const auto& c : res.outputs) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s%s max_abs=%.3g max_rel=%.3g (atol=%.3g rtol=%.3g)",
                    summary.empty() ? "" : "; ", c.name.c_str(), c.max_abs, c.max_rel, c.atol,
                    c.rtol);
      summary += buf;
      if (c.per_step_checked && !c.per_step_ok) {
        std::snprintf(buf, sizeof buf, " per_step_max_abs=%.3g", c.per_step_max_abs);
        summary += buf;
      }
      if (!c.ok) std::cout << "  " << c.name << ": " << c.message << "\n";
    }
    all_ok = all_ok && res.ok;
  }
  if (ran == 0) {
    throw InputError({opts.common.input, 0, 0}, "no kernel of the input could be compiled");
  }
  std::cout << (all_ok ? "PASS " : "FAIL ") << summary << "\n";
  return all_ok ? 0 : 1;
}

int RunTile(const TileOptions& opts) {
  auto o = MakeOptions(opts.common, false);
  // --solver is the short form of --autofuse_att_algorithm (and overrides it).
  if (opts.solver == "heuristic") {
    o.flags["autofuse_att_algorithm"] = "HighPerf";
  } else if (opts.solver == "exhaustive") {
    o.flags["autofuse_att_algorithm"] = "Exhaustive";
  } else if (opts.solver != "default") {
    throw InputError(
        {}, "--solver must be default, heuristic or exhaustive, not '" + opts.solver + "'");
  } else if (o.flags.find("autofuse_att_algorithm") == o.flags.end()) {
    o.flags["autofuse_att_algorithm"] = "AxesReorder";
  }
  const auto r = inputs::CompileFile(opts.common.input, o);
  FlagEffects(r, o);
  if (const int rc = ReportRefused(r); rc != 0) return rc;
  json out = json::array();
  for (const auto& k : r.kernels) {
    if (!k.error.empty()) continue;  // a framework group that fell back (listed above)
    if (const std::string missing = MissingSymbols(k, o); !missing.empty()) {
      throw InputError({opts.common.input, 0, 0},
                       "unbound size symbols: " + missing + " (pass --bind)");
    }
    out.push_back(TileJson(k, o));
  }
  const json j = out.size() == 1 ? out[0] : out;
  if (opts.common.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    for (const auto& t : out) {
      if (!t.contains("groups")) {
        PrintTile(t);
        continue;
      }
      std::cout << t["kernel"].get<std::string>() << ": " << t["groups"].size()
                << " groups, block_dim " << t["block_dim"] << ", modeled " << t["cycles"]
                << " cycles and " << t["sync_all_barriers"] << " SyncAll\n";
      for (json g : t["groups"]) {
        g["kernel"] = "  group " + g["graph"].get<std::string>();
        if (g.contains("cube")) {
          std::cout << g["kernel"].get<std::string>() << ": cube "
                    << g["template"].get<std::string>() << ", base " << g["base_m"] << "x"
                    << g["base_n"] << "x" << g["base_k"] << ", " << g["tiles"]
                    << " tiles, block_dim " << g["block_dim"] << ", modeled " << g["cycles"]
                    << " cycles (MTE2 " << g["pipes"]["MTE2"] << ", MTE1 " << g["pipes"]["MTE1"]
                    << ", CUBE " << g["pipes"]["CUBE"] << ", FIXP " << g["pipes"]["FIXP"] << ")\n";
          continue;
        }
        if (g["skipped"].get<bool>()) g["kernel"] = g["kernel"].get<std::string>() + " (not run)";
        PrintTile(g);
      }
    }
  }
  return 0;
}

}  // namespace af::cli
