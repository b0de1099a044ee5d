// ge_proto_*.txt as GE graphs with every op's attributes, tensor descriptions and Const values
// (ge_proto.h, LoadGeProtoModel): streamed op by op like the summary reader next door, each op
// converted to the node form the ONNX reader gives (ge_onnx.h), so one lowering serves both.
#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "af_ir.pb.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/support/error.h"
#include "pb_text_stream.h"

namespace af::importers::ge {
namespace {

namespace pb = af::proto;

GeTensorDesc DescOf(const pb::TensorDescriptor& d) {
  GeTensorDesc t;
  if (d.dtype() != pb::DT_UNDEFINED) t.dtype = pb::DataType_Name(d.dtype());
  t.has_shape = d.has_shape();
  t.shape.assign(d.shape().dim().begin(), d.shape().dim().end());
  t.layout = d.layout();
  return t;
}

template <typename List>
std::string Joined(const List& l) {
  std::ostringstream ss;
  int k = 0;
  for (const auto& v : l) {
    if (k == 64) break;
    ss << (k++ != 0 ? "," : "") << v;
  }
  return ss.str();
}

// The attribute as the ONNX form would print it (attrs of GeOnnxNode): ints, floats, bools as 0/1,
// lists comma-separated, strings cut at 200 characters; other kinds are not kept.
bool AttrText(const pb::AttrDef& a, std::string* out) {
  std::ostringstream ss;
  switch (a.value_case()) {
    case pb::AttrDef::kI:
      ss << a.i();
      break;
    case pb::AttrDef::kF:
      ss << a.f();
      break;
    case pb::AttrDef::kB:
      ss << (a.b() ? 1 : 0);
      break;
    case pb::AttrDef::kDt:
      ss << a.dt();
      break;
    case pb::AttrDef::kS:
      ss << a.s().substr(0, 200);
      break;
    case pb::AttrDef::kList: {
      const auto& l = a.list();
      if (l.i_size() > 0) return *out = Joined(l.i()), true;
      if (l.f_size() > 0) return *out = Joined(l.f()), true;
      if (l.dt_size() > 0) return *out = Joined(l.dt()), true;
      if (l.b_size() > 0) {
        std::vector<int> b(l.b().begin(), l.b().end());
        return *out = Joined(b), true;
      }
      std::vector<std::string> s;
      for (const auto& x : l.s())
        s.push_back(x.substr(0, 200));
      *out = Joined(s);
      return true;
    }
    default:
      return false;
  }
  *out = ss.str();
  return true;
}

GeOnnxNode NodeOf(const pb::OpDef& op) {
  GeOnnxNode n;
  n.name = op.name();
  n.type = op.type();
  for (const auto& in : op.input())
    n.inputs.push_back(ParseGeEdge(in));
  for (const auto& d : op.input_desc())
    n.input_desc.push_back(DescOf(d));
  for (const auto& d : op.output_desc())
    n.output_desc.push_back(DescOf(d));
  n.subgraphs.assign(op.subgraph_name().begin(), op.subgraph_name().end());
  n.attribute_count = static_cast<int>(op.attr_size());
  for (const auto& [key, a] : op.attr()) {
    if (key == "value" && a.value_case() == pb::AttrDef::kT) {
      n.value_desc = DescOf(a.t().desc());
      n.value_desc.has_shape = true;  // a scalar's shape message is empty, and still a shape
      if (a.t().data().size() <= kMaxConstBytes) {
        n.value_data = a.t().data();
        n.has_value = !n.value_data.empty();
      } else {
        n.value_dropped = true;
      }
      continue;
    }
    std::string text;
    if (AttrText(a, &text)) n.attrs[key] = std::move(text);
  }
  return n;
}

// Outputs as "self:k" for every k another op reads or a description exists for.
void NameOutputs(GeOnnxGraph& g) {
  std::unordered_map<std::string, int> arity;
  for (const auto& n : g.nodes) {
    for (const auto& e : n.inputs)
      if (!e.src.empty() && e.index >= 0) arity[e.src] = std::max(arity[e.src], e.index + 1);
  }
  for (auto& n : g.nodes) {
    int k = static_cast<int>(n.output_desc.size());
    if (auto it = arity.find(n.name); it != arity.end()) k = std::max(k, it->second);
    for (int i = 0; i < k; ++i)
      n.outputs.push_back(n.name + ":" + std::to_string(i));
  }
}

class ModelReader {
 public:
  ModelReader(PbTextStream& s, GeOnnxModel& out) : s_(s), out_(out), file_(s.file()) {}

  void Top(bool model) {
    std::string name;
    int line = 0;
    Chunk rest;
    GeOnnxGraph bare;
    while (s_.NextField(&name, &line)) {
      if (model && name == "graph" && s_.FieldIsMessage()) {
        s_.Enter();
        GeOnnxGraph g;
        Graph(g);
        out_.graphs.push_back(std::move(g));
      } else if (!model && name == "op" && s_.FieldIsMessage()) {
        Op(bare);
      } else {
        s_.Capture(&rest);
      }
    }
    if (model) {
      pb::ModelDef md;
      ParseChunk(rest, &md, file_, "not a valid GE ModelDef");
      for (const auto& gd : md.graph())  // graphs written in list form
        out_.graphs.push_back(Listed(gd));
    } else {
      pb::GraphDef gd;
      ParseChunk(rest, &gd, file_, "not a valid GE GraphDef");
      GeOnnxGraph listed = Listed(gd);
      for (auto& n : listed.nodes)
        bare.nodes.push_back(std::move(n));
      bare.name = gd.name();
      out_.graphs.push_back(std::move(bare));
    }
    for (auto& g : out_.graphs)
      NameOutputs(g);
  }

 private:
  void Graph(GeOnnxGraph& g) {
    Chunk rest;
    std::string name;
    int line = 0;
    while (s_.NextField(&name, &line)) {
      if (name == "op" && s_.FieldIsMessage()) {
        Op(g);
      } else {
        s_.Capture(&rest);
      }
    }
    pb::GraphDef gd;
    ParseChunk(rest, &gd, file_, "not a valid GE ModelDef");
    g.name = gd.name();
    for (const auto& op : gd.op())
      g.nodes.push_back(NodeOf(op));
  }

  void Op(GeOnnxGraph& g) {
    Chunk c;
    s_.Capture(&c);
    pb::GraphDef one;
    ParseChunk(c, &one, file_, "not a valid GE op");
    for (const auto& op : one.op())
      g.nodes.push_back(NodeOf(op));
  }

  static GeOnnxGraph Listed(const pb::GraphDef& gd) {
    GeOnnxGraph g;
    g.name = gd.name();
    for (const auto& op : gd.op())
      g.nodes.push_back(NodeOf(op));
    return g;
  }

  PbTextStream& s_;
  GeOnnxModel& out_;
  std::string file_;
};

GeOnnxModel Read(PbTextStream& s, std::string_view head) {
  GeOnnxModel m;
  m.file = s.file();
  m.producer = "GE";
  const ir::PbtxtKind kind = ir::SniffPbtxt(std::string(head));
  if (kind != ir::PbtxtKind::kGeModelDef && kind != ir::PbtxtKind::kGeGraphDef) {
    throw InputError(SourceLoc{s.file(), 1, 1},
                     "not a GE graph: expected top-level 'graph {' or 'op {'");
  }
  ModelReader(s, m).Top(kind == ir::PbtxtKind::kGeModelDef);
  if (m.graphs.empty()) throw InputError(SourceLoc{s.file(), 1, 1}, "GE ModelDef without a graph");
  return m;
}

}  // namespace

GeOnnxModel ParseGeProtoModel(const std::string& text, const std::string& file) {
  std::size_t at = 0;
  PbTextStream s(
      [&](char* buf, std::size_t n) {
        const std::size_t k = std::min(n, text.size() - at);
        std::copy_n(text.data() + at, k, buf);
        at += k;
        return k;
      },
      file);
  return Read(s, std::string_view(text).substr(0, 4096));
}

GeOnnxModel LoadGeProtoModel(const std::filesystem::path& path) {
  PbTextFile f(path.string());
  const std::string head = f.Head(4096);
  PbTextStream s([&](char* buf, std::size_t n) { return f.Read(buf, n); }, f.path());
  return Read(s, head);
}

}  // namespace af::importers::ge
