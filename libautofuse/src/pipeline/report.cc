// The CompileReport of a compile (see report.h).
#include "autofuse/pipeline/report.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/text.h"
#include "autofuse/model/scope_markers.h"
#include "autofuse/pipeline/superkernel_report.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;

void FillBuffers(const schedule::ScheduleResult& s, report::KernelReport* kr) {
  for (const auto& b : s.buffers) {
    auto* br = kr->add_buffers();
    br->set_name(b.Name());
    br->set_kind(std::string(schedule::BufKindName(b.kind)));
    br->set_buf_num(b.buf_num);
    br->set_esize(b.esize);
    for (int n : b.nodes)
      br->add_tensors(s.graph.nodes[n].name);
    for (std::size_t j = 0; j < s.dims.size(); ++j) {
      if (((b.one_mask >> j) & 1u) != 0) br->add_one_axes(s.graph.FindAxis(s.dims[j])->name);
    }
    br->set_role(b.role);
  }
}

void FillSolution(const af_tiling::CaseSolution& sol, std::int64_t compulsory,
                  report::CaseReport* cr) {
  cr->set_feasible(sol.ok);
  cr->set_tile(sol.tile);
  cr->set_tiles_per_block(sol.tiles_per_block);
  cr->set_r_iters(sol.r_iters);
  cr->set_block_dim(sol.block_dim);
  cr->set_ub_bytes(sol.ub_bytes);
  cr->set_modeled_cycles(sol.cost);
  cr->set_mte2_cycles(sol.pipes[af_tiling::kPipeMte2]);
  cr->set_mte3_cycles(sol.pipes[af_tiling::kPipeMte3]);
  cr->set_vec_cycles(sol.pipes[af_tiling::kPipeVec]);
  cr->set_scalar_cycles(sol.pipes[af_tiling::kPipeScalar]);
  cr->set_head_cycles(sol.head);
  cr->set_binding(af_tiling::BindingName(sol.binding));
  cr->set_model_mte2_bytes(sol.mte2_bytes);
  cr->set_model_mte3_bytes(sol.mte3_bytes);
  cr->set_model_vec_repeats(sol.vec_repeats);
  if (sol.ok) cr->set_traffic_ratio(att::TrafficRatio(sol.mte2_bytes, compulsory));
}

void FillCases(const schedule::ScheduleResult& s, const att::TilingDecision* tiling,
               int perf_version, report::KernelReport* kr) {
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    const auto& ic = s.cases[c];
    auto* cr = kr->add_cases();
    cr->set_name(ic.name);
    cr->set_template_name(std::string(schedule::CaseKindName(ic.kind)));
    cr->set_indexed_name(ic.indexed_name);
    cr->set_tile_dim(ic.tile_dim);
    cr->set_tile_var(ic.tile_var);
    cr->set_block_var(ic.block_var);
    cr->set_ub_bytes_expr(att::UbBytesExpr(s, static_cast<int>(c)).ToString());
    for (const auto& f : att::PipeFormulas(s, static_cast<int>(c), perf_version))
      cr->add_pipe_formulas(f);
    ir::ToProto(ic.graph, cr->mutable_impl_graph());
    cr->set_impl_graph_text(ir::DumpText(ic.graph));
    if (tiling != nullptr) FillSolution(tiling->cases[c].solution, tiling->compulsory_bytes, cr);
  }
}

void FillPgoPoint(const att::PgoPoint& p, report::PgoPoint* out) {
  out->set_case_index(p.case_index);
  out->set_tile(p.tile);
  out->set_use(p.use);
  out->set_block_dim(p.block_dim);
  out->set_cycles(p.cycles);
}

void FillPgo(const att::PgoResult& r, const std::string& file, const att::PgoOptions& o,
             report::TilingReport* tr) {
  auto* pr = tr->mutable_pgo();
  pr->set_algo(att::PgoAlgoName(o));
  pr->set_step_max(o.step_max);
  pr->set_topn(o.topn);
  pr->set_evaluated(r.evaluated);
  FillPgoPoint(r.solver, pr->mutable_solver());
  for (const auto& p : r.top)
    FillPgoPoint(p, pr->add_top());
  pr->set_gain(r.gain());
  pr->set_file(file);
}

void FillTiling(const schedule::ScheduleResult& s, const att::TilingDecision& t,
                const Options& options, const hw::Profile& profile,
                const af_tiling::SolverOptions& solver, report::KernelReport* kr) {
  auto* tr = kr->mutable_tiling();
  for (const auto& [n, v] : options.bindings)
    (*tr->mutable_bindings())[n] = v;
  tr->set_soc(profile.name);
  tr->set_cores(profile.vector_cores);
  tr->set_ub_capacity(profile.ub_bytes);
  tr->set_chosen_case(t.chosen);
  tr->set_chosen_name(s.cases[t.chosen].name);
  tr->set_block_dim(t.solution.block_dim);
  tr->set_ub_bytes(t.solution.ub_bytes);
  tr->set_modeled_cycles(t.solution.cost);
  tr->set_solve_ns(t.solve_ns);
  tr->set_solver(att::AlgorithmName(solver.algorithm));
  tr->set_perf_table(solver.perf_version);
  tr->set_compulsory_mte2_bytes(t.compulsory_bytes);
  tr->set_traffic_ratio(t.traffic.ratio);
  for (const auto& d : t.traffic.reasons) {
    auto* dr = tr->add_traffic_reasons();
    dr->set_stage(d.stage);
    dr->set_code(d.code);
    dr->set_message(d.message);
  }
}

void FillDecisions(const std::vector<schedule::Decision>& ds, report::KernelReport* kr) {
  for (const auto& d : ds) {
    auto* dr = kr->add_decisions();
    dr->set_stage(d.stage);
    dr->set_code(d.code);
    dr->set_message(d.message);
  }
}

// What one schedule and its tiling say: the normalized graph, symbols, decisions, buffers, cases
// and the tiling (a kernel's, or one group's of a multi-group kernel).
void FillSchedule(const schedule::ScheduleResult& s, const att::TilingDecision* tiling,
                  const Options& options, const hw::Profile& profile,
                  const af_tiling::SolverOptions& solver, report::KernelReport* kr) {
  kr->set_normalized_graph_text(ir::DumpText(s.graph));
  for (const auto& sym : att::KernelSymbols(s))
    kr->add_symbols(sym);
  FillDecisions(s.decisions, kr);
  FillBuffers(s, kr);
  FillCases(s, tiling, solver.perf_version, kr);
  if (tiling != nullptr) FillTiling(s, *tiling, options, profile, solver, kr);
}

void FillCube(const schedule::CubeGroup& c, const att::CubeDecision* d, report::KernelReport* kr) {
  auto* cr = kr->mutable_cube();
  cr->set_node(c.node);
  cr->set_m(c.m.ToString());
  cr->set_n(c.n.ToString());
  cr->set_k(c.k.ToString());
  for (const auto& b : c.batch)
    cr->add_batch(b.ToString());
  cr->set_transpose_x1(c.mm.transpose_x1);
  cr->set_transpose_x2(c.mm.transpose_x2);
  cr->set_in_dtype(std::string(ir::DTypeName(c.in_dtype)));
  cr->set_fixpipe_offered(c.fixpipe);
  cr->set_fix_relu(c.fix_relu);
  cr->set_fix_dtype(std::string(ir::DTypeName(c.fix_dtype)));
  cr->set_epilogue_group(c.fixpipe ? c.epilogue_group : -1);
  for (const auto& s : att::CubeSymbols(c))
    kr->add_symbols(s);
  if (d == nullptr) return;
  const auto& t = d->tiling;
  cr->set_tiled(true);
  cr->set_template_name(att::CubeTemplateName(d->chosen));
  cr->set_reason(d->reason);
  cr->set_base_m(t.base_m);
  cr->set_base_n(t.base_n);
  cr->set_base_k(t.base_k);
  cr->set_tiles(t.tiles);
  cr->set_block_dim(t.block_dim);
  cr->set_cycles(t.cycles);
  cr->set_mte2_cycles(d->pipes.mte2);
  cr->set_mte1_cycles(d->pipes.mte1);
  cr->set_cube_cycles(d->pipes.cube);
  cr->set_fixpipe_cycles(d->pipes.fix);
  cr->set_mte2_bytes(t.total.mte2_bytes);
  cr->set_mte1_fractals(t.total.mte1_fractals);
  cr->set_cube_steps(t.total.cube_steps);
  cr->set_fix_fractals(t.total.fix_fractals);
}

void FillGroups(const Kernel& k, const Options& options, const hw::Profile& profile,
                const af_tiling::SolverOptions& solver, report::KernelReport* kr) {
  for (const auto& s : k.code.symbols)
    kr->add_symbols(s);
  FillDecisions(k.schedule.decisions, kr);
  for (std::size_t q = 0; q < k.groups.size(); ++q) {
    const KernelGroup& g = k.groups[q];
    auto* gr = kr->add_groups();
    gr->set_skipped(GroupSkipped(k, q));
    gr->set_name(g.group.graph.name);
    ir::ToProto(g.group.graph, gr->mutable_hint_graph());
    gr->set_after_sync_all(g.group.reads_workspace);
    if (g.group.cube) {
      FillCube(*g.group.cube, g.cube ? &*g.cube : nullptr, gr);
      continue;
    }
    FillSchedule(g.schedule, g.tiling ? &*g.tiling : nullptr, options, profile, solver, gr);
  }
  for (const auto& w : k.workspace) {
    auto* wr = kr->add_workspace();
    wr->set_value(w.value);
    wr->set_dtype(std::string(ir::DTypeName(w.dtype)));
    wr->set_elements(w.elements.ToString());
    wr->set_written_by(w.written_by);
  }
  if (const auto cycles = GroupCycles(k)) kr->set_groups_modeled_cycles(*cycles);
}

void FillKernel(const Kernel& k, const Options& options, const hw::Profile& profile,
                const af_tiling::SolverOptions& solver, report::KernelReport* kr) {
  kr->set_name(k.code.kernel_name.empty() ? codegen::KernelName(k.hint) : k.code.kernel_name);
  ir::ToProto(k.hint, kr->mutable_hint_graph());
  kr->set_origin(k.origin);
  kr->set_error_code(k.error_code);
  kr->set_error(k.error);
  if (k.MultiGroup()) {
    FillGroups(k, options, profile, solver, kr);
  } else if (k.error.empty() || !k.schedule.cases.empty()) {
    FillSchedule(k.schedule, k.tiling ? &*k.tiling : nullptr, options, profile, solver, kr);
    if (k.tiling && k.pgo) {
      FillPgo(*k.pgo, k.pgo_file.string(), att::PgoOptionsFrom(options.flags),
              kr->mutable_tiling());
    }
  } else {
    return;
  }
  for (const auto& f : k.code.files)
    kr->add_source_files(kr->name() + "/" + f.name);
}

// ---- the front end's part: its decisions and the model graph

std::string ShapeText(const model::ValueType& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i)
    s += (i == 0 ? "" : ", ") + t.shape[i].ToString();
  return s + "]";
}

// The model-graph node that produces value v ("" for values model_nodes leaves out).
std::string Producer(const model::Graph& g, int v) {
  const model::Value& val = g.value(v);
  switch (val.origin) {
    case model::ValueOrigin::kInput:
      return val.type.IsTensor() ? val.name : std::string();
    case model::ValueOrigin::kAttr:
      return val.name;
    case model::ValueOrigin::kNodeOutput:
      if (val.node < 0 || g.node(val.node).kind != model::NodeKind::kOp) return {};
      return g.node(val.node).name;
  }
  return {};
}

// Producer names of every value an argument (or its nested items) reads, without repeats.
void AddInputs(const model::Graph& g, const model::Arg& a, report::ModelNodeReport* n) {
  if (a.IsValue()) {
    const std::string p = Producer(g, a.value);
    if (!p.empty() && std::find(n->inputs().begin(), n->inputs().end(), p) == n->inputs().end())
      n->add_inputs(p);
  }
  for (const auto& it : a.items)
    AddInputs(g, it, n);
}

void SetType(const model::Value& v, report::ModelNodeReport* n) {
  n->set_dtype(v.type.IsTensor() ? v.type.dtype_code : v.type.ToString());
  if (v.type.IsTensor()) n->set_shape(ShapeText(v.type));
}

void FillFusionDecisions(const FrontEnd& fe, report::CompileReport* out) {
  for (const auto& d : fe.fusion.records) {
    auto* dr = out->add_fusion_decisions();
    dr->set_round(d.round);
    dr->set_kind(d.kind);
    for (const auto& n : d.first)
      dr->add_first(n);
    for (const auto& n : d.second)
      dr->add_second(n);
    dr->set_accepted(d.accepted);
    dr->set_code(d.code);
    dr->set_stage(d.stage);
    dr->set_message(d.message);
    dr->set_bytes_saved(d.bytes_saved);
  }
}

// The front end's kernels, named as the report names them.
void FillReportModelNodes(const FrontEnd& fe, report::CompileReport* out) {
  std::vector<std::string> names;
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < fe.fusion.kernels.size(); ++i) {
    const bool reported = static_cast<int>(i) < out->kernels_size();
    names.push_back(reported ? out->kernels(static_cast<int>(i)).name()
                             : "fused_" + std::to_string(i));
    groups.push_back(reported ? out->kernels(static_cast<int>(i)).group() : names.back());
  }
  pipeline::FillModelNodes(fe.graph, fe.fusion, names, groups, out->mutable_model_nodes());
}

}  // namespace

// The tensor placeholders, every op node with the kernel that holds it (the report's kernel
// names) or its fallback code, and the graph's output.
void FillModelNodes(const model::Graph& g, const frontend::FusionResult& fusion,
                    const std::vector<std::string>& names, const std::vector<std::string>& groups,
                    google::protobuf::RepeatedPtrField<report::ModelNodeReport>* out) {
  std::vector<std::string> kernel_of(g.nodes.size());
  std::vector<std::string> group_of(g.nodes.size());
  for (std::size_t i = 0; i < fusion.kernels.size(); ++i) {
    const std::string name = i < names.size() ? names[i] : "fused_" + std::to_string(i);
    const std::string group = i < groups.size() && !groups[i].empty() ? groups[i] : name;
    for (int id : fusion.kernels[i].nodes)
      if (id >= 0 && static_cast<std::size_t>(id) < kernel_of.size()) {
        kernel_of[static_cast<std::size_t>(id)] = name;
        group_of[static_cast<std::size_t>(id)] = group;
      }
  }
  std::vector<std::string> fallback_of(g.nodes.size());
  for (const auto& f : fusion.fallbacks)
    if (f.node >= 0 && static_cast<std::size_t>(f.node) < fallback_of.size())
      fallback_of[static_cast<std::size_t>(f.node)] = f.code;
  for (int v : g.inputs) {
    const model::Value& val = g.value(v);
    if (!val.type.IsTensor()) continue;  // size symbols are not drawn
    auto* n = out->Add();
    n->set_name(val.name);
    n->set_op("placeholder");
    SetType(val, n);
  }
  for (int v : g.attrs) {
    auto* n = out->Add();
    n->set_name(g.value(v).name);
    n->set_op("get_attr");
    SetType(g.value(v), n);
  }
  for (const auto& node : g.nodes) {
    if (node.kind != model::NodeKind::kOp) continue;  // Python arithmetic on size symbols
    auto* n = out->Add();
    n->set_name(node.name);
    n->set_op(node.op.ToString());
    for (const auto& a : node.args)
      AddInputs(g, a, n);
    for (const auto& [key, a] : node.kwargs)
      AddInputs(g, a, n);
    if (!node.outputs.empty()) SetType(g.value(node.outputs.front()), n);
    const auto id = static_cast<std::size_t>(node.id);
    if (id < kernel_of.size()) {
      n->set_kernel(kernel_of[id]);
      n->set_group(group_of[id]);
      n->set_fallback_code(fallback_of[id]);
    }
  }
  auto* n = out->Add();
  n->set_name("output");
  n->set_op("output");
  for (const auto& a : g.outputs)
    AddInputs(g, a, n);
}

void FillReport(const CompileResult& r, const Options& options, report::CompileReport* out) {
  out->Clear();
  out->set_tool_version(AF_VERSION_STRING);
  out->set_input(r.input);
  out->set_soc(options.soc);
  for (const auto& [k, v] : options.flags)
    (*out->mutable_flags())[k] = v;
  for (const auto& t : r.timings) {
    auto* st = out->add_timings();
    st->set_stage(t.stage);
    st->set_ms(t.ms);
  }
  auto* kc = out->mutable_kernel_counts();
  kc->set_groups(r.counts.groups);
  kc->set_distinct(r.counts.distinct);
  kc->set_reused(r.counts.reused);
  kc->set_built(r.counts.built);
  kc->set_cached(r.counts.cached);
  for (const auto& f : r.fallbacks) {
    auto* fr = out->add_fallbacks();
    fr->set_name(f.name);
    fr->set_origin(f.origin);
    fr->set_reason(f.reason);
  }
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const auto solver = att::SolverOptionsFrom(options.flags, profile);
  for (const auto& k : r.kernels) {
    auto* kr = out->add_kernels();
    FillKernel(k, options, profile, solver, kr);
    kr->set_group(k.hint.name);
    if (k.same_as >= 0)
      kr->set_same_kernel_as(r.kernels[static_cast<std::size_t>(k.same_as)].hint.name);
  }
  if (r.front_end) {
    FillFusionDecisions(*r.front_end, out);
    FillReportModelNodes(*r.front_end, out);
    // Ops an importer refused before the front end saw them (GE ops outside the aten table):
    // their code is the "[CODE]" their fallback reason opens with.
    std::map<std::string, std::string> refused;
    for (const auto& f : r.fallbacks)
      if (f.reason.size() > 2 && f.reason[0] == '[')
        refused[f.name] = f.reason.substr(1, f.reason.find(']') - 1);
    for (auto& n : *out->mutable_model_nodes()) {
      auto it = refused.find(n.name());
      if (it != refused.end() && n.kernel().empty() && n.fallback_code().empty())
        n.set_fallback_code(it->second);
    }
  }
  // Asked for, or the input marks super-kernel scopes (which turn super kernels on by themselves).
  if (options.superkernel || (r.front_end && !model::SuperKernelScopes(r.front_end->graph).empty()))
    FillSuperKernelReport(r, options, out->mutable_superkernel());
}

std::string ReportToJson(const report::CompileReport& rep) {
  std::string json;
  google::protobuf::util::JsonPrintOptions jo;
  jo.add_whitespace = true;
  jo.preserve_proto_field_names = true;
  const auto st = google::protobuf::util::MessageToJsonString(rep, &json, jo);
  if (!st.ok()) throw std::runtime_error("report to JSON: " + st.ToString());
  return json;
}

void WriteOutputs(const CompileResult& r, const report::CompileReport& report,
                  const std::string& dir, bool overwrite) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw InputError({dir, 0, 0}, "exists and is not a directory");
  }
  if (fs::is_directory(dir, ec) && !fs::is_empty(dir, ec) && !overwrite) {
    // Only our own previous outputs may be replaced silently.
    if (!fs::exists(fs::path(dir) / "report.json")) {
      throw InputError({dir, 0, 0},
                       "is a non-empty directory without a report.json; not writing "
                       "into it (use --force)");
    }
  }
  fs::create_directories(dir, ec);
  if (ec) throw InputError({dir, 0, 0}, "cannot create the directory: " + ec.message());
  for (const auto& k : r.kernels) {
    if (k.code.files.empty() || k.same_as >= 0) continue;  // identical kernels: one folder
    const fs::path kd = fs::path(dir) / k.code.kernel_name;
    fs::create_directories(kd, ec);
    for (const auto& f : k.code.files)
      WriteFileReplacing((kd / f.name).string(), f.text);
    std::string sched;
    if (k.MultiGroup()) {
      for (std::size_t q = 0; q < k.groups.size(); ++q)
        sched += "# group " + std::to_string(q) + " " + k.groups[q].group.graph.name + "\n" +
                 schedule::DumpSchedule(k.groups[q].schedule);
    } else {
      sched = schedule::DumpSchedule(k.schedule);
    }
    WriteFileReplacing((kd / "schedule.txt").string(), sched);
  }
  WriteFileReplacing((fs::path(dir) / "report.json").string(), ReportToJson(report));
  if (!r.front_end) return;
  std::vector<std::string> names;
  names.reserve(r.kernels.size());
  for (const auto& k : r.kernels)
    names.push_back(k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name);
  WriteFileReplacing(
      (fs::path(dir) / "fusion.json").string(),
      frontend::FusionJson(r.front_end->graph, r.front_end->fusion, r.front_end->options, names));
}

}  // namespace af::pipeline
