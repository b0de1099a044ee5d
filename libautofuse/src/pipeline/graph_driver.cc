// Whole model graphs through the pipeline (see graph_driver.h):
//
//   CompileModelGraph:  import (FX graph) -> frontend (fusion decider + lowering)
//                       -> per fused kernel: schedule, tiling, codegen, compile
//   RunCase:            inputs -> bind sizes -> compile -> run units in dependency order
//                       (fused kernels on the CPU runtime, other ops on the reference evaluator)
//                       -> compare returned values with expected/
#include "autofuse/pipeline/graph_driver.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/inductor_grouping.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string GraphFile(const std::string& path) {
  if (fs::is_directory(path)) return (fs::path(path) / "fx_graph_readable.py").string();
  return path;
}

bool AllBound(const std::vector<std::string>& symbols, const sym::Bindings& b) {
  return std::ranges::all_of(symbols, [&b](const std::string& s) { return b.contains(s); });
}

// schedule -> tiling -> codegen -> compile for one hint graph (the stages of Compile).
void CompileKernel(Kernel& k, const Options& options, const hw::Profile& profile,
                   std::vector<double>& ms) {
  try {
    auto t0 = Clock::now();
    k.schedule = schedule::Schedule(k.hint, profile);
    auto t1 = Clock::now();
    ms[0] += Ms(t0, t1);
    if (options.dump) options.dump("schedule", schedule::DumpSchedule(k.schedule));
    t0 = Clock::now();
    const codegen::TilingOptions tiling = TilingOptionsFrom(options, profile);
    if (AllBound(att::KernelSymbols(k.schedule), options.bindings))
      k.tiling = att::Solve(k.schedule, options.bindings, profile, -1, -1, tiling.solver);
    t1 = Clock::now();
    ms[1] += Ms(t0, t1);
    t0 = Clock::now();
    k.code = codegen::Generate(k.hint, k.schedule, tiling);
    t1 = Clock::now();
    ms[2] += Ms(t0, t1);
    if (options.build) {
      t0 = Clock::now();
      std::vector<toolchain::SourceFile> src;
      for (const auto& f : k.code.files)
        src.push_back({f.name, f.text});
      k.library = toolchain::CompileKernel(src, k.code.main_file, options.compile);
      t1 = Clock::now();
      ms[3] += Ms(t0, t1);
    }
  } catch (const schedule::ScheduleError& e) {
    k.error_code = e.code();
    k.error = e.what();
  } catch (const codegen::CodegenError& e) {
    k.error_code = e.code();
    k.error = e.what();
  } catch (const InputError& e) {  // the tiling solver found no tiling for the bound sizes
    k.error_code = "NO_TILING";
    k.error = e.what();
  }
}

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

data::HostArray Reshaped(data::HostArray a, std::vector<std::int64_t> shape, ir::DType dt) {
  if (a.dtype != dt) a = data::Convert(a, dt);
  if (data::ShapeNumel(shape) != a.numel())
    throw std::runtime_error("array of " + std::to_string(a.numel()) + " elements where " +
                             std::to_string(data::ShapeNumel(shape)) + " are expected");
  a.shape = std::move(shape);
  return a;
}

}  // namespace

bool IsModelGraphInput(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::exists(fs::path(path) / "fx_graph_readable.py", ec);
  if (!fs::is_regular_file(path, ec)) return false;
  const std::string name = fs::path(path).filename().string();
  if (name.rfind("fx_graph", 0) == 0 || name.find(".fx_graph") != std::string::npos) return true;
  if (fs::path(path).extension() != ".py") return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return importers::LooksLikeFxGraph(head);
}

GraphCompileResult CompileModelGraph(const std::string& path, const Options& options) {
  GraphCompileResult r;
  r.input = path;
  r.compiled.input = path;
  const hw::Profile& profile = hw::GetProfile(options.soc);
  // ---- import
  auto t0 = Clock::now();
  r.graph = importers::LoadFxGraphFile(GraphFile(path));
  auto t1 = Clock::now();
  r.compiled.timings.push_back({"import", Ms(t0, t1)});
  // ---- frontend: fusion decisions and lowering
  t0 = Clock::now();
  try {
    r.fusion_options = frontend::FusionOptionsFromFlags(options.flags, options.soc);
    r.fusion_options.bindings = options.bindings;  // --bind sizes for the memory and gain checks
  } catch (const frontend::LowerError& e) {
    throw InputError({}, e.what());
  }
  r.fusion = frontend::DecideFusion(r.graph, r.fusion_options);
  for (const auto& f : r.fusion.fallbacks)  // ops outside every kernel, in the CompileReport too
    r.compiled.fallbacks.push_back(
        {r.graph.node(f.node).name, GraphFile(path), "[" + f.code + "] " + f.message});
  t1 = Clock::now();
  r.compiled.timings.push_back({"frontend", Ms(t0, t1)});
  std::vector<double> ms(4, 0.0);
  for (std::size_t i = 0; i < r.fusion.kernels.size(); ++i) {
    Kernel k;
    k.hint = r.fusion.kernels[i].lowered.graph;
    k.hint.name = "fused_" + std::to_string(i);
    k.origin = GraphFile(path);
    if (options.dump) options.dump("frontend", ir::DumpText(k.hint));
    CompileKernel(k, options, profile, ms);
    r.compiled.kernels.push_back(std::move(k));
  }
  r.compiled.timings.push_back({"schedule", ms[0]});
  r.compiled.timings.push_back({"tiling", ms[1]});
  r.compiled.timings.push_back({"codegen", ms[2]});
  r.compiled.timings.push_back({"compile", ms[3]});
  return r;
}

void FillGraphReport(const GraphCompileResult& r, const Options& options,
                     report::CompileReport* out) {
  FillReport(r.compiled, options, out);
  for (const auto& d : r.fusion.records) {
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
  const model::Graph& g = r.graph;
  // Which kernel holds each op node (the report's kernel names), and each fallback's code.
  std::vector<std::string> kernel_of(g.nodes.size());
  for (std::size_t i = 0; i < r.fusion.kernels.size(); ++i) {
    const std::string name = static_cast<int>(i) < out->kernels_size()
                                 ? out->kernels(static_cast<int>(i)).name()
                                 : "fused_" + std::to_string(i);
    for (int id : r.fusion.kernels[i].nodes)
      if (id >= 0 && static_cast<std::size_t>(id) < kernel_of.size())
        kernel_of[static_cast<std::size_t>(id)] = name;
  }
  std::vector<std::string> fallback_of(g.nodes.size());
  for (const auto& f : r.fusion.fallbacks)
    if (f.node >= 0 && static_cast<std::size_t>(f.node) < fallback_of.size())
      fallback_of[static_cast<std::size_t>(f.node)] = f.code;
  for (int v : g.inputs) {
    const model::Value& val = g.value(v);
    if (!val.type.IsTensor()) continue;  // size symbols are not drawn
    auto* n = out->add_model_nodes();
    n->set_name(val.name);
    n->set_op("placeholder");
    SetType(val, n);
  }
  for (int v : g.attrs) {
    auto* n = out->add_model_nodes();
    n->set_name(g.value(v).name);
    n->set_op("get_attr");
    SetType(g.value(v), n);
  }
  for (const auto& node : g.nodes) {
    if (node.kind != model::NodeKind::kOp) continue;  // Python arithmetic on size symbols
    auto* n = out->add_model_nodes();
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
      n->set_fallback_code(fallback_of[id]);
    }
  }
  auto* n = out->add_model_nodes();
  n->set_name("output");
  n->set_op("output");
  for (const auto& a : g.outputs)
    AddInputs(g, a, n);
  // Inductor's grouping beside ours, when the input's folder holds Inductor's groups too.
  std::error_code ec;
  const fs::path dir =
      fs::is_directory(r.input, ec) ? fs::path(r.input) : fs::path(r.input).parent_path();
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(out->kernels_size()));
  for (const auto& k : out->kernels())
    names.push_back(k.name());
  report::GroupingComparisonReport cmp;
  try {
    if (CompareWithInductor(dir.string(), r.graph, r.fusion, names, &cmp))
      *out->add_framework_groupings() = std::move(cmp);
  } catch (const InputError& e) {  // a damaged ir_post_fusion.txt: the compile report still stands
    auto* bad = out->add_framework_groupings();
    bad->set_model(dir.string());
    bad->add_notes(std::string("not compared: ") + e.what());
  }
}

std::string GraphReportJson(const GraphCompileResult& r, const Options& options) {
  report::CompileReport rep;
  FillGraphReport(r, options, &rep);
  return ReportToJson(rep);
}

void WriteGraphOutputs(const GraphCompileResult& r, const Options& options, const std::string& dir,
                       bool overwrite) {
  WriteOutputs(r.compiled, options, dir, overwrite);
  // report.json again, with the front end's decisions and the model graph
  WriteFileReplacing((fs::path(dir) / "report.json").string(), GraphReportJson(r, options));
  std::vector<std::string> names;
  for (const auto& k : r.compiled.kernels)
    names.push_back(k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name);
  WriteFileReplacing((fs::path(dir) / "fusion.json").string(),
                     frontend::FusionJson(r.graph, r.fusion, r.fusion_options, names));
}

CaseRun RunCase(const std::string& case_dir, const Options& options, std::optional<double> atol,
                std::optional<double> rtol) {
  CaseRun res;
  const fs::path dir(case_dir);
  if (!fs::is_directory(dir)) {
    throw InputError({case_dir},
                     "running a model graph needs a case directory "
                     "(fx_graph_readable.py, inputs/, expected/); "
                     "samples/torch/make_case.py writes them");
  }
  // the graph first (for the placeholder names and dtypes), then the inputs
  const model::Graph g = importers::LoadFxGraphFile(GraphFile(case_dir));
  std::vector<data::HostArray> inputs;
  std::vector<int> tensor_inputs;
  for (int v : g.inputs) {
    const auto& val = g.value(v);
    if (!val.type.IsTensor()) continue;
    const fs::path p = dir / "inputs" / (val.name + ".npy");
    if (!fs::exists(p)) throw InputError({p.string()}, "missing input array for " + val.name);
    inputs.push_back(data::ReadNpy(p.string(), val.type.dtype));
    tensor_inputs.push_back(v);
  }
  sym::Bindings b = frontend::BindFromInputs(g, inputs);
  Options o = options;
  for (const auto& [k, v] : b)
    o.bindings[k] = v;
  res.compiled = CompileModelGraph(case_dir, o);
  const auto& fr = res.compiled.fusion;
  frontend::Evaluator ev(g, o.bindings);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    ev.Set(tensor_inputs[i], inputs[i]);
  // units: kernels and every op node outside them, in order of their first node
  struct Unit {
    int first = 0;
    int kernel = -1;  // index into kernels, or -1 for a single node
    int node = -1;
  };
  std::vector<Unit> units;
  std::set<int> in_kernel;
  for (std::size_t i = 0; i < fr.kernels.size(); ++i) {
    const Kernel& k = res.compiled.compiled.kernels[i];
    if (!k.error.empty()) {  // a later stage refused it: its ops run on the reference evaluator
      res.log.push_back("kernel " + k.hint.name + " not compiled [" + k.error_code +
                        "]: " + k.error + "; its ops run on the reference evaluator");
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
  auto reads = [&](const Unit& u) {
    std::vector<int> vals;
    if (u.kernel >= 0) return fr.kernels[static_cast<std::size_t>(u.kernel)].lowered.inputs;
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
  };
  std::vector<bool> done(units.size(), false);
  bool kernels_ok = true;
  for (std::size_t left = units.size(); left > 0;) {
    bool progress = false;
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (int v : reads(units[i]))
        ready = ready && ev.Has(v);
      if (!ready) continue;
      const Unit& u = units[i];
      if (u.kernel < 0) {
        ev.EvalNode(u.node);
        res.log.push_back("reference " + g.node(u.node).op.ToString() + " " + g.node(u.node).name);
      } else {
        const auto& fk = fr.kernels[static_cast<std::size_t>(u.kernel)];
        const Kernel& k = res.compiled.compiled.kernels[static_cast<std::size_t>(u.kernel)];
        const auto specs = interp::InputShapes(k.hint, o.bindings);
        RunOptions ro;
        for (std::size_t j = 0; j < fk.lowered.inputs.size(); ++j)
          ro.inputs.push_back(
              Reshaped(ev.Get(fk.lowered.inputs[j]), specs.at(j).shape, specs.at(j).dtype));
        const RunResult rr = Run(k, o, ro);
        std::string line = "kernel " + k.code.kernel_name + " (" + std::to_string(fk.nodes.size()) +
                           " ops): case " + std::to_string(rr.tiling_key) + ", block_dim " +
                           std::to_string(rr.block_dim);
        if (!rr.ok) {
          line += ", DIFFERS from the interpreter";
          kernels_ok = false;
        }
        res.log.push_back(line);
        for (std::size_t j = 0; j < fk.lowered.outputs.size(); ++j) {
          const int v = fk.lowered.outputs[j];
          ev.Set(v, Reshaped(rr.actual.at(j), ev.ShapeOf(v), g.value(v).type.dtype));
        }
      }
      done[i] = true;
      --left;
      progress = true;
    }
    if (!progress) throw std::runtime_error("the graph's units have a cyclic dependency");
  }
  // ---- compare
  bool has_reduce = false;
  for (const auto& n : g.nodes) {
    static const std::set<std::string> red = {
        "sum", "mean", "amax",  "amin",   "prod",   "var",      "var_mean",
        "mm",  "bmm",  "addmm", "matmul", "linear", "_softmax", "_log_softmax"};
    has_reduce = has_reduce || red.contains(n.op.name);
  }
  res.ok = kernels_ok;
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const auto& a = g.outputs[k];
    if (!a.IsValue() || !g.value(a.value).type.IsTensor()) continue;
    const auto& val = g.value(a.value);
    const fs::path p = dir / "expected" / ("out" + std::to_string(k) + ".npy");
    data::HostArray expected = data::ReadNpy(p.string(), val.type.dtype);
    data::HostArray actual = ev.Get(a.value);
    if (expected.shape != actual.shape && expected.numel() == actual.numel())
      expected.shape = actual.shape;
    OutputCheck c;
    c.name = "out" + std::to_string(k) + " (" + val.name + ")";
    const auto tol = data::DefaultTolerance(val.type.dtype, has_reduce);
    c.atol = atol.value_or(tol.atol);
    c.rtol = rtol.value_or(tol.rtol);
    const auto cmp = data::CompareArrays(expected, actual, c.atol, c.rtol);
    c.ok = cmp.ok;
    c.max_abs = cmp.max_abs;
    c.max_rel = cmp.max_rel;
    c.message = cmp.message;
    res.ok = res.ok && c.ok;
    res.outputs.push_back(c);
  }
  return res;
}

bool CompareWithInductor(const std::string& model_dir, const model::Graph& g,
                         const frontend::FusionResult& fusion,
                         const std::vector<std::string>& kernel_names,
                         report::GroupingComparisonReport* out) {
  namespace ind = importers::inductor;
  std::error_code ec;
  const fs::path ir = fs::path(model_dir) / "ir_post_fusion.txt";
  if (!fs::is_regular_file(ir, ec)) return false;
  const ind::IrFile post = ind::LoadInductorIrFile(ir);
  std::string code;
  if (const fs::path oc = fs::path(model_dir) / "output_code.py"; fs::is_regular_file(oc, ec)) {
    std::ifstream in(oc, std::ios::binary);
    code.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const ind::InductorFxGroups theirs = ind::MapInductorGroups(post, g, code);
  std::vector<ind::FxGroup> ours;
  for (std::size_t i = 0; i < fusion.kernels.size(); ++i) {
    ind::FxGroup grp;
    grp.name = i < kernel_names.size() ? kernel_names[i]
                                       : codegen::KernelName(fusion.kernels[i].lowered.graph);
    grp.kind = "kernel";
    for (int id : fusion.kernels[i].nodes)
      grp.nodes.push_back(g.node(id).name);
    ours.push_back(std::move(grp));
  }
  std::map<std::string, std::string> codes;
  for (const auto& f : fusion.fallbacks)
    codes[g.node(f.node).name] = f.code;
  std::vector<ind::Refusal> refusals;
  for (const auto& rec : fusion.records)
    if (!rec.accepted) refusals.push_back({rec.first, rec.second, rec.code});
  const ind::GroupingComparison c =
      ind::CompareGroupings(theirs.groups, ours, codes, refusals, ind::ViewNodes(g));

  report::GroupingComparisonReport rep;
  rep.set_model(model_dir);
  rep.set_fx_graph(g.file);
  rep.set_ir_file(ir.string());
  auto add_group = [](const ind::FxGroup& grp, report::FxGroupReport* gr) {
    gr->set_name(grp.name);
    gr->set_kind(grp.kind);
    for (const auto& n : grp.nodes)
      gr->add_nodes(n);
    for (const auto& b : grp.buffers)
      gr->add_buffers(b);
  };
  for (const auto& grp : theirs.groups)
    add_group(grp, rep.add_inductor_groups());
  for (const auto& grp : ours)
    add_group(grp, rep.add_our_groups());
  rep.set_inductor_kernels(c.inductor_kernels);
  rep.set_our_kernels(c.our_kernels);
  rep.set_identical(c.identical);
  rep.set_split(c.split);
  rep.set_merged(c.merged);
  rep.set_inductor_only_nodes(c.inductor_only_nodes);
  rep.set_ours_only_nodes(c.ours_only_nodes);
  for (const auto& [a, b] : c.identical_pairs)
    rep.add_identical_pairs(a + " = " + b);
  for (const auto& d : c.diffs) {
    auto* dr = rep.add_diffs();
    dr->set_kind(d.kind);
    for (const auto& x : d.inductor_groups)
      dr->add_inductor_groups(x);
    for (const auto& x : d.our_groups)
      dr->add_our_groups(x);
    for (const auto& x : d.nodes)
      dr->add_nodes(x);
    for (const auto& x : d.codes)
      dr->add_codes(x);
  }
  for (const auto& nt : theirs.notes)
    rep.add_notes(nt);
  *out = std::move(rep);
  return true;
}

bool CompareWithInductor(const std::string& model_dir, const Options& options,
                         report::GroupingComparisonReport* out) {
  std::error_code ec;
  fs::path fx;
  for (const char* name :
       {"fx_graph_readable.py", "fx_graph_transformed.py", "fx_graph_runnable.py"})
    if (fs::is_regular_file(fs::path(model_dir) / name, ec)) {
      fx = fs::path(model_dir) / name;
      break;
    }
  if (fx.empty() || !fs::is_regular_file(fs::path(model_dir) / "ir_post_fusion.txt", ec))
    return false;
  const model::Graph g = importers::LoadFxGraphFile(fx);
  frontend::FusionOptions fo;
  try {
    fo = frontend::FusionOptionsFromFlags(options.flags, options.soc);
    fo.bindings = options.bindings;
  } catch (const frontend::LowerError& e) {
    throw InputError({}, e.what());
  }
  const frontend::FusionResult fusion = frontend::DecideFusion(g, fo);
  return CompareWithInductor(model_dir, g, fusion, {}, out);
}

}  // namespace af::pipeline
