// GE's ONNX-text graph dumps (`ge_onnx_*.pbtxt`, ONNX ModelProto in protobuf text form with GE
// conventions): read with protobuf's TextFormat against our own ONNX-subset schema (unknown fields
// skipped, the file streamed), with data and control edges rebuilt from the `name:index` strings,
// tensor descriptions from the `input_desc_*:i` / `output_desc_*:i` attributes, and the
// `subgraph` nodes as further graphs, and Const values (`value_desc_*`, `value_data`).
// `GeOnnxToModelGraph` turns a graph into the front end's model graph (the lowering of
// ge_model.h). Op lists of ge_proto_*.txt dumps convert to the same graph form (GeGraphFromOps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/model/graph.h"

namespace af::importers::ge {

struct GeTensorDesc {
  std::string dtype;                // "DT_FLOAT" as GE writes it; "" when not dumped
  std::vector<std::int64_t> shape;  // -1 unknown dim, [-2] unknown rank
  bool has_shape = false;
  std::string layout;  // "ND", "NCHW", "NC1HWC0" ... as GE writes it; "" when not dumped
};

struct GeEdge {
  std::string src;  // producer node name (may contain ':' and '/')
  int index = 0;    // output index; -1 = control edge
};

struct GeOnnxNode {
  std::string name;
  std::string type;                  // GE op type ("Add"; the "ge:" prefix removed)
  std::vector<GeEdge> inputs;        // data inputs in order (src "" = unconnected), then control
  std::vector<std::string> outputs;  // as written ("self:0", "self:-1")
  std::vector<GeTensorDesc> input_desc;
  std::vector<GeTensorDesc> output_desc;
  std::map<std::string, std::string> attrs;  // scalar attributes as text (i, f, s, ints …)
  int attribute_count = 0;
  // A Const's tensor (`value` attribute): its description, and its bytes when the dump holds
  // them (DUMP_GE_GRAPH=1; raw little-endian elements). Bytes above kMaxConstBytes are dropped
  // (value_dropped) so that a dump's weights never all sit in memory.
  GeTensorDesc value_desc;
  bool has_value = false;
  std::string value_data;
  bool value_dropped = false;
  std::vector<std::string> subgraphs;  // names of the graphs this op calls (ge_proto subgraph_name)
  int DataInputs() const;
  int ControlInputs() const;
};

// Const bytes kept per node (larger weights are dropped, and the Const becomes an input).
inline constexpr std::size_t kMaxConstBytes = std::size_t{16} << 20;

struct GeOnnxGraph {
  std::string name;
  std::vector<GeOnnxNode> nodes;
  const GeOnnxNode* Find(std::string_view name) const;
};

struct GeOnnxModel {
  std::string file;
  std::int64_t ir_version = 0;
  std::string producer;
  std::vector<GeOnnxGraph> graphs;  // [0] the root graph, then the `subgraph` nodes' graphs
  int DataEdges() const;
  int ControlEdges() const;
  int DanglingEdges() const;  // inputs naming a node that is not in its graph
};

// "src:index" → edge (split at the last ':'; "src:-1" is a control edge; "" an unconnected slot).
GeEdge ParseGeEdge(const std::string& s);

// A GE graph given as an op list (name, type, input strings), as the ge_proto_*.txt reader in
// libautofuse/src/ir summarises ModelDef dumps; no tensor descriptions.
struct GeOpList {
  std::string name;
  std::string type;
  std::vector<std::string> inputs;
};
GeOnnxGraph GeGraphFromOps(const std::string& name, const std::vector<GeOpList>& ops);

bool LooksLikeGeOnnx(std::string_view text);
// Throws InputError (file:line:col) on text the schema cannot read.
GeOnnxModel LoadGeOnnxFile(const std::filesystem::path& path);
GeOnnxModel ParseGeOnnx(const std::string& text, const std::string& file);

// How the model graph treats a GE op type.
enum class GeOpClass {
  kInput,   // Data, RefData, Variable, Const, Constant (graph inputs / constants)
  kOutput,  // NetOutput
  kAten,    // mapped to an aten op (elementwise math)
  kVector,  // a vector op kept by its GE name (reductions, softmax, layer norm, data movement)
  kCube,    // MatMul, Conv2D, BatchMatMul ...
  kOther,   // everything else (control flow, HCCL, AICPU ...)
};
GeOpClass ClassifyGeOp(std::string_view type);
std::string_view GeOpClassName(GeOpClass c);

// One graph of the model as a model graph (LowerGeGraph of ge_model.h without its refusals and
// constants): Data/Const nodes become inputs/constants, NetOutput the outputs, GE ops the aten
// ops of their meaning or opaque `ge.<Type>` nodes; output types come from the output
// descriptions (dtype and shape) where GE dumped them.
model::Graph GeOnnxToModelGraph(const GeOnnxGraph& g, const std::string& file);

}  // namespace af::importers::ge
