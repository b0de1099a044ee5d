// ge_onnx_*.pbtxt: protobuf TextFormat against af_onnx.proto, then GE's conventions (op_type
// prefix "ge:", edges as "src:index" strings split at the last ':', descriptors as attributes,
// subgraphs as `subgraph` nodes with a GRAPH attribute) into GeOnnxModel; and a GeOnnxGraph into
// the model graph.
#include "autofuse/importers/ge_onnx.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <sstream>
#include <unordered_map>

#include "af_onnx.pb.h"
#include "autofuse/support/error.h"
#include "pb_text_stream.h"

namespace af::importers::ge {
namespace {

namespace pb = af::onnx;

constexpr int kMaxSubgraphDepth = 32;

GeEdge EdgeOf(const std::string& s) {
  GeEdge e;
  const std::size_t colon = s.rfind(':');
  if (colon == std::string::npos) {
    e.src = s;
    return e;
  }
  int idx = 0;
  const char* b = s.data() + colon + 1;
  const char* end = s.data() + s.size();
  const auto r = std::from_chars(b, end, idx);
  if (r.ec != std::errc() || r.ptr != end) {
    e.src = s;  // a name with ':' and no index
    return e;
  }
  e.src = s.substr(0, colon);
  e.index = idx;
  return e;
}

// "input_desc_dtype:3" → ("input_desc_dtype", 3); -1 when there is no index.
std::pair<std::string, int> SplitIndexed(const std::string& name) {
  const std::size_t colon = name.rfind(':');
  if (colon == std::string::npos) return {name, -1};
  int idx = -1;
  const char* b = name.data() + colon + 1;
  const char* end = name.data() + name.size();
  const auto r = std::from_chars(b, end, idx);
  if (r.ec != std::errc() || r.ptr != end || idx < 0 || idx > 100000) return {name, -1};
  return {name.substr(0, colon), idx};
}

GeTensorDesc& DescAt(std::vector<GeTensorDesc>& v, int i) {
  if (static_cast<std::size_t>(i) >= v.size()) v.resize(static_cast<std::size_t>(i) + 1);
  return v[static_cast<std::size_t>(i)];
}

std::string AttrText(const pb::AttributeProto& a) {
  std::ostringstream ss;
  switch (a.type()) {
    case pb::AttributeProto::INT:
      ss << a.i();
      break;
    case pb::AttributeProto::FLOAT:
      ss << a.f();
      break;
    case pb::AttributeProto::STRING:
      ss << a.s().substr(0, 200);
      break;
    case pb::AttributeProto::INTS:
      for (int k = 0; k < a.ints_size() && k < 64; ++k)
        ss << (k != 0 ? "," : "") << a.ints(k);
      break;
    case pb::AttributeProto::FLOATS:
      for (int k = 0; k < a.floats_size() && k < 64; ++k)
        ss << (k != 0 ? "," : "") << a.floats(k);
      break;
    case pb::AttributeProto::STRINGS:
      for (int k = 0; k < a.strings_size() && k < 64; ++k)
        ss << (k != 0 ? "," : "") << a.strings(k).substr(0, 200);
      break;
    default:
      ss << "<" << pb::AttributeProto::AttributeType_Name(a.type()) << ">";
      break;
  }
  return ss.str();
}

// A Const's `value` tensor as GE's ONNX encoder writes it: value_desc_dtype / _shape / _layout,
// and value_data (the raw bytes, DUMP_GE_GRAPH=1 only).
bool ReadValueAttr(const pb::AttributeProto& a, GeOnnxNode* node) {
  const std::string& k = a.name();
  if (k.rfind("value_", 0) != 0) return false;
  if (k == "value_desc_dtype") {
    node->value_desc.dtype = a.s();
  } else if (k == "value_desc_shape") {
    node->value_desc.shape.assign(a.ints().begin(), a.ints().end());
    node->value_desc.has_shape = true;
  } else if (k == "value_desc_layout") {
    node->value_desc.layout = a.s();
  } else if (k == "value_data") {
    if (a.s().size() <= kMaxConstBytes) {
      node->value_data = a.s();
      node->has_value = true;
    } else {
      node->value_dropped = true;
    }
  } else {
    return false;
  }
  return true;
}

GeOnnxNode ConvertNode(const pb::NodeProto& n) {
  GeOnnxNode node;
  node.name = n.name();
  node.type = n.op_type().rfind("ge:", 0) == 0 ? n.op_type().substr(3) : n.op_type();
  for (const auto& in : n.input())
    node.inputs.push_back(EdgeOf(in));
  node.outputs.assign(n.output().begin(), n.output().end());
  node.attribute_count = n.attribute_size();
  for (const auto& a : n.attribute()) {
    const auto [key, idx] = SplitIndexed(a.name());
    const bool in = key.rfind("input_desc_", 0) == 0;
    const bool out = key.rfind("output_desc_", 0) == 0;
    if ((in || out) && idx >= 0) {
      std::vector<GeTensorDesc>& v = in ? node.input_desc : node.output_desc;
      const std::string field = key.substr(in ? 11 : 12);
      if (field == "dtype") DescAt(v, idx).dtype = a.s();
      if (field == "layout") DescAt(v, idx).layout = a.s();
      if (field == "shape") {
        GeTensorDesc& d = DescAt(v, idx);
        d.shape.assign(a.ints().begin(), a.ints().end());
        d.has_shape = true;
      }
      continue;
    }
    if (in || out) continue;  // *_desc_nums, JSON descriptors of nodes with >= 20 tensors
    if (ReadValueAttr(a, &node)) continue;
    node.attrs[a.name()] = AttrText(a);
  }
  return node;
}

// A graph given as one parsed message (a `graph` or `node` field written in list form): this
// graph, then its subgraphs (depth first), appended to `out`.
void ReadGraph(const pb::GraphProto& g, const std::string& name, std::vector<GeOnnxGraph>& out,
               int depth, const std::string& file) {
  if (depth > kMaxSubgraphDepth) {
    throw InputError(SourceLoc{file, 0, 0}, "subgraphs nested too deeply in graph '" + name + "'");
  }
  const std::size_t slot = out.size();
  out.push_back(GeOnnxGraph{name.empty() ? g.name() : name, {}});
  std::vector<std::pair<std::string, const pb::GraphProto*>> subs;
  for (const auto& n : g.node()) {
    if (n.op_type() == "subgraph") {
      for (const auto& a : n.attribute()) {
        if (a.has_g()) subs.emplace_back(n.name(), &a.g());
      }
      continue;
    }
    out[slot].nodes.push_back(ConvertNode(n));
  }
  for (const auto& [sub_name, sg] : subs)
    ReadGraph(*sg, sg->name().empty() ? sub_name : sg->name(), out, depth + 1, file);
}

// The streamed reader: the model, graph, node and attribute levels are walked field by field;
// every other field is captured and parsed by TextFormat as a small message, so memory is one
// node's text plus what we keep of it, not the file (docs/formats.md, "Large dumps").
class StreamReader {
 public:
  explicit StreamReader(PbTextStream& s) : s_(s), file_(s.file()) {}

  GeOnnxModel Model() {
    GeOnnxModel m;
    m.file = file_;
    Chunk rest;
    bool has_graph = false;
    std::string name;
    int line = 0;
    while (s_.NextField(&name, &line)) {
      if (name == "graph" && s_.FieldIsMessage()) {
        if (has_graph) {
          throw InputError(SourceLoc{file_, line, 0},
                           "ONNX model text: a second `graph` (ModelProto has one)");
        }
        has_graph = true;
        s_.Enter();
        m.graphs = Graph(0, line);
      } else {
        s_.Capture(&rest);
      }
    }
    pb::ModelProto mp;
    ParseChunk(rest, &mp, file_, "ONNX model text");
    m.ir_version = mp.ir_version();
    m.producer = mp.producer_name();
    if (mp.has_graph()) {
      if (has_graph) {
        throw InputError(SourceLoc{file_, rest.lines.empty() ? 0 : rest.lines[0].second, 0},
                         "ONNX model text: a second `graph` (ModelProto has one)");
      }
      ReadGraph(mp.graph(), mp.graph().name(), m.graphs, 0, file_);
      has_graph = true;
    }
    if (!has_graph) throw InputError(SourceLoc{file_, 1, 1}, "ONNX model text without a graph");
    return m;
  }

 private:
  // This graph, then its subgraphs depth first.
  std::vector<GeOnnxGraph> Graph(int depth, int line) {
    if (depth > kMaxSubgraphDepth) {
      throw InputError(SourceLoc{file_, line, 0},
                       "subgraphs nested more than " + std::to_string(kMaxSubgraphDepth) + " deep");
    }
    std::vector<GeOnnxGraph> out(1);
    std::vector<std::vector<GeOnnxGraph>> subs;
    Chunk rest;
    std::string name;
    int l = 0;
    while (s_.NextField(&name, &l)) {
      if (name == "node" && s_.FieldIsMessage()) {
        s_.Enter();
        Node(depth, l, out[0], subs);
      } else if (name == "initializer") {
        s_.Skip();  // tensor data: not read
      } else {
        s_.Capture(&rest);
      }
    }
    pb::GraphProto gp;
    ParseChunk(rest, &gp, file_, "ONNX model text");
    out[0].name = gp.name();
    if (gp.node_size() > 0) {  // nodes written in list form
      std::vector<GeOnnxGraph> listed;
      ReadGraph(gp, gp.name(), listed, depth, file_);
      for (auto& n : listed[0].nodes)
        out[0].nodes.push_back(std::move(n));
      listed.erase(listed.begin());
      subs.push_back(std::move(listed));
    }
    for (auto& v : subs) {
      for (auto& g : v)
        out.push_back(std::move(g));
    }
    return out;
  }

  void Node(int depth, int line, GeOnnxGraph& g, std::vector<std::vector<GeOnnxGraph>>& subs) {
    Chunk rest;
    std::vector<std::vector<GeOnnxGraph>> graphs;  // GRAPH attributes
    pb::NodeProto np;
    std::string name;
    int l = 0;
    while (s_.NextField(&name, &l)) {
      if (name == "attribute" && s_.FieldIsMessage()) {
        s_.Enter();
        Chunk a;
        std::string an;
        int al = 0;
        while (s_.NextField(&an, &al)) {
          if (an == "g" && s_.FieldIsMessage()) {
            s_.Enter();
            graphs.push_back(Graph(depth + 1, al));
          } else {
            s_.Capture(&a);
          }
        }
        if (a.empty()) a.lines.emplace_back(0, l);
        ParseChunk(a, np.add_attribute(), file_, "ONNX model text");
      } else {
        s_.Capture(&rest);
      }
    }
    if (rest.empty()) rest.lines.emplace_back(0, line);
    pb::NodeProto head;
    ParseChunk(rest, &head, file_, "ONNX model text");
    for (auto& a : *np.mutable_attribute())
      head.add_attribute()->Swap(&a);
    if (head.op_type() == "subgraph") {
      for (const auto& a : head.attribute()) {  // attributes written in list form
        if (a.has_g()) {
          std::vector<GeOnnxGraph> listed;
          ReadGraph(a.g(), a.g().name().empty() ? head.name() : a.g().name(), listed, depth + 1,
                    file_);
          graphs.push_back(std::move(listed));
        }
      }
      for (auto& v : graphs) {
        if (!v.empty() && v[0].name.empty()) v[0].name = head.name();
        subs.push_back(std::move(v));
      }
      return;
    }
    g.nodes.push_back(ConvertNode(head));
  }

  PbTextStream& s_;
  std::string file_;
};

// GE elementwise ops whose aten equivalent takes just the tensors.
const std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>&
AtenMap() {
  static const std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>
      kMap = {
          {"Add", {"add", "Tensor"}},          {"AddV2", {"add", "Tensor"}},
          {"Sub", {"sub", "Tensor"}},          {"Mul", {"mul", "Tensor"}},
          {"RealDiv", {"div", "Tensor"}},      {"Div", {"div", "Tensor"}},
          {"Abs", {"abs", "default"}},         {"Relu", {"relu", "default"}},
          {"Exp", {"exp", "default"}},         {"Log", {"log", "default"}},
          {"Sqrt", {"sqrt", "default"}},       {"Rsqrt", {"rsqrt", "default"}},
          {"Square", {"square", "default"}},   {"Maximum", {"maximum", "default"}},
          {"Minimum", {"minimum", "default"}}, {"Neg", {"neg", "default"}},
          {"Sigmoid", {"sigmoid", "default"}}, {"Tanh", {"tanh", "default"}},
      };
  return kMap;
}

}  // namespace

GeEdge ParseGeEdge(const std::string& s) {
  return s.empty() ? GeEdge{} : EdgeOf(s);
}

GeOnnxGraph GeGraphFromOps(const std::string& name, const std::vector<GeOpList>& ops) {
  GeOnnxGraph g;
  g.name = name;
  for (const auto& op : ops) {
    GeOnnxNode n;
    n.name = op.name;
    n.type = op.type;
    for (const auto& in : op.inputs)
      n.inputs.push_back(ParseGeEdge(in));
    g.nodes.push_back(std::move(n));
  }
  // Outputs as "self:k" for every k another op reads, so multi-output ops keep their arity.
  std::unordered_map<std::string, int> arity;
  for (const auto& n : g.nodes) {
    for (const auto& e : n.inputs) {
      if (!e.src.empty() && e.index >= 0) arity[e.src] = std::max(arity[e.src], e.index + 1);
    }
  }
  for (auto& n : g.nodes) {
    const int k = arity.count(n.name) != 0u ? arity[n.name] : 0;
    for (int i = 0; i < k; ++i)
      n.outputs.push_back(n.name + ":" + std::to_string(i));
  }
  return g;
}

int GeOnnxNode::DataInputs() const {
  int c = 0;
  for (const auto& e : inputs)
    c += e.index >= 0 ? 1 : 0;
  return c;
}

int GeOnnxNode::ControlInputs() const {
  int c = 0;
  for (const auto& e : inputs)
    c += e.index < 0 ? 1 : 0;
  return c;
}

const GeOnnxNode* GeOnnxGraph::Find(std::string_view n) const {
  for (const auto& x : nodes) {
    if (x.name == n) return &x;
  }
  return nullptr;
}

int GeOnnxModel::DataEdges() const {
  int c = 0;
  for (const auto& g : graphs) {
    for (const auto& n : g.nodes) {
      for (const auto& e : n.inputs)
        c += e.index >= 0 && !e.src.empty() ? 1 : 0;
    }
  }
  return c;
}

int GeOnnxModel::ControlEdges() const {
  int c = 0;
  for (const auto& g : graphs) {
    for (const auto& n : g.nodes)
      c += n.ControlInputs();
  }
  return c;
}

int GeOnnxModel::DanglingEdges() const {
  int c = 0;
  for (const auto& g : graphs) {
    std::unordered_map<std::string_view, int> names;
    for (const auto& n : g.nodes)
      names[n.name] = 1;
    for (const auto& n : g.nodes) {
      for (const auto& e : n.inputs)
        c += !e.src.empty() && names.count(e.src) == 0 ? 1 : 0;
    }
  }
  return c;
}

bool LooksLikeGeOnnx(std::string_view text) {
  const std::string_view head = text.substr(0, 4096);
  return head.find("ir_version:") != std::string_view::npos ||
         (head.find("producer_name:") != std::string_view::npos &&
          head.find("graph {") != std::string_view::npos);
}

GeOnnxModel ParseGeOnnx(const std::string& text, const std::string& file) {
  std::size_t at = 0;
  PbTextStream s(
      [&](char* buf, std::size_t n) {
        const std::size_t k = std::min(n, text.size() - at);
        std::copy_n(text.data() + at, k, buf);
        at += k;
        return k;
      },
      file);
  return StreamReader(s).Model();
}

GeOnnxModel LoadGeOnnxFile(const std::filesystem::path& path) {
  PbTextFile f(path.string());
  PbTextStream s([&](char* buf, std::size_t n) { return f.Read(buf, n); }, f.path());
  return StreamReader(s).Model();
}

GeOpClass ClassifyGeOp(std::string_view t) {
  if (t == "Data" || t == "RefData" || t == "Variable" || t == "Const" || t == "Constant" ||
      t == "VariableV2")
    return GeOpClass::kInput;
  if (t == "NetOutput") return GeOpClass::kOutput;
  if (AtenMap().count(t) != 0) return GeOpClass::kAten;
  static const std::array<std::string_view, 34> kVector = {
      "Cast",         "BiasAdd",       "ReduceSum", "ReduceSumD", "ReduceMean", "ReduceMeanD",
      "ReduceMax",    "ReduceMaxD",    "ReduceMin", "ReduceMinD", "Softmax",    "SoftmaxV2",
      "LayerNorm",    "ConcatV2",      "ConcatD",   "Concat",     "Transpose",  "TransposeD",
      "StridedSlice", "StridedSliceD", "Gather",    "GatherV2",   "GatherV2D",  "Reshape",
      "ExpandDims",   "Squeeze",       "Unsqueeze", "Identity",   "Select",     "Pow",
      "BroadcastTo",  "BroadcastToD",  "Tile",      "TileD"};
  for (auto v : kVector) {
    if (v == t) return GeOpClass::kVector;
  }
  static const std::array<std::string_view, 8> kCube = {
      "MatMul", "MatMulV2", "BatchMatMul",         "BatchMatMulV2",
      "Conv2D", "Conv3D",   "Conv2DBackpropInput", "Conv2DBackpropFilter"};
  for (auto v : kCube) {
    if (v == t) return GeOpClass::kCube;
  }
  return GeOpClass::kOther;
}

std::string_view GeOpClassName(GeOpClass c) {
  switch (c) {
    case GeOpClass::kInput:
      return "input";
    case GeOpClass::kOutput:
      return "output";
    case GeOpClass::kAten:
      return "aten";
    case GeOpClass::kVector:
      return "vector";
    case GeOpClass::kCube:
      return "cube";
    case GeOpClass::kOther:
      return "other";
  }
  return "other";
}

}  // namespace af::importers::ge
