// afc inspect on AutoFuse DFX dumps (AUTOFUSE_DFX_FLAGS folders or one ascgraph_*.txt): graphs ×
// stages with node and axis counts, the ge_onnx file of each dump call, the py_code scripts.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/dfx_dump.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"
#include "inspect.h"

namespace af::inputs {
namespace {

using nlohmann::json;
namespace dfx = importers::dfx;

std::string TypeList(const ir::Graph& g) {
  std::map<std::string, int> types;
  for (const auto& n : g.nodes)
    ++types[n.type];
  std::string s;
  for (const auto& [t, c] : types)
    s += (s.empty() ? "" : ", ") + t + (c > 1 ? " x" + std::to_string(c) : "");
  return s;
}

}  // namespace

int InspectDfxDump(const Probe& probe, bool as_json) {
  const InspectOptions opts{probe.path(), as_json};
  const dfx::DfxDump d = dfx::DiscoverDfxDump(opts.input);
  json graphs = json::array();
  std::size_t stages = 0;
  std::size_t onnx = 0;
  std::vector<std::string> errors;
  for (const auto& g : d.graphs) {
    json sj = json::array();
    for (const auto& st : g.stages) {
      ++stages;
      const dfx::AscGraphText t = dfx::LoadAscGraphTextFile(st.ascgraph);
      json s{{"seq", st.seq},
             {"stage", st.stage},
             {"graph_id", st.graph_id},
             {"file", st.ascgraph.string()},
             {"subgraph", st.subgraph},
             {"form", t.three_views ? "three views" : "legacy DebugStr"},
             {"type", t.graph.type == ir::GraphType::kHint ? "hint" : "impl"},
             {"nodes", t.graph.nodes.size()},
             {"axes", t.graph.axes.size()},
             {"size_vars", t.graph.size_vars.size()},
             {"op_types", TypeList(t.graph)},
             {"skipped_lines", t.skipped_lines}};
      if (!st.ge_onnx.empty()) {
        ++onnx;
        const auto m = importers::ge::LoadGeOnnxFile(st.ge_onnx);
        s["ge_onnx"] = st.ge_onnx.string();
        s["ge_onnx_nodes"] = m.graphs.empty() ? 0 : m.graphs[0].nodes.size();
      }
      // Subgraph dumps print only Data/Output tensors, so they are not complete graphs.
      if (!st.subgraph) {
        json dj = json::array();
        for (const auto& diag : ir::Validate(t.graph)) {
          if (diag.severity != ir::Diagnostic::Severity::kError) continue;
          dj.push_back(diag.message);
          errors.push_back(t.NodeLoc(diag.node) + ": invalid graph '" + t.name +
                           "': " + diag.message);
        }
        s["diagnostics"] = dj;
      }
      sj.push_back(s);
    }
    graphs.push_back({{"folder", g.folder}, {"name", g.name}, {"stages", sj}});
  }
  json py = json::array();
  for (const auto& p : d.py_code) {
    json pj{{"file", p.string()}};
    try {
      const auto a = importers::inductor::LoadAscGraphPyFile(p);
      std::size_t nodes = 0;
      for (const auto& g : a.graphs)
        nodes += g.nodes.size();
      pj["graphs"] = a.graphs.size();
      pj["nodes"] = nodes;
    } catch (const InputError& e) {
      pj["error"] = e.what();  // the script is a side file: reported, not fatal
    }
    py.push_back(pj);
  }
  json unpaired = json::array();
  for (const auto& p : d.ge_onnx_unpaired)
    unpaired.push_back(p.string());
  if (opts.json) {
    std::cout << json{{"input", opts.input},
                      {"format", "AutoFuse DFX dump"},
                      {"folders", d.folders},
                      {"graphs", graphs.size()},
                      {"stages", stages},
                      {"ge_onnx", onnx + d.ge_onnx_unpaired.size()},
                      {"graph_list", graphs},
                      {"py_code", py},
                      {"ge_onnx_unpaired", unpaired}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << opts.input << ": AutoFuse DFX dump, " << d.folders << " folder(s), "
              << graphs.size() << " graph(s), " << stages << " stage(s), "
              << onnx + d.ge_onnx_unpaired.size() << " ge_onnx file(s), " << d.py_code.size()
              << " py_code file(s)\n";
    for (const auto& g : graphs) {
      const std::string folder = g["folder"];
      std::cout << "graph " << g["name"].get<std::string>()
                << (folder == "." ? "" : " (in " + folder + ")") << "\n";
      for (const auto& s : g["stages"]) {
        char seq[32];
        std::snprintf(seq, sizeof seq, "%05llu",
                      static_cast<unsigned long long>(s["seq"].get<std::uint64_t>()));
        std::cout << "  " << seq << " " << s["stage"].get<std::string>() << ": "
                  << (s["subgraph"].get<bool>() ? "subgraph" : s["type"].get<std::string>()) << ", "
                  << s["nodes"] << " node(s), " << s["axes"] << " axis/axes";
        if (s.contains("ge_onnx_nodes"))
          std::cout << ", ge_onnx " << s["ge_onnx_nodes"] << " node(s)";
        if (s.contains("diagnostics") && !s["diagnostics"].empty())
          std::cout << ", INVALID: " << s["diagnostics"][0].get<std::string>();
        std::cout << "\n    " << s["op_types"].get<std::string>() << "\n";
      }
    }
    for (const auto& p : py) {
      std::cout << "py_code " << p["file"].get<std::string>() << ": ";
      if (p.contains("error")) {
        std::cout << "not read (" << p["error"].get<std::string>() << ")\n";
      } else {
        std::cout << p["graphs"] << " graph(s), " << p["nodes"] << " node(s)\n";
      }
    }
    for (const auto& p : d.ge_onnx_unpaired)
      std::cout << "ge_onnx " << p.string() << ": no ascgraph file of the same dump call\n";
  }
  for (const auto& e : errors)
    std::cerr << "afc: " << e << "\n";
  return errors.empty() ? 0 : 2;
}

}  // namespace af::inputs
