// AscGraphDef text <-> Graph, and GE graphs that embed AscGraphs.
#include "autofuse/ir/proto_io.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cctype>

#include "af_ir.pb.h"
#include "autofuse/support/error.h"

namespace af::ir {
namespace {

namespace pb = af::proto;
using google::protobuf::TextFormat;

// Collects the first error protobuf's text parser reports (0-based line/column).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!has_) {
      has_ = true;
      line_ = line;
      col_ = column;
      message_ = message;
    }
  }
  void AddWarning(int /*line*/, google::protobuf::io::ColumnNumber /*column*/,
                  const std::string& /*message*/) override {}
  bool has() const { return has_; }
  int line() const { return line_; }
  int col() const { return col_; }
  const std::string& message() const { return message_; }
  SourceLoc Loc(const std::string& file) const { return {file, line_ + 1, col_ + 1}; }

 private:
  bool has_ = false;
  int line_ = 0;
  int col_ = 0;
  std::string message_;
};

template <typename Msg>
bool ParseText(const std::string& text, Msg* msg, FirstError* err,
               TextFormat::ParseInfoTree* tree = nullptr) {
  TextFormat::Parser parser;
  if (tree != nullptr) parser.WriteLocationsTo(tree);
  parser.RecordErrorsTo(err);
  parser.AllowUnknownField(true);
  parser.AllowUnknownExtension(true);
  parser.SetRecursionLimit(200);
  const bool ok = parser.ParseFromString(text, msg);
  return ok && !err->has();
}

Expr ParseExprField(const std::string& text, const std::string& what, const SourceLoc& at) {
  try {
    return sym::Parse(text);
  } catch (const sym::Error& e) {
    throw InputError(at, what + ": bad expression '" + text + "': " + e.what());
  }
}

std::vector<Expr> ParseExprs(const google::protobuf::RepeatedPtrField<std::string>& v,
                             const std::string& what, const SourceLoc& at) {
  std::vector<Expr> out;
  out.reserve(v.size());
  for (const auto& s : v)
    out.push_back(ParseExprField(s, what, at));
  return out;
}

template <typename E>
E EnumFromInt(std::int64_t v, int count, E invalid) {
  return (v >= 0 && v < count) ? static_cast<E>(v) : invalid;
}

MemInfo MemFromProto(const pb::MemAttrDef& m) {
  MemInfo out;
  out.tensor_id = m.tensor_id();
  out.alloc_type = EnumFromInt<AllocType>(m.alloc_type(), 5, AllocType::kInvalid);
  out.position = EnumFromInt<Position>(m.position(), 4, Position::kInvalid);
  out.hardware = EnumFromInt<Hardware>(m.hardware(), 2, Hardware::kInvalid);
  out.buf_ids.assign(m.buf_ids().begin(), m.buf_ids().end());
  out.name = m.name();
  out.reuse_id = m.reuse_id();
  return out;
}

void MemToProto(const MemInfo& m, pb::MemAttrDef* out) {
  out->set_tensor_id(m.tensor_id);
  out->set_alloc_type(m.alloc_type == AllocType::kInvalid ? -1 : static_cast<int>(m.alloc_type));
  out->set_position(m.position == Position::kInvalid ? -1 : static_cast<int>(m.position));
  out->set_hardware(m.hardware == Hardware::kInvalid ? -1 : static_cast<int>(m.hardware));
  for (auto b : m.buf_ids)
    out->add_buf_ids(b);
  out->set_name(m.name);
  out->set_reuse_id(m.reuse_id);
}

AttrValue AttrFromProto(const pb::AttrDef& a, const std::string& what, const SourceLoc& at) {
  switch (a.value_case()) {
    case pb::AttrDef::kI:
      return a.i();
    case pb::AttrDef::kF:
      return static_cast<double>(a.f());
    case pb::AttrDef::kB:
      return a.b();
    case pb::AttrDef::kS:
      return a.s();
    case pb::AttrDef::kDt:
      return a.dt();
    case pb::AttrDef::kExpression:
      return ParseExprField(a.expression(), what, at);
    case pb::AttrDef::kList:
      return std::vector<std::int64_t>(a.list().i().begin(), a.list().i().end());
    case pb::AttrDef::VALUE_NOT_SET:
      return std::int64_t{0};
    default:
      throw InputError(at, what + ": unsupported attribute value kind");
  }
}

void AttrToProto(const AttrValue& v, pb::AttrDef* out) {
  struct V {
    pb::AttrDef* o;
    void operator()(std::int64_t i) const { o->set_i(i); }
    void operator()(double d) const { o->set_f(static_cast<float>(d)); }
    void operator()(bool b) const { o->set_b(b); }
    void operator()(const std::string& s) const { o->set_s(s); }
    void operator()(const Expr& e) const { o->set_expression(e.ToString()); }
    void operator()(const std::vector<std::int64_t>& l) const {
      auto* list = o->mutable_list();
      for (auto i : l)
        list->add_i(i);
      list->set_val_type(pb::AttrDef::ListValue::VT_LIST_INT);
    }
  };
  std::visit(V{out}, v);
}

std::string FirstKey(const std::string& text, std::size_t* pos) {
  // Skips whitespace and '#' comments; returns the identifier at the position.
  std::size_t i = *pos;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i])) != 0) {
      ++i;
    } else if (text[i] == '#') {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else {
      break;
    }
  }
  std::size_t e = i;
  while (e < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[e])) != 0 || text[e] == '_')) {
    ++e;
  }
  *pos = e;
  return text.substr(i, e - i);
}

}  // namespace

namespace {

// Where each node and axis of a parsed message sits in its text (0-based lines from protobuf).
struct Locator {
  std::vector<int> node_lines;  // 1-based
  std::vector<int> axis_lines;  // 1-based
};

Graph FromProtoAt(const pb::AscGraphDef& def, const std::string& file, const Locator* loc);

}  // namespace

Graph FromProto(const pb::AscGraphDef& def, const std::string& file) {
  return FromProtoAt(def, file, nullptr);
}

namespace {

Graph FromProtoAt(const pb::AscGraphDef& def, const std::string& file, const Locator* loc) {
  auto node_loc = [&](int i) -> SourceLoc {
    if (loc != nullptr && i >= 0 && i < static_cast<int>(loc->node_lines.size())) {
      return {file, loc->node_lines[i], 0};
    }
    return {file, 0, 0};
  };
  auto axis_loc = [&](int i) -> SourceLoc {
    if (loc != nullptr && i >= 0 && i < static_cast<int>(loc->axis_lines.size())) {
      return {file, loc->axis_lines[i], 0};
    }
    return {file, 0, 0};
  };
  Graph g;
  g.name = def.graph_name();
  const auto& ga = def.asc_graph_attr();
  g.tiling_key = ga.tiling_key();
  g.type = ga.type() == 1 ? GraphType::kImpl : GraphType::kHint;
  for (const auto& v : ga.size_var()) {
    if (v.empty()) throw InputError({file, 0, 0}, "empty size_var name");
    g.AddSizeVar(v);
  }
  for (int k = 0; k < ga.axis_size(); ++k) {
    const auto& a = ga.axis(k);
    const SourceLoc at = axis_loc(k);
    const std::string what = "axis '" + a.name() + "'";
    Axis ax;
    ax.id = a.id();
    ax.name = a.name();
    if (a.axis_type() < 0 || a.axis_type() > 5) {
      throw InputError(at, what + ": unknown axis_type " + std::to_string(a.axis_type()));
    }
    ax.type = static_cast<AxisType>(a.axis_type());
    ax.bind_block = a.bind_block();
    if (a.size().empty()) throw InputError(at, what + ": no size");
    ax.size = ParseExprField(a.size(), what + " size", at);
    ax.align = a.align().empty() ? Expr(1) : ParseExprField(a.align(), what + " align", at);
    ax.from.assign(a.from().begin(), a.from().end());
    ax.split_pair_other_id = a.split_pair_other_id();
    ax.allow_oversize_axis = a.allow_oversize_axis();
    ax.allow_unaligned_tail = a.allow_unaligned_tail();
    g.axes.push_back(ax);
  }
  for (int i = 0; i < def.asc_node_size(); ++i) {
    const auto& nd = def.asc_node(i);
    const SourceLoc at = node_loc(i);
    Node n;
    const auto& na = nd.attr();
    n.name = na.name();
    n.type = na.type().empty() ? nd.ir_def().type() : na.type();
    const std::string what = "node '" + n.name + "'";
    if (n.name.empty()) throw InputError(at, "a node without a name");
    if (n.type.empty()) throw InputError(at, what + ": no op type");
    n.sched.axis.assign(na.sched().axis().begin(), na.sched().axis().end());
    n.sched.loop_axis = na.sched().loop_axis();
    n.sched.exec_condition = na.sched().exec_condition();
    n.sched.exec_order = na.sched().exec_order();
    n.api = {na.api().type(), na.api().compute_type(), na.api().unit()};
    for (const auto& [k, v] : na.ir_attr_def().attr()) {
      n.attrs[k] = AttrFromProto(v, what + " attribute '" + k + "'", at);
    }
    for (const auto& tb : na.tmp_buffers()) {
      TmpBuffer t;
      t.size = tb.buf_desc().size().empty()
                   ? Expr(0)
                   : ParseExprField(tb.buf_desc().size(), what + " tmp buffer size", at);
      t.life_time_axis_id = tb.buf_desc().life_time_axis_id();
      t.mem = MemFromProto(tb.mem());
      t.id = tb.id();
      n.tmp_buffers.push_back(t);
    }
    for (const auto& o : nd.outputs()) {
      const auto& ta = o.attr();
      Tensor t;
      const auto dt = DTypeFromGe(ta.dtype());
      if (!dt) {
        throw InputError(at, what + ": unknown tensor dtype " + std::to_string(ta.dtype()));
      }
      t.dtype = *dt;
      t.axis.assign(ta.axis_ids().begin(), ta.axis_ids().end());
      t.repeats = ParseExprs(ta.repeats(), what + " repeats", at);
      t.strides = ParseExprs(ta.strides(), what + " strides", at);
      t.vectorized_axis.assign(ta.vectorized_axis().begin(), ta.vectorized_axis().end());
      t.vectorized_strides = ParseExprs(ta.vectorized_strides(), what + " vectorized_strides", at);
      t.mem = MemFromProto(ta.mem());
      t.que = {ta.que().id(), ta.que().depth(), ta.que().buf_num(), ta.que().name()};
      t.buf = {ta.buf().id(), ta.buf().name()};
      t.opt = {ta.opt().reuse_id(), ta.opt().ref_tensor(), ta.opt().merge_scope()};
      n.outputs.push_back(std::move(t));
    }
    n.input_names.assign(nd.ir_def().input_names().begin(), nd.ir_def().input_names().end());
    n.output_names.assign(nd.ir_def().output_names().begin(), nd.ir_def().output_names().end());
    g.nodes.push_back(std::move(n));
  }
  // Inputs refer to producers by name; producers may come later in the file.
  for (int i = 0; i < def.asc_node_size(); ++i) {
    for (const auto& src : def.asc_node(i).input_src()) {
      const int p = g.FindNode(src.src_node_name());
      if (p < 0) {
        throw InputError(node_loc(i), "node '" + g.nodes[i].name + "' reads unknown node '" +
                                          src.src_node_name() + "'");
      }
      if (src.src_out_index() < 0 || src.src_out_index() > 65535) {
        throw InputError(node_loc(i), "node '" + g.nodes[i].name + "' reads output " +
                                          std::to_string(src.src_out_index()));
      }
      g.nodes[i].inputs.push_back({p, static_cast<int>(src.src_out_index())});
    }
  }
  return g;
}

}  // namespace

void ToProto(const Graph& g, pb::AscGraphDef* def) {
  def->Clear();
  def->set_graph_name(g.name);
  auto* ga = def->mutable_asc_graph_attr();
  ga->set_tiling_key(g.tiling_key);
  ga->set_type(g.type == GraphType::kImpl ? 1 : 0);
  for (const auto& v : g.size_vars)
    ga->add_size_var(v.name);
  for (const auto& a : g.axes) {
    auto* ax = ga->add_axis();
    ax->set_id(a.id);
    ax->set_name(a.name);
    ax->set_axis_type(static_cast<int>(a.type));
    ax->set_bind_block(a.bind_block);
    ax->set_size(a.size.ToString());
    ax->set_align(a.align.ToString());
    for (auto f : a.from)
      ax->add_from(f);
    ax->set_split_pair_other_id(a.split_pair_other_id);
    ax->set_allow_oversize_axis(a.allow_oversize_axis);
    ax->set_allow_unaligned_tail(a.allow_unaligned_tail);
  }
  for (const auto& n : g.nodes) {
    auto* nd = def->add_asc_node();
    for (const auto& in : n.inputs) {
      auto* src = nd->add_input_src();
      if (in.node >= 0 && in.node < static_cast<int>(g.nodes.size())) {
        src->set_src_node_name(g.nodes[in.node].name);
      }
      src->set_src_out_index(in.output);
    }
    for (const auto& t : n.outputs) {
      auto* ta = nd->add_outputs()->mutable_attr();
      ta->set_dtype(DTypeToGe(t.dtype));
      for (auto a : t.axis)
        ta->add_axis_ids(a);
      for (const auto& e : t.repeats)
        ta->add_repeats(e.ToString());
      for (const auto& e : t.strides)
        ta->add_strides(e.ToString());
      for (auto a : t.vectorized_axis)
        ta->add_vectorized_axis(a);
      for (const auto& e : t.vectorized_strides)
        ta->add_vectorized_strides(e.ToString());
      MemToProto(t.mem, ta->mutable_mem());
      ta->mutable_que()->set_id(t.que.id);
      ta->mutable_que()->set_depth(t.que.depth);
      ta->mutable_que()->set_buf_num(t.que.buf_num);
      ta->mutable_que()->set_name(t.que.name);
      ta->mutable_buf()->set_id(t.buf.id);
      ta->mutable_buf()->set_name(t.buf.name);
      ta->mutable_opt()->set_reuse_id(t.opt.reuse_id);
      ta->mutable_opt()->set_ref_tensor(t.opt.ref_tensor);
      ta->mutable_opt()->set_merge_scope(t.opt.merge_scope);
    }
    auto* at = nd->mutable_attr();
    at->set_name(n.name);
    at->set_type(n.type);
    auto* sc = at->mutable_sched();
    sc->set_exec_order(n.sched.exec_order);
    for (auto a : n.sched.axis)
      sc->add_axis(a);
    sc->set_loop_axis(n.sched.loop_axis);
    sc->set_exec_condition(n.sched.exec_condition);
    at->mutable_api()->set_type(n.api.type);
    at->mutable_api()->set_compute_type(n.api.compute_type);
    at->mutable_api()->set_unit(n.api.unit);
    auto* attrs = at->mutable_ir_attr_def()->mutable_attr();
    for (const auto& [k, v] : n.attrs)
      AttrToProto(v, &(*attrs)[k]);
    for (const auto& tb : n.tmp_buffers) {
      auto* t = at->add_tmp_buffers();
      t->mutable_buf_desc()->set_size(tb.size.ToString());
      t->mutable_buf_desc()->set_life_time_axis_id(tb.life_time_axis_id);
      MemToProto(tb.mem, t->mutable_mem());
      t->set_id(tb.id);
    }
    auto* ir = nd->mutable_ir_def();
    for (const auto& s : n.input_names)
      ir->add_input_names(s);
    for (const auto& s : n.output_names)
      ir->add_output_names(s);
    ir->set_type(n.type);
    ir->set_input_nums(static_cast<std::int64_t>(n.inputs.size()));
  }
}

namespace {

// Lines of the asc_node entries and of the axes, from the parser's location tree.
template <typename Msg>
Locator LocateIn(const Msg& msg, const TextFormat::ParseInfoTree& tree) {
  Locator loc;
  const auto* d = msg.GetDescriptor();
  const auto* node_field = d->FindFieldByName("asc_node");
  for (int i = 0; i < msg.asc_node_size(); ++i) {
    loc.node_lines.push_back(tree.GetLocation(node_field, i).line + 1);
  }
  const auto* attr_field = d->FindFieldByName("asc_graph_attr");
  if (const auto* sub = tree.GetTreeForNested(attr_field, -1); sub != nullptr) {
    const auto* axis_field = attr_field->message_type()->FindFieldByName("axis");
    for (int i = 0; i < msg.asc_graph_attr().axis_size(); ++i) {
      loc.axis_lines.push_back(sub->GetLocation(axis_field, i).line + 1);
    }
  }
  return loc;
}

}  // namespace

std::string LoadedGraph::NodeLoc(int node) const {
  std::string s = origin;
  if (node >= 0 && node < static_cast<int>(node_lines.size()) && node_lines[node] > 0) {
    s += ":" + std::to_string(node_lines[node]);
  }
  return s;
}

LoadedGraph ParseAscGraphText(const std::string& text, const std::string& file) {
  pb::AscGraphDef def;
  FirstError err;
  TextFormat::ParseInfoTree tree;
  if (ParseText(text, &def, &err, &tree)) {
    const Locator loc = LocateIn(def, tree);
    return {FromProtoAt(def, file, &loc), AscSchema::kCurrent, file, loc.node_lines};
  }
  // Older writers: integer AxisDef.align. Re-read with the legacy messages.
  pb::AscGraphDefLegacy legacy;
  FirstError legacy_err;
  TextFormat::ParseInfoTree legacy_tree;
  if (ParseText(text, &legacy, &legacy_err, &legacy_tree)) {
    const Locator loc = LocateIn(legacy, legacy_tree);
    pb::AscGraphDef conv;
    conv.set_graph_name(legacy.graph_name());
    auto* ga = conv.mutable_asc_graph_attr();
    const auto& la = legacy.asc_graph_attr();
    ga->set_tiling_key(la.tiling_key());
    ga->set_type(la.type());
    for (const auto& v : la.size_var())
      ga->add_size_var(v);
    for (const auto& a : la.axis()) {
      auto* ax = ga->add_axis();
      ax->set_id(a.id());
      ax->set_name(a.name());
      ax->set_axis_type(a.axis_type());
      ax->set_bind_block(a.bind_block());
      ax->set_size(a.size());
      ax->set_align(std::to_string(a.align() == 0 ? 1 : a.align()));
      for (auto f : a.from())
        ax->add_from(f);
      ax->set_split_pair_other_id(a.split_pair_other_id());
      ax->set_allow_oversize_axis(a.allow_oversize_axis());
      ax->set_allow_unaligned_tail(a.allow_unaligned_tail());
    }
    *conv.mutable_asc_node() = legacy.asc_node();
    return {FromProtoAt(conv, file, &loc), AscSchema::kLegacyIntAlign, file, loc.node_lines};
  }
  // Report the error of the schema that got further.
  const FirstError& e = (legacy_err.line() > err.line() ||
                         (legacy_err.line() == err.line() && legacy_err.col() > err.col()))
                            ? legacy_err
                            : err;
  throw InputError(e.Loc(file), "not a valid AscGraphDef: " + e.message());
}

std::string WriteAscGraphText(const Graph& g) {
  pb::AscGraphDef def;
  ToProto(g, &def);
  std::string out;
  TextFormat::PrintToString(def, &out);
  return out;
}

PbtxtKind SniffPbtxt(const std::string& text) {
  // Look at the top-level keys (brace depth 0) of the first few fields.
  std::size_t pos = 0;
  int depth = 0;
  bool in_string = false;
  char quote = 0;
  for (int seen = 0; pos < text.size() && seen < 64;) {
    if (in_string) {
      if (text[pos] == '\\') {
        pos += 2;
        continue;
      }
      if (text[pos] == quote) in_string = false;
      ++pos;
      continue;
    }
    const char c = text[pos];
    if (c == '"' || c == '\'') {
      in_string = true;
      quote = c;
      ++pos;
    } else if (c == '{' || c == '<') {
      ++depth;
      ++pos;
    } else if (c == '}' || c == '>') {
      --depth;
      ++pos;
    } else if (c == '#') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
    } else if (depth == 0 && (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_')) {
      const std::string key = FirstKey(text, &pos);
      ++seen;
      if (key == "asc_graph_attr" || key == "asc_node" || key == "graph_name") {
        return PbtxtKind::kAscGraphDef;
      }
      if (key == "graph") return PbtxtKind::kGeModelDef;
      if (key == "op") return PbtxtKind::kGeGraphDef;
      if (key == "ir_version" || key == "producer_name" || key == "opset_import" ||
          key == "model_version") {
        return PbtxtKind::kOnnxModel;
      }
    } else {
      ++pos;
    }
  }
  return PbtxtKind::kUnknown;
}

GeFile ParseGeText(const std::string& text, const std::string& file) {
  pb::ModelDef model;
  FirstError err;
  const PbtxtKind kind = SniffPbtxt(text);
  if (kind == PbtxtKind::kGeGraphDef) {
    if (!ParseText(text, model.add_graph(), &err)) {
      throw InputError(err.Loc(file), "not a valid GE GraphDef: " + err.message());
    }
  } else if (kind == PbtxtKind::kGeModelDef) {
    if (!ParseText(text, &model, &err)) {
      throw InputError(err.Loc(file), "not a valid GE ModelDef: " + err.message());
    }
  } else {
    throw InputError({file, 1, 1}, "not a GE graph: expected top-level 'graph {' or 'op {'");
  }
  GeFile out;
  for (const auto& gd : model.graph()) {
    GeGraphSummary gs;
    gs.name = gd.name();
    for (const auto& op : gd.op()) {
      gs.ops.push_back({op.name(), op.type(), {op.input().begin(), op.input().end()}});
      const auto it = op.attr().find("ascgraph");
      if (it == op.attr().end() || it->second.value_case() != pb::AttrDef::kS) continue;
      const std::string origin = file + " (op '" + op.name() + "', attribute ascgraph)";
      out.asc_graphs.push_back(ParseAscGraphText(it->second.s(), origin));
    }
    out.graphs.push_back(std::move(gs));
  }
  return out;
}

}  // namespace af::ir
