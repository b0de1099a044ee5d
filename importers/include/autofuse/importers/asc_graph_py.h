// inductor_npu_ext's `autofused_*/asc_graph.py` (the AscIR Python program it writes per fused
// kernel) read without running it: hint graphs (`ascir.HintGraph`) with their sizes, axes and
// nodes (`ascir.ops.<Type>('<graph>/<name>', <graph>)`, inputs `x/x1/x2 = other.y`, attributes
// `attr.sched.axis`, `attr.ir_attr.*`, `y.axis/size/strides/dtype/offset`), fused graphs
// (`ascir.FusedGraph`) with their AscBackend nodes, and the `'''…'''` hint block holding the
// Inductor node dumps. Both the current single-graph layout and the older one with several
// `# ----graphN----` sections are read, and a hint graph converts to our IR.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::importers::inductor {

struct AscPyNode {
  std::string var;   // Python variable (load1)
  std::string name;  // node name as given ('graph_hint/load1' → "load1")
  std::string type;  // Load, Add, AscBackend, ...
  int line = 0;
  std::vector<std::pair<std::string, std::string>> inputs;  // x1 -> "load.y" / "graph0.y[0]"
  std::vector<std::pair<std::string, std::string>> attrs;   // "y.strides" -> "[1024, 1]"
  const std::string* Attr(std::string_view path) const;
};

struct AscPyGraph {
  std::string var;   // graph_hint, autofused_add_sum_<md5>
  std::string name;  // as given to HintGraph / FusedGraph
  bool fused = false;
  int line = 0;
  std::vector<std::pair<std::string, std::string>> axes;  // a0 -> "32"
  std::vector<std::string> axis_vars;  // the Python variable of each axis (a0, p0_1)
  std::vector<std::string> sizes;      // ks0
  std::vector<AscPyNode> nodes;
};

struct AscGraphPy {
  std::string file;
  std::vector<AscPyGraph> graphs;  // hint graphs and fused graphs, in file order
  std::string hint_block;          // the '''…''' docstring (Inductor node dumps)
  int CountGraphs(bool fused) const;
};

// A hint graph of the file as our IR (`ir::Graph`), or why it cannot be: sizes, axes, nodes with
// their inputs, `attr.sched.axis`, `attr.ir_attr.*` (index, offset, value) and `y.*` views; Data
// and Output take the view of the Load reading them / the node they output; dtypes not written
// follow the first input. The graph must pass ir::Validate.
struct AscPyHint {
  std::optional<ir::Graph> graph;
  std::string reason;
};
AscPyHint ToHintGraph(const AscPyGraph& g);

bool LooksLikeAscGraphPy(std::string_view text);
// Throws InputError (file:line) on a statement it cannot read or a node of an unknown graph.
AscGraphPy ParseAscGraphPy(const std::string& text, const std::string& file);
AscGraphPy LoadAscGraphPyFile(const std::filesystem::path& path);

}  // namespace af::importers::inductor
