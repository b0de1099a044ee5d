// AscGraphDef protobuf text, the form AutoFuse serialises (AscGraphUtils::SerializeToReadable)
// and embeds in GE graphs as the "ascgraph" string attribute, converted to and from our Graph.
//
// Schema drift is handled on purpose: older writers put `align: 1` (an integer) in AxisDef where
// the current schema has a string expression. The reader tries the current schema first and, when
// that fails, the legacy one; the graph notes which one it used.
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::proto {
class AscGraphDef;
class GraphDef;
}  // namespace af::proto

namespace af::ir {

enum class AscSchema { kCurrent, kLegacyIntAlign };

struct LoadedGraph {
  Graph graph;
  AscSchema schema = AscSchema::kCurrent;
  std::string origin;  // where it came from: "file.txt" or "file.txt (op 'X', attribute ascgraph)"
  std::vector<int> node_lines;  // 1-based line of each node in its text (0 = unknown)
  // "origin:line" for node i, for diagnostics.
  std::string NodeLoc(int node) const;
};

// Conversions between the protobuf message and the IR. FromProto throws af::InputError (with
// `file` and no line) on content the IR cannot hold (unknown input node, bad expression ...).
Graph FromProto(const proto::AscGraphDef& def, const std::string& file = "");
void ToProto(const Graph& g, proto::AscGraphDef* def);

// Parses AscGraphDef text. Errors carry file, line and column (for embedded graphs, `line_base`
// and `file` point at the enclosing file).
LoadedGraph ParseAscGraphText(const std::string& text, const std::string& file = "");
std::string WriteAscGraphText(const Graph& g);

// What kind of protobuf text a file holds, judged by its first field name.
enum class PbtxtKind { kAscGraphDef, kGeGraphDef, kGeModelDef, kOnnxModel, kUnknown };
PbtxtKind SniffPbtxt(const std::string& text);

// A GE graph (ModelDef or bare GraphDef text) with the AscGraphs found in its nodes' "ascgraph"
// attributes (AscBackend / FusedAscBackend / AscGraph nodes), in graph order.
struct GeOpSummary {
  std::string name;
  std::string type;
  std::vector<std::string> inputs;
};
struct GeGraphSummary {
  std::string name;
  std::vector<GeOpSummary> ops;
};
struct GeFile {
  std::vector<GeGraphSummary> graphs;
  std::vector<LoadedGraph> asc_graphs;
};
GeFile ParseGeText(const std::string& text, const std::string& file = "");

}  // namespace af::ir
