// The input registry (see registry.h). Every format afc reads is one entry of Formats(), in the
// order they are tried; the functions below it are what afc and the viewer call.
#include "autofuse/inputs/registry.h"

#include <chrono>
#include <filesystem>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/dfx_dump.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/ge_model.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/importers/output_code.h"
#include "autofuse/inputs/inductor_compare.h"
#include "autofuse/inputs/inductor_estimate.h"
#include "autofuse/ir/load.h"
#include "autofuse/pipeline/report.h"
#include "autofuse/support/error.h"
#include "inspect.h"
#include "report.pb.h"

namespace af::inputs {
namespace {

namespace fs = std::filesystem;
namespace ind = importers::inductor;

// ---- importers: one per kind of content

// AutoFuse DFX dumps: each graph's last hint-graph stage (what AutoFuse scheduled). A folder
// holds AutoFuse's own fused graphs, so one we cannot schedule falls back; a single file is the
// user's kernel.
pipeline::Input ImportDfx(const Probe& p) {
  pipeline::Input in;
  in.framework_groups = !p.is_file();
  for (const auto& g : importers::dfx::DiscoverDfxDump(p.path()).graphs) {
    auto pick = importers::dfx::PickHintStage(g);
    if (!pick.text) {
      if (!in.framework_groups) throw InputError({p.path(), 0, 0}, pick.reason);
      continue;  // impl-graph and subgraph dumps: nothing to schedule (afc inspect lists them)
    }
    in.hints.push_back({std::move(pick.text->graph), pick.stage->ascgraph.string()});
  }
  if (in.hints.empty()) {
    throw InputError({p.path(), 0, 0},
                     "no hint-graph stage to compile (only impl-graph or subgraph dumps)");
  }
  return in;
}

// torch_compile_debug folders and ir_post_fusion.txt: Inductor's own fused groups, lowered to
// hint graphs the way inductor_npu_ext does; the others are fallbacks with a reason.
pipeline::Input ImportInductorGroups(const Probe& p) {
  pipeline::Input in;
  in.framework_groups = true;
  for (const auto& m : ind::DiscoverDebugDump(p.path()).models) {
    const auto* post = m.Find(ind::DumpFileKind::kIrPostFusion);
    if (post == nullptr) continue;
    for (auto& g : ind::BuildHintGraphs(ind::LoadInductorIrFile(post->path))) {
      if (!g.graph) {
        in.fallbacks.push_back({g.name, post->path.string(), g.reason});
        continue;
      }
      in.hints.push_back({std::move(*g.graph), post->path.string() + ": " + g.name});
    }
  }
  if (in.hints.empty() && in.fallbacks.empty()) {
    throw InputError({p.path(), 0, 0}, "no ir_post_fusion.txt (Inductor's fused groups) found");
  }
  return in;
}

// An aten FX graph file, or a case folder's fx_graph_readable.py: the front end decides.
pipeline::Input ImportModelGraph(const Probe& p) {
  pipeline::Input in;
  in.model_file = p.is_dir() ? (fs::path(p.path()) / "fx_graph_readable.py").string() : p.path();
  in.model = importers::LoadFxGraphFile(in.model_file);
  return in;
}

// AscGraphDef text, GE graph text with embedded AscGraphs, our readable text: kernels already.
pipeline::Input ImportAscGraphs(const Probe& p) {
  pipeline::Input in;
  for (auto& lg : ir::LoadGraphFile(p.path()).graphs)
    in.hints.push_back({std::move(lg.graph), lg.origin});
  return in;
}

// GE graph dumps: every graph lowered into one model graph (ge_model.h), the front end decides;
// the ops the lowering refused are fallbacks with their reason, Const values go with the graph.
pipeline::Input GeModelInput(const importers::ge::GeOnnxModel& m, const Probe& p) {
  importers::ge::GeModelImport r = importers::ge::LowerGeModel(m);
  pipeline::Input in;
  in.model_file = p.path();
  for (const auto& x : r.refusals)
    in.fallbacks.push_back({x.node, p.path(), "[" + x.code + "] " + x.message});
  for (auto& c : r.constants) {
    data::HostArray a;
    a.dtype = c.dtype;
    a.shape = c.shape;
    a.bytes.assign(c.bytes.begin(), c.bytes.end());
    in.constants.emplace_back(c.value, std::move(a));
  }
  in.model = std::move(r.graph);
  return in;
}

pipeline::Input ImportGeOnnx(const Probe& p) {
  return GeModelInput(importers::ge::LoadGeOnnxFile(p.path()), p);
}

// A ge_proto dump holding AscGraphs (AutoFuse's fused ops) is kernels already; a GE network's
// dump is a model graph. Both reads stream op by op.
pipeline::Input ImportGeProto(const Probe& p) {
  ir::LoadedFile f = importers::ge::LoadGeProtoFile(p.path());
  if (!f.graphs.empty()) {
    pipeline::Input in;
    for (auto& lg : f.graphs)
      in.hints.push_back({std::move(lg.graph), lg.origin});
    return in;
  }
  return GeModelInput(importers::ge::LoadGeProtoModel(p.path()), p);
}

pipeline::GraphEstimate EstimateGe(const Probe& p, const pipeline::Options& options,
                                   pipeline::Input (*import)(const Probe&)) {
  pipeline::Input in = import(p);
  if (!in.model) {
    throw InputError(
        {p.path()},
        "this GE dump holds AscGraphs (fused kernels already), with no unfused form to "
        "compare (afc tile gives their modeled cycles)");
  }
  in.path = p.path();
  return pipeline::Estimate(pipeline::Compile(std::move(in), options), options);
}

// inductor_npu_ext's asc_graph.py (alone, or its autofused_* folder): each hint graph is a kernel
// inductor_npu_ext decided; one we cannot convert (an op outside our registry, a form we do not
// read) falls back with the reason, which names the op.
pipeline::Input ImportAscGraphPy(const Probe& p) {
  const fs::path file = p.is_dir() ? fs::path(p.path()) / "asc_graph.py" : fs::path(p.path());
  const auto py = ind::LoadAscGraphPyFile(file);
  pipeline::Input in;
  in.framework_groups = true;
  for (const auto& g : py.graphs) {
    if (g.fused) continue;  // its AscBackend nodes name the hint graphs listed on their own
    auto h = ind::ToHintGraph(g);
    if (!h.graph) {
      in.fallbacks.push_back({g.name, file.string() + ":" + std::to_string(g.line), h.reason});
      continue;
    }
    in.hints.push_back({std::move(*h.graph), file.string() + ": " + g.name});
  }
  if (in.hints.empty() && in.fallbacks.empty())
    throw InputError({file.string()}, "no ascir.HintGraph in this asc_graph.py");
  return in;
}

bool IsAscGraphPyDir(const Probe& p) {
  std::error_code ec;
  return p.is_dir() && fs::is_regular_file(fs::path(p.path()) / "asc_graph.py", ec) &&
         !fs::exists(fs::path(p.path()) / "fx_graph_readable.py", ec);
}

pipeline::GraphEstimate EstimateModelGraph(const Probe& p, const pipeline::Options& options) {
  pipeline::Input in = ImportModelGraph(p);
  pipeline::Options o = options;
  for (const auto& [k, v] : pipeline::BindCaseInputs(*in.model, p.path()))
    o.bindings.emplace(k, v);
  in.path = p.path();
  return pipeline::Estimate(pipeline::Compile(std::move(in), o), o);
}

pipeline::GraphEstimate EstimateInductorDump(const Probe& p, const pipeline::Options& options) {
  return EstimateInductor(p.path(), options);
}

// ---- recognisers

bool IsCaseDir(const Probe& p) {
  std::error_code ec;
  return p.is_dir() && fs::exists(fs::path(p.path()) / "fx_graph_readable.py", ec);
}

// fx_graph_*.py and *.fx_graph*.py names, or a .py file that starts like an FX graph.
bool IsFxGraphFile(const Probe& p) {
  if (!p.is_file()) return false;
  const std::string name = p.filename();
  if (name.rfind("fx_graph", 0) == 0 || name.find(".fx_graph") != std::string::npos) return true;
  return fs::path(p.path()).extension() == ".py" && importers::LooksLikeFxGraph(p.head());
}

bool IsPostFusionIr(const Probe& p) {
  ind::DumpFileKind kind{};
  return p.is_file() && ind::ClassifyDumpFile(p.path(), &kind) &&
         kind == ind::DumpFileKind::kIrPostFusion;
}

// Text checks on the whole file (the Inductor and FX forms can start with anything).
bool TextLooks(const Probe& p, bool (*looks)(std::string_view)) {
  return p.is_file() && looks(p.text());
}

// Inductor dump files other than ir_post_fusion.txt are estimated through their folder's view
// (which says what is missing); other files have no unfused form.
pipeline::GraphEstimate EstimateDumpFile(const Probe& p, const pipeline::Options& options) {
  ind::DumpFileKind kind{};
  if (!ind::ClassifyDumpFile(p.path(), &kind)) {
    throw InputError({p.path()},
                     "afc estimate takes an FX graph, a PyTorch case directory or an Inductor "
                     "dump (torch_compile_debug folder, ir_post_fusion.txt); an AscGraph is "
                     "one kernel already, with no unfused form to compare (afc tile gives its "
                     "modeled cycles)");
  }
  return EstimateInductor(p.path(), options);
}

std::vector<Format> MakeFormats() {
  std::vector<Format> f;
  f.push_back({"autofuse_dfx",
               "AutoFuse DFX dump folder (AUTOFUSE_DFX_FLAGS) or one ascgraph_*.txt",
               [](const Probe& p) { return importers::dfx::IsDfxDumpInput(p.path()); }, ImportDfx,
               InspectDfxDump, EstimateDumpFile});
  f.push_back({"case_dir", "PyTorch case folder (fx_graph_readable.py, inputs/, expected/)",
               IsCaseDir, ImportModelGraph, InspectDebugDump, EstimateModelGraph});
  f.push_back({"asc_graph_dir", "inductor_npu_ext autofused_* folder (asc_graph.py)",
               IsAscGraphPyDir, ImportAscGraphPy,
               [](const Probe& p, bool json) {
                 return InspectAscGraphPy(Probe((fs::path(p.path()) / "asc_graph.py").string()),
                                          json);
               },
               EstimateDumpFile});
  f.push_back({"torch_compile_debug", "torch_compile_debug folder at any level",
               [](const Probe& p) { return p.is_dir(); }, ImportInductorGroups, InspectDebugDump,
               EstimateInductorDump});
  f.push_back({"fx_graph", "aten FX graph (fx_graph_readable/transformed/runnable.py)",
               IsFxGraphFile, ImportModelGraph, InspectFxGraph, EstimateModelGraph});
  f.push_back({"ir_post_fusion", "Inductor post-fusion IR (ir_post_fusion.txt)", IsPostFusionIr,
               ImportInductorGroups, InspectInductorIr, EstimateInductorDump});
  f.push_back(
      {"ge_onnx", "GE graph dump, ONNX text form (ge_onnx_*.pbtxt)",
       [](const Probe& p) { return p.is_file() && importers::ge::LooksLikeGeOnnx(p.head()); },
       ImportGeOnnx, InspectGeOnnx,
       [](const Probe& p, const pipeline::Options& o) { return EstimateGe(p, o, ImportGeOnnx); }});
  f.push_back(
      {"ge_proto", "GE graph dump, protobuf text form (ge_proto_*.txt)",
       [](const Probe& p) { return p.is_file() && importers::ge::LooksLikeGeProto(p.head()); },
       ImportGeProto, InspectAscGraphFile,
       [](const Probe& p, const pipeline::Options& o) { return EstimateGe(p, o, ImportGeProto); }});
  // before the Inductor IR: the hint block of an asc_graph.py quotes Inductor's node dumps
  f.push_back({"asc_graph_py", "inductor_npu_ext asc_graph.py",
               [](const Probe& p) { return TextLooks(p, ind::LooksLikeAscGraphPy); },
               ImportAscGraphPy, InspectAscGraphPy, EstimateDumpFile});
  f.push_back({"inductor_ir", "Inductor IR text (ir_pre_fusion.txt, scheduler-node dumps)",
               [](const Probe& p) { return TextLooks(p, ind::LooksLikeInductorIr); },
               ImportAscGraphs, InspectInductorIr, EstimateDumpFile});
  f.push_back({"output_code", "Inductor output_code.py",
               [](const Probe& p) { return TextLooks(p, ind::LooksLikeOutputCode); },
               ImportAscGraphs, InspectOutputCode, EstimateDumpFile});
  f.push_back({"fx_graph_text", "aten FX graph in another file (a log excerpt, a .txt dump)",
               [](const Probe& p) { return TextLooks(p, importers::LooksLikeFxGraph); },
               ImportModelGraph, InspectFxGraph, EstimateModelGraph});
  f.push_back({"ascgraph", "AscGraph: AscGraphDef text, GE graph text, readable graph text",
               [](const Probe&) { return true; }, ImportAscGraphs, InspectAscGraphFile,
               EstimateDumpFile});
  return f;
}

}  // namespace

const std::vector<Format>& Formats() {
  static const std::vector<Format> formats = MakeFormats();
  return formats;
}

const Format& Recognise(const Probe& probe) {
  for (const auto& f : Formats())
    if (f.recognise(probe)) return f;
  return Formats().back();
}

pipeline::Input Import(const std::string& path) {
  const auto t0 = std::chrono::steady_clock::now();
  const Probe probe(path);
  const Format& format = Recognise(probe);
  pipeline::Input in = format.import(probe);
  in.path = path;
  in.format = format.name;
  in.import_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return in;
}

pipeline::CompileResult CompileFile(const std::string& path, const pipeline::Options& options) {
  return pipeline::Compile(Import(path), options);
}

void FillReport(const pipeline::CompileResult& r, const pipeline::Options& options,
                report::CompileReport* out) {
  pipeline::FillReport(r, options, out);
  if (r.front_end) {
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
      if (CompareWithInductor(dir.string(), r.front_end->graph, r.front_end->fusion, names, &cmp))
        *out->add_framework_groupings() = std::move(cmp);
    } catch (const InputError& e) {  // a damaged ir_post_fusion.txt: the report still stands
      auto* bad = out->add_framework_groupings();
      bad->set_model(dir.string());
      bad->add_notes(std::string("not compared: ") + e.what());
    }
    return;
  }
  if (r.format == "torch_compile_debug" || r.format == "ir_post_fusion")
    AddInductorGroupings(r.input, options, out);
}

std::string ReportJson(const pipeline::CompileResult& r, const pipeline::Options& options) {
  report::CompileReport rep;
  inputs::FillReport(r, options, &rep);
  return pipeline::ReportToJson(rep);
}

void WriteOutputs(const pipeline::CompileResult& r, const pipeline::Options& options,
                  const std::string& dir, bool overwrite) {
  report::CompileReport rep;
  inputs::FillReport(r, options, &rep);
  pipeline::WriteOutputs(r, rep, dir, overwrite);
}

int Inspect(const std::string& path, bool json) {
  const Probe probe(path);
  return Recognise(probe).inspect(probe, json);
}

pipeline::GraphEstimate Estimate(const std::string& path, pipeline::Options options) {
  const Probe probe(path);
  if (!probe.exists()) throw InputError({path, 0, 0}, "no such file or folder");
  options.build = false;  // the model needs schedules and tilings, not binaries
  return Recognise(probe).estimate(probe, options);
}

pipeline::CaseRun RunCase(const std::string& path, const pipeline::Options& options,
                          std::optional<double> atol, std::optional<double> rtol) {
  return pipeline::RunCase(Import(path), options, atol, rtol);
}

ir::Graph ReadOneHintGraph(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && importers::dfx::IsDfxDumpInput(path))
    return importers::dfx::LoadAscGraphTextFile(path).graph;  // AutoFuse's ascgraph_*.txt
  // ge_proto dumps are streamed op by op (bounded memory on dumps of hundreds of MB)
  const Probe probe(path);
  ir::LoadedFile f = probe.is_file() && importers::ge::LooksLikeGeProto(probe.head())
                         ? importers::ge::LoadGeProtoFile(path)
                         : ir::LoadGraphFile(path);
  if (f.graphs.size() != 1) {
    throw InputError({path, 0, 0}, "holds " + std::to_string(f.graphs.size()) +
                                       " AscGraphs; convert takes exactly one");
  }
  return std::move(f.graphs[0].graph);
}

}  // namespace af::inputs
