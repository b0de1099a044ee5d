// `afc inspect`: what an input holds, per format (the input registry calls these; inspect.h).
#include "inspect.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/dfx_dump.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/importers/npu_ext_log.h"
#include "autofuse/importers/output_code.h"
#include "autofuse/inputs/grouping_summary.h"
#include "autofuse/ir/load.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/validate.h"
#include "autofuse/model/graph.h"
#include "autofuse/support/error.h"

namespace af::inputs {
namespace {

using nlohmann::json;

std::string ComputeOf(const ir::Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op != nullptr ? std::string(ir::ComputeTypeName(op->compute)) : "unknown";
}

json GraphJson(const ir::LoadedGraph& lg, const std::vector<ir::Diagnostic>& diags) {
  const ir::Graph& g = lg.graph;
  json j;
  j["name"] = g.name;
  j["origin"] = lg.origin;
  j["type"] = g.type == ir::GraphType::kHint ? "hint" : "impl";
  j["schema"] = lg.schema == ir::AscSchema::kCurrent ? "current" : "legacy-int-align";
  j["tiling_key"] = g.tiling_key;
  json syms = json::array();
  for (const auto& v : g.size_vars) {
    json s{{"name", v.name}};
    if (v.const_value) s["value"] = *v.const_value;
    syms.push_back(s);
  }
  j["symbols"] = syms;
  json axes = json::array();
  for (const auto& a : g.axes) {
    axes.push_back({{"id", a.id},
                    {"name", a.name},
                    {"type", ir::AxisTypeName(a.type)},
                    {"size", a.size.ToString()}});
  }
  j["axes"] = axes;
  json nodes = json::array();
  std::map<std::string, int> by_compute;
  for (const auto& n : g.nodes) {
    const std::string ct = ComputeOf(n);
    ++by_compute[ct];
    nodes.push_back({{"name", n.name}, {"type", n.type}, {"compute_type", ct}});
  }
  j["nodes"] = nodes;
  j["compute_types"] = by_compute;
  json dj = json::array();
  for (const auto& d : diags) {
    dj.push_back(
        {{"severity", d.severity == ir::Diagnostic::Severity::kError ? "error" : "warning"},
         {"message", d.message}});
  }
  j["diagnostics"] = dj;
  return j;
}

void PrintGraph(const ir::LoadedGraph& lg, const std::vector<ir::Diagnostic>& diags) {
  const ir::Graph& g = lg.graph;
  std::cout << "graph " << g.name << " (" << (g.type == ir::GraphType::kHint ? "hint" : "impl")
            << " graph";
  if (lg.schema == ir::AscSchema::kLegacyIntAlign) std::cout << ", legacy integer align";
  std::cout << ")\n";
  std::cout << "  symbols: ";
  if (g.size_vars.empty()) std::cout << "(none)";
  for (std::size_t i = 0; i < g.size_vars.size(); ++i) {
    std::cout << (i != 0u ? ", " : "") << g.size_vars[i].name;
    if (g.size_vars[i].const_value) std::cout << "=" << *g.size_vars[i].const_value;
  }
  std::cout << "\n  axes:";
  if (g.axes.empty()) std::cout << " (none)";
  std::cout << "\n";
  for (const auto& a : g.axes) {
    std::cout << "    " << a.name << "(" << a.id << ") " << ir::AxisTypeName(a.type) << " size "
              << a.size.ToString() << "\n";
  }
  std::cout << "  nodes: " << g.nodes.size() << "\n";
  std::map<std::string, std::map<std::string, int>> groups;
  for (const auto& n : g.nodes)
    ++groups[ComputeOf(n)][n.type];
  for (const auto& [ct, types] : groups) {
    int total = 0;
    std::string list;
    for (const auto& [t, c] : types) {
      total += c;
      list += (list.empty() ? "" : ", ") + t + (c > 1 ? " x" + std::to_string(c) : "");
    }
    std::cout << "    " << ct << ": " << total << " (" << list << ")\n";
  }
  if (!diags.empty()) std::cout << ir::FormatDiagnostics(diags);
}

// An aten FX graph (fx_graph_readable.py / _transformed.py / _runnable.py): inputs, symbols, ops by
// name, what type inference made of them, and its diagnostics (warnings: exit 0).
}  // namespace

int InspectFxGraph(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const std::string& text = probe.text();
  const model::Graph g = importers::ParseFxGraph(text, opts.input);
  std::map<std::string, int> ops;
  for (const auto& n : g.nodes)
    ++ops[n.op.ToString()];
  if (opts.json) {
    json j;
    j["input"] = opts.input;
    j["format"] = "aten FX graph";
    j["name"] = g.name;
    j["torch_version"] = g.torch_version;
    j["symbols"] = g.symbols;
    json inputs = json::array();
    for (int id : g.inputs)
      inputs.push_back({{"name", g.value(id).name}, {"type", g.value(id).type.ToString()}});
    j["inputs"] = inputs;
    j["ops"] = g.CountNodes(model::NodeKind::kOp);
    j["python_nodes"] = g.CountNodes(model::NodeKind::kPython);
    j["op_counts"] = ops;
    j["outputs"] = g.outputs.size();
    json diags = json::array();
    for (const auto& d : g.diagnostics) {
      diags.push_back({{"kind", model::DiagnosticKindName(d.kind)}, {"message", d.message}});
    }
    j["diagnostics"] = diags;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << opts.input << ": aten FX graph " << g.name;
  if (!g.torch_version.empty()) std::cout << " (torch " << g.torch_version << ")";
  std::cout << "\n  symbols: " << (g.symbols.empty() ? "(none)" : "");
  for (std::size_t i = 0; i < g.symbols.size(); ++i)
    std::cout << (i != 0 ? ", " : "") << g.symbols[i];
  std::cout << "\n  inputs: " << g.inputs.size() << "\n";
  for (int id : g.inputs)
    std::cout << "    " << g.value(id).name << " : " << g.value(id).type.ToString() << "\n";
  std::cout << "  nodes: " << g.CountNodes(model::NodeKind::kOp) << " ops, "
            << g.CountNodes(model::NodeKind::kPython) << " size arithmetic, " << g.outputs.size()
            << " outputs\n";
  for (const auto& [op, c] : ops)
    std::cout << "    " << op << (c > 1 ? " x" + std::to_string(c) : "") << "\n";
  for (const auto& d : g.diagnostics) {
    std::cout << "warning: " << model::DiagnosticKindName(d.kind) << ": " << d.message << "\n";
  }
  return 0;
}

namespace {

// ---- Inductor dumps (torch_compile_debug) ----

namespace ind = importers::inductor;

void CountIndex(const ind::IndexExpr& e, int* parsed, int* total) {
  ++*total;
  *parsed += e.expr.has_value() ? 1 : 0;
}

// Counts of one ir_*_fusion file (or log text with node dumps).
json IrSummary(const ind::IrFile& f) {
  json j;
  j["file"] = f.file;
  j["stage"] = f.stage;
  j["torch_forms"] = f.version_guess;
  j["nodes"] = f.nodes.size();
  std::map<std::string, int> kinds;
  for (const auto& n : f.nodes)
    ++kinds[std::string(ind::NodeKindName(n.kind))];
  j["node_kinds"] = kinds;
  j["fused_groups"] = f.CountKind(ind::NodeKind::kFused);
  int leaves = 0;
  int reductions = 0;
  int pointwise = 0;
  int statements = 0;
  int parsed = 0;
  int exprs = 0;
  int skipped = 0;
  int subblocks = 0;
  std::map<std::string, int> ops;
  json groups = json::array();
  for (const auto& n : f.nodes) {
    if (n.kind == ind::NodeKind::kFused) {
      json g{{"name", n.name}, {"class", n.node_class}};
      g["members"] = n.snode_names;
      groups.push_back(g);
    }
    for (const auto* l : n.Leaves()) {
      ++leaves;
      skipped += static_cast<int>(l->skipped_keys.size());
      if (l->kind == ind::NodeKind::kScheduler) ++(l->IsReduction() ? reductions : pointwise);
      for (const auto* deps : {&l->writes, &l->unmet_dependencies, &l->met_dependencies}) {
        for (const auto& d : *deps) {
          if (d.kind == ind::Dep::Kind::kMemory) CountIndex(d.index, &parsed, &exprs);
        }
      }
      if (!l->body) continue;
      for (const auto& [v, e] : l->body->indexing)
        CountIndex(e, &parsed, &exprs);
      subblocks += std::max(0, static_cast<int>(l->body->blocks.size()) - 1);
      for (const auto& b : l->body->blocks) {
        for (const auto& op : b.ops) {
          ++statements;
          if (op.kind == ind::BodyOp::Kind::kOps) ++ops[op.op];
        }
      }
    }
  }
  j["scheduler_nodes"] = leaves;
  j["reductions"] = reductions;
  j["pointwise"] = pointwise;
  j["loop_body_statements"] = statements;
  j["masked_subblocks"] = subblocks;
  j["index_exprs"] = exprs;
  j["index_exprs_parsed"] = parsed;
  j["skipped_keys"] = skipped;
  j["ops"] = ops;
  j["groups"] = groups;
  if (f.stage != "pre") {
    // Inductor's kernel groups as hint graphs (pointwise subset), or why not.
    json lowered = json::array();
    json refused = json::array();
    for (const auto& h : ind::BuildHintGraphs(f)) {
      if (h.graph) {
        std::map<std::string, int> types;
        for (const auto& n : h.graph->nodes)
          ++types[n.type];
        lowered.push_back({{"group", h.name},
                           {"nodes", h.graph->nodes.size()},
                           {"axes", h.graph->axes.size()},
                           {"node_types", types}});
      } else {
        refused.push_back({{"group", h.name}, {"reason", h.reason}});
      }
    }
    j["hint_graphs"] = lowered;
    j["not_lowered"] = refused;
  }
  return j;
}

json OutputCodeSummary(const ind::OutputCode& oc) {
  json j;
  j["file"] = oc.file;
  j["aot_id"] = oc.aot_id;
  j["kernels"] = oc.kernels.size();
  json list = json::array();
  for (const auto& k : oc.kernels) {
    json kj{{"name", k.name}, {"backend", k.backend}, {"line", k.line}};
    kj["source_nodes"] = k.source_nodes;
    kj["aten_ops"] = k.aten_ops;
    if (!k.artifacts.empty()) {
      json a = json::object();
      for (const auto& [key, v] : k.artifacts)
        a[key] = v.size();
      kj["artifact_bytes"] = a;
    }
    list.push_back(kj);
  }
  j["kernel_list"] = list;
  j["kernel_launches"] = oc.kernel_launches;
  j["extern_calls"] = oc.extern_calls;
  return j;
}

json FxSummary(const model::Graph& g, const std::string& file) {
  return json{{"file", file},
              {"torch_version", g.torch_version},
              {"inputs", g.inputs.size()},
              {"ops", g.CountNodes(model::NodeKind::kOp)},
              {"python_nodes", g.CountNodes(model::NodeKind::kPython)},
              {"outputs", g.outputs.size()},
              {"diagnostics", g.diagnostics.size()}};
}

void PrintIrSummary(const json& j, const std::string& indent) {
  std::cout << indent << j.value("name", j["file"].get<std::string>()) << ": Inductor IR";
  if (!j["stage"].get<std::string>().empty())
    std::cout << " (" << j["stage"].get<std::string>() << "-fusion)";
  std::cout << ", torch " << j["torch_forms"].get<std::string>() << " forms\n";
  std::cout << indent << "  nodes: " << j["nodes"] << " (";
  bool first = true;
  for (const auto& [k, v] : j["node_kinds"].items()) {
    std::cout << (first ? "" : ", ") << k << " " << v;
    first = false;
  }
  std::cout << "), fused groups: " << j["fused_groups"] << "\n";
  std::cout << indent << "  leaf nodes: " << j["scheduler_nodes"] << " (pointwise "
            << j["pointwise"] << ", reductions " << j["reductions"]
            << "), loop-body statements: " << j["loop_body_statements"]
            << ", masked sub-blocks: " << j["masked_subblocks"] << "\n";
  std::cout << indent << "  index expressions: " << j["index_exprs"] << " ("
            << j["index_exprs_parsed"] << " symbolic, the rest kept as text)";
  if (j["skipped_keys"].get<int>() != 0) std::cout << ", skipped keys: " << j["skipped_keys"];
  std::cout << "\n";
  for (const auto& g : j["groups"]) {
    std::cout << indent << "  group " << g["name"].get<std::string>() << ": " << g["members"].size()
              << " nodes\n";
  }
  if (!j.contains("hint_graphs")) return;
  std::cout << indent << "  hint graphs: " << j["hint_graphs"].size() << " lowered, "
            << j["not_lowered"].size() << " not lowered\n";
  for (const auto& h : j["hint_graphs"]) {
    std::cout << indent << "    " << h["group"].get<std::string>() << ": " << h["nodes"]
              << " AscIR nodes over " << h["axes"] << " axes\n";
  }
  for (const auto& h : j["not_lowered"]) {
    std::cout << indent << "    " << h["group"].get<std::string>()
              << ": not lowered: " << h["reason"].get<std::string>() << "\n";
  }
}

void PrintOutputCode(const json& j, const std::string& indent) {
  std::cout << indent << j.value("name", j["file"].get<std::string>()) << ": output code, "
            << j["kernels"] << " kernel(s), " << j["kernel_launches"] << " launch(es)";
  int ext = 0;
  for (const auto& [k, v] : j["extern_calls"].items())
    ext += v.get<int>();
  std::cout << ", " << ext << " extern call(s)\n";
  for (const auto& k : j["kernel_list"]) {
    std::cout << indent << "  " << k["name"].get<std::string>() << " ["
              << k["backend"].get<std::string>() << "]";
    if (!k["aten_ops"].empty()) {
      std::cout << " aten:";
      for (const auto& a : k["aten_ops"])
        std::cout << " " << a.get<std::string>();
    }
    if (!k["source_nodes"].empty()) {
      std::cout << " nodes:";
      for (const auto& a : k["source_nodes"])
        std::cout << " " << a.get<std::string>();
    }
    if (k.contains("artifact_bytes")) {
      std::cout << " artifacts:";
      for (const auto& [key, v] : k["artifact_bytes"].items())
        std::cout << " " << key << "(" << v << " B)";
    }
    std::cout << "\n";
  }
}

json LoweringJson(const std::string& text) {
  json j = json::array();
  for (const auto& r : ind::ParseLoweringSummary(text)) {
    j.push_back({{"fallback", r.fallback},
                 {"count", r.count},
                 {"op", r.op},
                 {"reason", r.reason},
                 {"line", r.line}});
  }
  return j;
}

void PrintLowering(const json& j, const std::string& indent) {
  if (j.empty()) return;
  int lowered = 0;
  int fallback = 0;
  for (const auto& r : j)
    (r["fallback"].get<bool>() ? fallback : lowered) += 1;
  std::cout << indent << "  inductor_npu_ext summary: " << lowered << " lowered, " << fallback
            << " fallback op(s)\n";
  for (const auto& r : j) {
    if (!r["fallback"].get<bool>()) continue;
    std::cout << indent << "    fallback " << r["op"].get<std::string>() << " x" << r["count"]
              << ": " << r["reason"].get<std::string>() << "\n";
  }
}

json AscGraphPyJson(const ind::AscGraphPy& a) {
  json graphs = json::array();
  for (const auto& g : a.graphs) {
    std::map<std::string, int> types;
    for (const auto& n : g.nodes)
      ++types[n.type];
    json axes = json::array();
    for (const auto& [n, sz] : g.axes)
      axes.push_back(n + "=" + sz);
    std::string as_ir;
    if (!g.fused) {
      const ind::AscPyHint h = ind::ToHintGraph(g);
      as_ir = h.graph ? "valid hint graph" : "not converted: " + h.reason;
    }
    graphs.push_back({{"name", g.name},
                      {"ir", as_ir},
                      {"kind", g.fused ? "fused" : "hint"},
                      {"sizes", g.sizes},
                      {"axes", axes},
                      {"nodes", g.nodes.size()},
                      {"node_types", types}});
  }
  int hint_nodes = 0;
  try {
    if (!a.hint_block.empty()) {
      hint_nodes = static_cast<int>(ind::ParseInductorIr(a.hint_block, a.file).nodes.size());
    }
  } catch (const af::InputError&) {
    hint_nodes = -1;  // the docstring is informative only
  }
  return json{{"file", a.file},
              {"hint_graphs", a.CountGraphs(false)},
              {"fused_graphs", a.CountGraphs(true)},
              {"hint_block_nodes", hint_nodes},
              {"graphs", graphs}};
}

void PrintAscGraphPy(const json& j, const std::string& indent) {
  std::cout << indent << j.value("name", j["file"].get<std::string>())
            << ": inductor_npu_ext asc_graph.py, " << j["hint_graphs"] << " hint graph(s), "
            << j["fused_graphs"] << " fused graph(s)";
  if (j["hint_block_nodes"].get<int>() > 0)
    std::cout << ", hint block with " << j["hint_block_nodes"] << " Inductor node(s)";
  std::cout << "\n";
  for (const auto& g : j["graphs"]) {
    std::cout << indent << "  " << g["kind"].get<std::string>() << " graph "
              << g["name"].get<std::string>() << ": " << g["nodes"] << " node(s)";
    if (!g["axes"].empty()) {
      std::cout << ", axes";
      for (const auto& a : g["axes"])
        std::cout << " " << a.get<std::string>();
    }
    if (!g["ir"].get<std::string>().empty()) std::cout << "; " << g["ir"].get<std::string>();
    std::cout << "\n" << indent << "   ";
    for (const auto& [k, v] : g["node_types"].items())
      std::cout << " " << k << (v.get<int>() > 1 ? " x" + std::to_string(v.get<int>()) : "");
    std::cout << "\n";
  }
}

json ModelJson(const ind::ModelDir& m, json* totals) {
  json j;
  j["dir"] = m.dir.string();
  j["name"] = m.name;
  j["model"] = m.model;
  j["graph"] = m.graph;
  j["torch_version"] = m.torch_version;
  json files = json::array();
  json irs = json::array();
  json codes = json::array();
  json fx = json::array();
  json ascs = json::array();
  json logs = json::array();
  for (const auto& f : m.files) {
    files.push_back({{"path", f.path.string()}, {"kind", ind::DumpFileKindName(f.kind)}});
    switch (f.kind) {
      case ind::DumpFileKind::kIrPreFusion:
      case ind::DumpFileKind::kIrPostFusion:
      case ind::DumpFileKind::kIrText: {
        json s = IrSummary(ind::LoadInductorIrFile(f.path));
        s["name"] = f.path.filename().string();
        if (f.kind == ind::DumpFileKind::kIrText)
          s["lowering"] = LoweringJson(ir::ReadTextFile(f.path));
        (*totals)["ir_files"] = (*totals)["ir_files"].get<int>() + 1;
        (*totals)["ir_nodes"] = (*totals)["ir_nodes"].get<int>() + s["nodes"].get<int>();
        if (s["stage"] == "post" || f.kind == ind::DumpFileKind::kIrText) {
          (*totals)["fused_groups"] =
              (*totals)["fused_groups"].get<int>() + s["fused_groups"].get<int>();
        }
        irs.push_back(s);
        break;
      }
      case ind::DumpFileKind::kOutputCode: {
        json s = OutputCodeSummary(ind::LoadOutputCodeFile(f.path));
        s["name"] = f.path.filename().string();
        (*totals)["kernels"] = (*totals)["kernels"].get<int>() + s["kernels"].get<int>();
        codes.push_back(s);
        break;
      }
      case ind::DumpFileKind::kFxReadable:
      case ind::DumpFileKind::kFxTransformed:
      case ind::DumpFileKind::kFxRunnable:
      case ind::DumpFileKind::kFxOther: {
        const json s = FxSummary(importers::LoadFxGraphFile(f.path), f.path.string());
        (*totals)["fx_graphs"] = (*totals)["fx_graphs"].get<int>() + 1;
        (*totals)["fx_ops"] = (*totals)["fx_ops"].get<int>() + s["ops"].get<int>();
        fx.push_back(s);
        break;
      }
      case ind::DumpFileKind::kAscGraphPy: {
        json s = AscGraphPyJson(ind::LoadAscGraphPyFile(f.path));
        s["name"] = std::filesystem::relative(f.path, m.dir).string();
        (*totals)["asc_hint_graphs"] =
            (*totals)["asc_hint_graphs"].get<int>() + s["hint_graphs"].get<int>();
        ascs.push_back(s);
        break;
      }
      case ind::DumpFileKind::kNpuExtLog: {
        logs.push_back({{"file", f.path.string()},
                        {"name", f.path.filename().string()},
                        {"lowering", LoweringJson(ir::ReadTextFile(f.path))}});
        break;
      }
    }
  }
  j["files"] = files;
  j["ir"] = irs;
  j["output_code"] = codes;
  j["fx_graphs"] = fx;
  j["asc_graph_py"] = ascs;
  j["npu_ext_logs"] = logs;
  json af = json::array();
  for (const auto& d : m.autofused_dirs)
    af.push_back(d.string());
  j["autofused_dirs"] = af;
  return j;
}

}  // namespace

int InspectDebugDump(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const ind::DebugTree t = ind::DiscoverDebugDump(opts.input);
  json totals{{"models", t.models.size()},
              {"ir_files", 0},
              {"ir_nodes", 0},
              {"fused_groups", 0},
              {"kernels", 0},
              {"fx_graphs", 0},
              {"fx_ops", 0},
              {"asc_hint_graphs", 0}};
  json models = json::array();
  for (const auto& m : t.models) {
    models.push_back(ModelJson(m, &totals));
    // A model folder given alone: Inductor's grouping beside our front end's.
    if (t.models.size() == 1 && t.layout == "model folder")
      models.back()["framework_groupings"] = FolderGroupings(m.dir.string());
  }
  if (opts.json) {
    json j;
    j["input"] = opts.input;
    j["format"] = "torch_compile_debug";
    j["layout"] = t.layout;
    j["torch_version"] = t.torch_version;
    j["version_source"] = t.version_source;
    j["totals"] = totals;
    j["models"] = models;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << opts.input << ": torch_compile_debug (" << t.layout << "), ";
  std::cout << "torch " << (t.torch_version.empty() ? "unknown" : t.torch_version);
  if (!t.version_source.empty()) std::cout << " (" << t.version_source << ")";
  std::cout << "\n  " << totals["models"] << " folder(s), " << totals["ir_files"]
            << " IR file(s) with " << totals["ir_nodes"] << " node(s), " << totals["fused_groups"]
            << " fused group(s), " << totals["kernels"] << " kernel(s), " << totals["fx_graphs"]
            << " FX graph(s) with " << totals["fx_ops"] << " op(s), " << totals["asc_hint_graphs"]
            << " asc_graph.py hint graph(s)\n";
  for (const auto& m : models) {
    std::cout << "folder " << m["dir"].get<std::string>();
    if (!m["graph"].get<std::string>().empty())
      std::cout << " (" << m["graph"].get<std::string>() << ")";
    if (!m["torch_version"].get<std::string>().empty())
      std::cout << ", torch " << m["torch_version"].get<std::string>();
    std::cout << ": " << m["files"].size() << " file(s)\n";
    for (const auto& f : m["fx_graphs"]) {
      std::cout << "  " << std::filesystem::path(f["file"].get<std::string>()).filename().string()
                << ": FX graph, " << f["ops"] << " op(s), " << f["inputs"] << " input(s)\n";
    }
    for (const auto& s : m["ir"]) {
      PrintIrSummary(s, "  ");
      if (s.contains("lowering")) PrintLowering(s["lowering"], "  ");
    }
    for (const auto& s : m["asc_graph_py"])
      PrintAscGraphPy(s, "  ");
    for (const auto& s : m["npu_ext_logs"]) {
      std::cout << "  " << s["name"].get<std::string>() << ": inductor_npu_ext log\n";
      PrintLowering(s["lowering"], "  ");
    }
    for (const auto& s : m["output_code"])
      PrintOutputCode(s, "  ");
    for (const auto& d : m["autofused_dirs"])
      std::cout << "  inductor_npu_ext kernel folder " << d.get<std::string>() << "\n";
    if (m.contains("framework_groupings")) PrintGroupingSummary(m["framework_groupings"], "  ");
  }
  return 0;
}

int InspectInductorIr(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const std::string& text = probe.text();
  ind::IrFile f = ind::ParseInductorIr(text, opts.input);
  const std::string name = std::filesystem::path(opts.input).filename().string();
  if (f.stage.empty() && name.find("pre_fusion") != std::string::npos) f.stage = "pre";
  if (f.stage.empty() && name.find("post_fusion") != std::string::npos) f.stage = "post";
  json s = IrSummary(f);
  s["lowering"] = LoweringJson(text);
  if (opts.json) {
    s["input"] = opts.input;
    s["format"] = "Inductor IR";
    std::cout << s.dump(2) << "\n";
  } else {
    PrintIrSummary(s, "");
    PrintLowering(s["lowering"], "");
  }
  return 0;
}

int InspectAscGraphPy(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const std::string& text = probe.text();
  json s = AscGraphPyJson(ind::ParseAscGraphPy(text, opts.input));
  if (opts.json) {
    s["input"] = opts.input;
    s["format"] = "inductor_npu_ext asc_graph.py";
    std::cout << s.dump(2) << "\n";
  } else {
    PrintAscGraphPy(s, "");
  }
  return 0;
}

int InspectOutputCode(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const std::string& text = probe.text();
  json s = OutputCodeSummary(ind::ParseOutputCode(text, opts.input));
  if (opts.json) {
    s["input"] = opts.input;
    s["format"] = "Inductor output code";
    std::cout << s.dump(2) << "\n";
  } else {
    PrintOutputCode(s, "");
  }
  return 0;
}

namespace {

// ---- GE graphs as model graphs ----

// The op list of a ge_proto graph as a model graph (GE op classes, edges from "name:index").
void GeModelGraphJson(const ir::GeGraphSummary& g, const std::string& file, json& out) {
  namespace ge = importers::ge;
  std::vector<ge::GeOpList> ops;
  for (const auto& op : g.ops)
    ops.push_back({op.name, op.type, op.inputs});
  const ge::GeOnnxGraph gg = ge::GeGraphFromOps(g.name, ops);
  std::map<std::string, int> classes;
  for (const auto& n : gg.nodes)
    ++classes[std::string(ge::GeOpClassName(ge::ClassifyGeOp(n.type)))];
  const model::Graph mg = ge::GeOnnxToModelGraph(gg, file);
  out["op_classes"] = classes;
  out["model_graph"] = {{"inputs", mg.inputs.size()},
                        {"constants", mg.attrs.size()},
                        {"ops", mg.CountNodes(model::NodeKind::kOp)},
                        {"outputs", mg.outputs.size()}};
}

// ---- GE ONNX text (ge_onnx_*.pbtxt) ----

}  // namespace

int InspectGeOnnx(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  namespace ge = importers::ge;
  const ge::GeOnnxModel m = ge::LoadGeOnnxFile(opts.input);
  json graphs = json::array();
  std::size_t nodes = 0;
  for (const auto& g : m.graphs) {
    std::map<std::string, int> types;
    std::map<std::string, int> classes;
    for (const auto& n : g.nodes) {
      ++types[n.type];
      ++classes[std::string(ge::GeOpClassName(ge::ClassifyGeOp(n.type)))];
    }
    nodes += g.nodes.size();
    const model::Graph mg = ge::GeOnnxToModelGraph(g, opts.input);
    graphs.push_back({{"name", g.name},
                      {"nodes", g.nodes.size()},
                      {"op_types", types},
                      {"op_classes", classes},
                      {"model_graph",
                       {{"inputs", mg.inputs.size()},
                        {"constants", mg.attrs.size()},
                        {"ops", mg.CountNodes(model::NodeKind::kOp)},
                        {"outputs", mg.outputs.size()},
                        {"diagnostics", mg.diagnostics.size()}}}});
  }
  json j{{"input", opts.input},
         {"format", "GE ONNX model text"},
         {"ir_version", m.ir_version},
         {"producer", m.producer},
         {"graphs", graphs.size()},
         {"nodes", nodes},
         {"data_edges", m.DataEdges()},
         {"control_edges", m.ControlEdges()},
         {"dangling_edges", m.DanglingEdges()},
         {"graph_list", graphs}};
  if (opts.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << opts.input << ": GE ONNX model text (producer " << m.producer << ", ir_version "
            << m.ir_version << "), " << graphs.size() << " graph(s), " << nodes << " node(s), "
            << m.DataEdges() << " data edge(s), " << m.ControlEdges() << " control edge(s)\n";
  for (const auto& g : graphs) {
    std::cout << "graph " << g["name"].get<std::string>() << ": " << g["nodes"] << " node(s)";
    for (const auto& [k, v] : g["op_classes"].items())
      std::cout << ", " << k << " " << v;
    std::cout << "\n  model graph: " << g["model_graph"]["inputs"] << " input(s), "
              << g["model_graph"]["constants"] << " constant(s), " << g["model_graph"]["ops"]
              << " op(s), " << g["model_graph"]["outputs"] << " output(s)\n";
    for (const auto& [k, v] : g["op_types"].items())
      std::cout << "    " << k << (v.get<int>() > 1 ? " x" + std::to_string(v.get<int>()) : "")
                << "\n";
  }
  return 0;
}

int InspectAscGraphFile(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  // ge_proto dumps are streamed op by op (bounded memory), same summary as ir::LoadGraphFile.
  std::optional<ir::LoadedFile> streamed;
  if (probe.is_file() && importers::ge::LooksLikeGeProto(probe.head()))
    streamed = importers::ge::LoadGeProtoFile(opts.input);
  const ir::LoadedFile f = streamed ? std::move(*streamed) : ir::LoadGraphFile(opts.input);
  std::vector<std::vector<ir::Diagnostic>> diags;
  bool bad = false;
  for (const auto& lg : f.graphs) {
    diags.push_back(ir::Validate(lg.graph));
    bad = bad || ir::HasErrors(diags.back());
  }
  if (opts.json) {
    json j;
    j["input"] = f.path;
    j["format"] = ir::FileFormatName(f.format);
    json graphs = json::array();
    for (std::size_t i = 0; i < f.graphs.size(); ++i)
      graphs.push_back(GraphJson(f.graphs[i], diags[i]));
    j["graphs"] = graphs;
    json ge = json::array();
    for (const auto& g : f.ge_graphs) {
      std::map<std::string, int> types;
      for (const auto& op : g.ops)
        ++types[op.type];
      json gj{{"name", g.name}, {"ops", g.ops.size()}, {"op_types", types}};
      GeModelGraphJson(g, f.path, gj);
      ge.push_back(gj);
    }
    j["ge_graphs"] = ge;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << f.path << ": " << ir::FileFormatName(f.format) << ", " << f.graphs.size()
              << " AscGraph(s)\n";
    for (const auto& g : f.ge_graphs) {
      std::cout << "GE graph " << g.name << ": " << g.ops.size() << " ops\n";
      json gj;
      GeModelGraphJson(g, f.path, gj);
      std::cout << "  model graph: " << gj["model_graph"]["inputs"] << " input(s), "
                << gj["model_graph"]["constants"] << " constant(s), " << gj["model_graph"]["ops"]
                << " op(s), " << gj["model_graph"]["outputs"] << " output(s);";
      for (const auto& [k, v] : gj["op_classes"].items())
        std::cout << " " << k << " " << v;
      std::cout << "\n";
      for (const auto& op : g.ops)
        std::cout << "  " << op.name << " : " << op.type << "\n";
    }
    for (std::size_t i = 0; i < f.graphs.size(); ++i)
      PrintGraph(f.graphs[i], diags[i]);
  }
  if (bad) {
    for (std::size_t i = 0; i < f.graphs.size(); ++i) {
      for (const auto& d : diags[i]) {
        if (d.severity != ir::Diagnostic::Severity::kError) continue;
        std::cerr << "afc: " << f.graphs[i].NodeLoc(d.node) << ": invalid graph '"
                  << f.graphs[i].graph.name << "': " << d.message << "\n";
      }
    }
    return 2;
  }
  return 0;
}

}  // namespace af::inputs
