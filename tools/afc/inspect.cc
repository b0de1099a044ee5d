// afc inspect: what an input holds.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/ir/load.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/validate.h"
#include "autofuse/model/graph.h"
#include "commands.h"

namespace af::cli {
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
int InspectFxGraph(const InspectOptions& opts, const std::string& text) {
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

}  // namespace

int RunInspect(const InspectOptions& opts) {
  {
    const std::string text = ir::ReadTextFile(opts.input);
    if (importers::LooksLikeFxGraph(text)) return InspectFxGraph(opts, text);
  }
  const ir::LoadedFile f = ir::LoadGraphFile(opts.input);
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
      ge.push_back({{"name", g.name}, {"ops", g.ops.size()}, {"op_types", types}});
    }
    j["ge_graphs"] = ge;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << f.path << ": " << ir::FileFormatName(f.format) << ", " << f.graphs.size()
              << " AscGraph(s)\n";
    for (const auto& g : f.ge_graphs) {
      std::cout << "GE graph " << g.name << ": " << g.ops.size() << " ops\n";
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

}  // namespace af::cli
