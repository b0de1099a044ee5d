// ge_proto_*.txt streamed op by op (ge_proto.h).
#include "autofuse/importers/ge_proto.h"

#include <algorithm>
#include <cctype>

#include "af_ir.pb.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/support/error.h"
#include "pb_text_stream.h"

namespace af::importers::ge {
namespace {

namespace pb = af::proto;

class Reader {
 public:
  Reader(PbTextStream& s, ir::LoadedFile& out) : s_(s), out_(out), file_(s.file()) {}

  void Top(bool model) {
    std::string name;
    int line = 0;
    Chunk rest;
    ir::GeGraphSummary bare;  // a bare GraphDef: the top level is the graph
    while (s_.NextField(&name, &line)) {
      if (model && name == "graph" && s_.FieldIsMessage()) {
        s_.Enter();
        Graph();
      } else if (!model && name == "op" && s_.FieldIsMessage()) {
        Op(bare);
      } else {
        s_.Capture(&rest);
      }
    }
    const std::string what = model ? "not a valid GE ModelDef" : "not a valid GE GraphDef";
    if (model) {
      pb::ModelDef md;
      ParseChunk(rest, &md, file_, what);
      for (const auto& g : md.graph())  // graphs written in list form
        Summarise(g, &out_);
    } else {
      pb::GraphDef gd;
      ParseChunk(rest, &gd, file_, what);
      bare.name = gd.name();
      ir::LoadedFile listed;
      Summarise(gd, &listed);
      for (auto& op : listed.ge_graphs[0].ops)
        bare.ops.push_back(std::move(op));
      for (auto& g : listed.graphs)
        out_.graphs.push_back(std::move(g));
      out_.ge_graphs.push_back(std::move(bare));
    }
  }

 private:
  void Graph() {
    ir::GeGraphSummary gs;
    Chunk rest;
    std::string name;
    int line = 0;
    while (s_.NextField(&name, &line)) {
      if (name == "op" && s_.FieldIsMessage()) {
        Op(gs);
      } else {
        s_.Capture(&rest);
      }
    }
    pb::GraphDef gd;
    ParseChunk(rest, &gd, file_, "not a valid GE ModelDef");
    gs.name = gd.name();
    ir::LoadedFile listed;
    Summarise(gd, &listed);
    for (auto& op : listed.ge_graphs[0].ops)
      gs.ops.push_back(std::move(op));
    for (auto& g : listed.graphs)
      out_.graphs.push_back(std::move(g));
    out_.ge_graphs.push_back(std::move(gs));
  }

  // One op: its text alone, parsed as a GraphDef holding it.
  void Op(ir::GeGraphSummary& gs) {
    Chunk c;
    s_.Capture(&c);
    pb::GraphDef one;
    ParseChunk(c, &one, file_, "not a valid GE op");
    for (const auto& op : one.op())
      Add(op, gs, &out_);
  }

  void Add(const pb::OpDef& op, ir::GeGraphSummary& gs, ir::LoadedFile* out) const {
    gs.ops.push_back({op.name(), op.type(), {op.input().begin(), op.input().end()}});
    const auto it = op.attr().find("ascgraph");
    if (it == op.attr().end() || it->second.value_case() != pb::AttrDef::kS) return;
    const std::string origin = file_ + " (op '" + op.name() + "', attribute ascgraph)";
    out->graphs.push_back(ir::ParseAscGraphText(it->second.s(), origin));
  }

  void Summarise(const pb::GraphDef& gd, ir::LoadedFile* out) const {
    ir::GeGraphSummary gs;
    gs.name = gd.name();
    for (const auto& op : gd.op())
      Add(op, gs, out);
    out->ge_graphs.push_back(std::move(gs));
  }

  PbTextStream& s_;
  ir::LoadedFile& out_;
  std::string file_;
};

ir::LoadedFile Read(PbTextStream& s, std::string_view head) {
  ir::LoadedFile out;
  out.path = s.file();
  const ir::PbtxtKind kind = ir::SniffPbtxt(std::string(head));
  if (kind != ir::PbtxtKind::kGeModelDef && kind != ir::PbtxtKind::kGeGraphDef) {
    throw InputError(SourceLoc{s.file(), 1, 1},
                     "not a GE graph: expected top-level 'graph {' or 'op {'");
  }
  const bool model = kind == ir::PbtxtKind::kGeModelDef;
  out.format = model ? ir::FileFormat::kGeModelDef : ir::FileFormat::kGeGraphDef;
  Reader(s, out).Top(model);
  return out;
}

}  // namespace

bool LooksLikeGeProto(std::string_view head) {
  // The first field must be a GE ModelDef/GraphDef key followed by ':' or '{' (so Python and
  // Inductor text that happen to hold a `graph` word further on are not taken).
  std::size_t p = 0;
  for (;;) {
    while (p < head.size() && std::isspace(static_cast<unsigned char>(head[p])) != 0)
      ++p;
    if (p < head.size() && head[p] == '#') {
      while (p < head.size() && head[p] != '\n')
        ++p;
      continue;
    }
    break;
  }
  std::size_t e = p;
  while (e < head.size() &&
         (std::isalnum(static_cast<unsigned char>(head[e])) != 0 || head[e] == '_'))
    ++e;
  const std::string_view key = head.substr(p, e - p);
  if (key != "graph" && key != "op" && key != "name" && key != "input" && key != "output" &&
      key != "attr")
    return false;
  while (e < head.size() && (head[e] == ' ' || head[e] == '\t'))
    ++e;
  if (e >= head.size() || (head[e] != ':' && head[e] != '{')) return false;
  const ir::PbtxtKind k = ir::SniffPbtxt(std::string(head));
  return k == ir::PbtxtKind::kGeModelDef || k == ir::PbtxtKind::kGeGraphDef;
}

ir::LoadedFile ParseGeProto(const std::string& text, const std::string& file) {
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

ir::LoadedFile LoadGeProtoFile(const std::filesystem::path& path) {
  PbTextFile f(path.string());
  const std::string head = f.Head(4096);
  PbTextStream s([&](char* buf, std::size_t n) { return f.Read(buf, n); }, f.path());
  return Read(s, head);
}

}  // namespace af::importers::ge
