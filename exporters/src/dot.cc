// DOT text of a CompileReport's graphs (see dot.h).
#include "autofuse/exporters/dot.h"

#include <map>
#include <sstream>

#include "autofuse/ir/proto_io.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::exporters {
namespace {

// A DOT double-quoted string: `"` and `\` escaped, line breaks as \n.
std::string Q(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    }
  }
  return out + "\"";
}

void ModelGraph(const report::CompileReport& r, std::ostringstream& o) {
  std::map<std::string, std::vector<const report::ModelNodeReport*>> by_kernel;
  for (const auto& n : r.model_nodes())
    by_kernel[n.kernel()].push_back(&n);
  auto node = [&o](const report::ModelNodeReport& n, const std::string& indent) {
    std::string label = n.name() + "\n" + n.op();
    if (!n.dtype().empty() || !n.shape().empty()) label += "\n" + n.dtype() + n.shape();
    std::string style;
    if (n.op() == "placeholder" || n.op() == "output") {
      style = ", shape=ellipse";
    } else if (!n.fallback_code().empty()) {
      label += "\nfallback: " + n.fallback_code();
      style = ", style=filled, fillcolor=\"#f4cccc\"";
    }
    o << indent << Q("n:" + n.name()) << " [label=" << Q(label) << style << "];\n";
  };
  int cluster = 0;
  for (const auto& [kernel, nodes] : by_kernel) {
    if (kernel.empty()) {
      for (const auto* n : nodes)
        node(*n, "  ");
      continue;
    }
    o << "  subgraph cluster_" << cluster++ << " {\n    label=" << Q(kernel)
      << ";\n    style=filled;\n    fillcolor=\"#e8f0fe\";\n";
    for (const auto* n : nodes)
      node(*n, "    ");
    o << "  }\n";
  }
  for (const auto& n : r.model_nodes()) {
    for (const auto& in : n.inputs())
      o << "  " << Q("n:" + in) << " -> " << Q("n:" + n.name()) << ";\n";
  }
}

// One AscGraph as a cluster; node ids carry the kernel index so kernels never share a node.
void AscCluster(const ir::Graph& g, const std::string& label, int k, std::ostringstream& o) {
  o << "  subgraph cluster_" << k << " {\n    label=" << Q(label) << ";\n";
  auto id = [k](const std::string& name) { return Q("k" + std::to_string(k) + ":" + name); };
  for (const auto& n : g.nodes) {
    std::string text = n.name + "\n" + n.type;
    if (!n.outputs.empty()) text += "\n" + std::string(ir::DTypeName(n.outputs[0].dtype));
    const bool io = n.type == "Data" || n.type == "Output";
    o << "    " << id(n.name) << " [label=" << Q(text) << (io ? ", shape=ellipse" : "") << "];\n";
  }
  for (const auto& n : g.nodes) {
    for (const auto& in : n.inputs) {
      if (in.node < 0 || in.node >= static_cast<int>(g.nodes.size())) continue;
      o << "    " << id(g.nodes[static_cast<std::size_t>(in.node)].name) << " -> " << id(n.name)
        << ";\n";
    }
  }
  o << "  }\n";
}

}  // namespace

std::string ReportDot(const report::CompileReport& r, DotGraph which) {
  std::ostringstream o;
  o << "digraph autofuse {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", "
       "fontsize=10];\n";
  if (which == DotGraph::kModel) {
    if (r.model_nodes_size() == 0) {
      throw InputError({r.input(), 0, 0},
                       "has no model graph (an AscGraph input is kernels already): export "
                       "--graph hint or impl");
    }
    ModelGraph(r, o);
  } else {
    for (int k = 0; k < r.kernels_size(); ++k) {
      const auto& kr = r.kernels(k);
      if (which == DotGraph::kHint) {
        AscCluster(ir::FromProto(kr.hint_graph()), kr.name() + " (hint)", k, o);
        continue;
      }
      const int chosen = kr.has_tiling() ? kr.tiling().chosen_case() : 0;
      if (chosen < 0 || chosen >= kr.cases_size()) continue;  // refused or untiled kernels
      const auto& c = kr.cases(chosen);
      AscCluster(ir::FromProto(c.impl_graph()), kr.name() + " — " + c.name() + " (impl)", k, o);
    }
  }
  o << "}\n";
  return o.str();
}

}  // namespace af::exporters
