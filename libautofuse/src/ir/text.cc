// The readable text form: dumper and parser. The parser is line-based; each line is read with a
// small cursor that knows names (plain or quoted), expressions (balanced up to a delimiter) and
// lists.
#include "autofuse/ir/text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

#include "autofuse/support/error.h"

namespace af::ir {
namespace {

// ------------------------------------------------------------------ dumping

bool IsPlainName(const std::string& s) {
  if (s.empty() || (std::isalpha(static_cast<unsigned char>(s[0])) == 0 && s[0] != '_')) {
    return false;
  }
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Name(const std::string& s) {
  return IsPlainName(s) ? s : Quote(s);
}

std::string AxisName(const Graph& g, std::int64_t id) {
  const Axis* a = g.FindAxis(id);
  return a != nullptr ? Name(a->name) : "#" + std::to_string(id);
}

std::string AxisList(const Graph& g, const std::vector<std::int64_t>& ids) {
  std::string s = "{";
  for (std::size_t i = 0; i < ids.size(); ++i)
    s += (i != 0u ? ", " : "") + AxisName(g, ids[i]);
  return s + "}";
}

std::string ExprList(const std::vector<Expr>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i != 0u ? ", " : "") + v[i].ToString();
  return s + ")";
}

std::string IntList(const std::vector<std::int64_t>& v, char open = '[', char close = ']') {
  std::string s(1, open);
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i != 0u ? ", " : "") + std::to_string(v[i]);
  return s + close;
}

std::string DoubleText(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string AttrText(const AttrValue& v) {
  struct V {
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return DoubleText(d); }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return Quote(s); }
    std::string operator()(const Expr& e) const { return "expr(" + e.ToString() + ")"; }
    std::string operator()(const std::vector<std::int64_t>& l) const { return IntList(l); }
  };
  return std::visit(V{}, v);
}

std::string MemText(const MemInfo& m) {
  std::ostringstream ss;
  ss << "tensor_id:" << m.tensor_id << " alloc:" << AllocTypeName(m.alloc_type)
     << " pos:" << PositionName(m.position) << " hw:" << HardwareName(m.hardware)
     << " bufs:" << IntList(m.buf_ids, '{', '}') << " reuse:" << m.reuse_id;
  if (!m.name.empty()) ss << " name:" << Quote(m.name);
  return ss.str();
}

void DumpTensor(std::ostringstream& ss, const Graph& g, const Tensor& t, std::size_t k) {
  const std::string p = "    .y" + std::to_string(k);
  ss << p << " : " << DTypeName(t.dtype) << " axis=" << AxisList(g, t.axis)
     << " repeats=" << ExprList(t.repeats) << " strides=" << ExprList(t.strides) << "\n";
  if (!t.vectorized_axis.empty() || !t.vectorized_strides.empty()) {
    ss << p << ".vectorized = " << AxisList(g, t.vectorized_axis)
       << " strides=" << ExprList(t.vectorized_strides) << "\n";
  }
  if (t.mem != MemInfo{}) ss << p << ".mem = " << MemText(t.mem) << "\n";
  if (t.que != QueInfo{}) {
    ss << p << ".que = id:" << t.que.id << " depth:" << t.que.depth << " buf_num:" << t.que.buf_num;
    if (!t.que.name.empty()) ss << " name:" << Quote(t.que.name);
    ss << "\n";
  }
  if (t.buf != BufInfo{}) {
    ss << p << ".buf = id:" << t.buf.id;
    if (!t.buf.name.empty()) ss << " name:" << Quote(t.buf.name);
    ss << "\n";
  }
  if (t.opt != OptInfo{}) {
    ss << p << ".opt = reuse:" << t.opt.reuse_id << " ref:" << t.opt.ref_tensor
       << " scope:" << t.opt.merge_scope << "\n";
  }
}

std::string NameList(const std::vector<std::string>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i != 0u ? ", " : "") + Name(v[i]);
  return s + "}";
}

}  // namespace

std::string DumpText(const Graph& g) {
  std::ostringstream ss;
  ss << "Graph: " << Name(g.name) << "\n";
  ss << "  type: " << (g.type == GraphType::kHint ? "hint" : "impl") << "\n";
  if (g.tiling_key != -1) ss << "  tiling_key: " << g.tiling_key << "\n";
  ss << "Sizes:\n";
  for (const auto& v : g.size_vars) {
    ss << "  " << Name(v.name) << ": ";
    if (v.const_value) {
      ss << "CONST(" << *v.const_value << ")\n";
    } else {
      ss << "VAR\n";
    }
  }
  ss << "Axis:\n";
  for (const auto& a : g.axes) {
    ss << "  " << Name(a.name) << "(" << a.id << ") : " << AxisTypeName(a.type)
       << ", size:" << a.size.ToString();
    if (a.align != Expr(1)) ss << ", align:" << a.align.ToString();
    if (!a.from.empty()) ss << ", from: " << AxisList(g, a.from);
    if (a.split_pair_other_id != -1) ss << ", pair:" << a.split_pair_other_id;
    if (a.bind_block) ss << ", bind_block";
    if (a.allow_oversize_axis) ss << ", oversize";
    if (!a.allow_unaligned_tail) ss << ", no_unaligned_tail";
    ss << "\n";
  }
  ss << "Nodes:\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    ss << "  [" << i << "] " << Name(n.name) << " : " << Name(n.type);
    if (!n.inputs.empty()) {
      ss << "(";
      for (std::size_t s = 0; s < n.inputs.size(); ++s) {
        const InputRef& in = n.inputs[s];
        ss << (s != 0u ? ", " : "");
        if (in.node >= 0 && in.node < static_cast<int>(g.nodes.size())) {
          ss << Name(g.nodes[in.node].name) << ".y" << in.output;
        } else {
          ss << "<dangling>";
        }
      }
      ss << ")";
    }
    ss << "\n";
    for (const auto& [k, v] : n.attrs)
      ss << "    .attr." << Name(k) << " = " << AttrText(v) << "\n";
    if (!n.sched.axis.empty()) ss << "    .axis = " << AxisList(g, n.sched.axis) << "\n";
    if (n.sched.loop_axis != -1)
      ss << "    .loop_axis = " << AxisName(g, n.sched.loop_axis) << "\n";
    if (n.sched.exec_condition != 0)
      ss << "    .exec_condition = " << n.sched.exec_condition << "\n";
    if (n.sched.exec_order != -1) ss << "    .exec_order = " << n.sched.exec_order << "\n";
    if (n.api != ApiInfo{}) {
      ss << "    .api = " << IntList({n.api.type, n.api.compute_type, n.api.unit}) << "\n";
    }
    if (!n.input_names.empty()) ss << "    .ir_inputs = " << NameList(n.input_names) << "\n";
    if (!n.output_names.empty()) ss << "    .ir_outputs = " << NameList(n.output_names) << "\n";
    for (const auto& tb : n.tmp_buffers) {
      ss << "    .tmp_buf = id:" << tb.id << " size:(" << tb.size.ToString()
         << ") life:" << tb.life_time_axis_id << " mem: " << MemText(tb.mem) << "\n";
    }
    for (std::size_t k = 0; k < n.outputs.size(); ++k)
      DumpTensor(ss, g, n.outputs[k], k);
  }
  return ss.str();
}

// ------------------------------------------------------------------ parsing

namespace {

class Cursor {
 public:
  Cursor(const std::string& line, int lineno, const std::string& file)
      : s_(line), line_(lineno), file_(file) {}

  [[noreturn]] void Fail(const std::string& msg) const {
    throw InputError({file_, line_, static_cast<int>(pos_) + 1}, msg);
  }
  void Ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool AtEnd() {
    Ws();
    return pos_ >= s_.size();
  }
  bool Peek(std::string_view t) {
    Ws();
    return s_.compare(pos_, t.size(), t) == 0;
  }
  bool Accept(std::string_view t) {
    if (Peek(t)) {
      pos_ += t.size();
      return true;
    }
    return false;
  }
  void Expect(std::string_view t) {
    if (!Accept(t)) Fail("expected '" + std::string(t) + "', found " + Found());
  }
  std::string Found() {
    Ws();
    if (pos_ >= s_.size()) return "end of line";
    return "'" + s_.substr(pos_, 12) + "'";
  }
  void ExpectEnd() {
    if (!AtEnd()) Fail("unexpected trailing text " + Found());
  }

  // A plain identifier ([A-Za-z0-9_]+) or a quoted string.
  std::string NameTok() {
    Ws();
    if (pos_ < s_.size() && s_[pos_] == '"') return QuotedTok();
    const std::size_t b = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) != 0 || s_[pos_] == '_')) {
      ++pos_;
    }
    if (b == pos_) Fail("expected a name, found " + Found());
    return s_.substr(b, pos_ - b);
  }

  std::string QuotedTok() {
    Ws();
    if (pos_ >= s_.size() || s_[pos_] != '"') Fail("expected '\"', found " + Found());
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) Fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) Fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '\\':
          out += '\\';
          break;
        case '"':
          out += '"';
          break;
        case 'x': {
          if (pos_ + 2 > s_.size()) Fail("bad \\x escape");
          const std::string hex = s_.substr(pos_, 2);
          if (std::isxdigit(static_cast<unsigned char>(hex[0])) == 0 ||
              std::isxdigit(static_cast<unsigned char>(hex[1])) == 0) {
            Fail("bad \\x escape");
          }
          out += static_cast<char>(std::stoi(hex, nullptr, 16));
          pos_ += 2;
          break;
        }
        default:
          Fail(std::string("unknown escape \\") + e);
      }
    }
    return out;
  }

  std::int64_t Int() {
    Ws();
    const std::size_t b = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])) != 0)
      ++pos_;
    const std::string tok = s_.substr(b, pos_ - b);
    if (tok.empty() || tok == "-" || tok == "+") Fail("expected an integer, found " + Found());
    try {
      return std::stoll(tok);
    } catch (const std::exception&) {
      pos_ = b;
      Fail("integer out of range");
    }
  }

  // Raw text up to a delimiter at parenthesis depth 0 (not consumed), balanced.
  std::string Balanced(std::string_view delims) {
    Ws();
    const std::size_t b = pos_;
    int depth = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (depth == 0 && delims.find(c) != std::string_view::npos) break;
      if (c == '(') ++depth;
      if (c == ')') {
        if (depth == 0) break;
        --depth;
      }
      ++pos_;
    }
    if (depth != 0) Fail("unbalanced parentheses");
    std::string t = s_.substr(b, pos_ - b);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t'))
      t.pop_back();
    return t;
  }

  Expr ExprTok(std::string_view delims) {
    Ws();
    const std::size_t b = pos_;
    const std::string text = Balanced(delims);
    if (text.empty()) Fail("expected an expression, found " + Found());
    try {
      return sym::Parse(text);
    } catch (const sym::ParseError& e) {
      pos_ = b + e.pos();
      Fail(std::string("bad expression: ") + e.what());
    } catch (const sym::Error& e) {
      pos_ = b;
      Fail(std::string("bad expression: ") + e.what());
    }
  }

  std::vector<Expr> ExprListTok() {
    Expect("(");
    std::vector<Expr> out;
    if (Accept(")")) return out;
    while (true) {
      out.push_back(ExprTok(",)"));
      if (Accept(")")) break;
      Expect(",");
    }
    return out;
  }

  std::vector<std::string> NameListTok() {
    Expect("{");
    std::vector<std::string> out;
    if (Accept("}")) return out;
    while (true) {
      out.push_back(NameTok());
      if (Accept("}")) break;
      Expect(",");
    }
    return out;
  }

  std::vector<std::int64_t> IntListTok(std::string_view open, std::string_view close) {
    Expect(open);
    std::vector<std::int64_t> out;
    if (Accept(close)) return out;
    while (true) {
      out.push_back(Int());
      if (Accept(close)) break;
      Expect(",");
    }
    return out;
  }

  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t p) { pos_ = p; }
  const std::string& str() const { return s_; }

 private:
  const std::string& s_;
  std::size_t pos_ = 0;
  int line_;
  const std::string& file_;
};

struct PendingInput {
  std::size_t node;
  std::string producer;
  int output;
  int line;
};

class TextParser {
 public:
  TextParser(const std::string& text, std::string file) : file_(std::move(file)) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      lines_.push_back(line);
  }

  Graph Parse() {
    enum class Section { kNone, kGraph, kSizes, kAxis, kNodes } section = Section::kNone;
    bool seen_graph = false;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string& raw = lines_[i];
      const int lineno = static_cast<int>(i) + 1;
      Cursor c(raw, lineno, file_);
      if (c.AtEnd() || c.Peek("#")) continue;
      const bool indented = raw[0] == ' ' || raw[0] == '\t';
      if (!indented) {
        if (c.Accept("Graph:")) {
          if (seen_graph) c.Fail("a second 'Graph:' header (one graph per file)");
          seen_graph = true;
          g_.name = c.NameTok();
          c.ExpectEnd();
          section = Section::kGraph;
        } else if (c.Accept("Sizes:")) {
          section = Section::kSizes;
        } else if (c.Accept("Axis:")) {
          section = Section::kAxis;
        } else if (c.Accept("Nodes:")) {
          section = Section::kNodes;
        } else {
          c.Fail("expected 'Graph:', 'Sizes:', 'Axis:' or 'Nodes:', found " + c.Found());
        }
        if (!seen_graph) c.Fail("the text must start with 'Graph: <name>'");
        c.ExpectEnd();
        continue;
      }
      switch (section) {
        case Section::kNone:
          c.Fail("indented line before 'Graph:'");
        case Section::kGraph:
          GraphLine(c);
          break;
        case Section::kSizes:
          SizeLine(c);
          break;
        case Section::kAxis:
          AxisLine(c);
          break;
        case Section::kNodes:
          NodeLine(c);
          break;
      }
    }
    if (!seen_graph) throw InputError({file_, 1, 1}, "empty text: expected 'Graph: <name>'");
    ResolveInputs();
    return std::move(g_);
  }

  const std::vector<int>& node_lines() const { return node_lines_; }

 private:
  void GraphLine(Cursor& c) {
    if (c.Accept("type:")) {
      const std::string t = c.NameTok();
      if (t == "hint") {
        g_.type = GraphType::kHint;
      } else if (t == "impl") {
        g_.type = GraphType::kImpl;
      } else {
        c.Fail("graph type must be 'hint' or 'impl', found '" + t + "'");
      }
    } else if (c.Accept("tiling_key:")) {
      g_.tiling_key = c.Int();
    } else {
      c.Fail("expected 'type:' or 'tiling_key:', found " + c.Found());
    }
    c.ExpectEnd();
  }

  void SizeLine(Cursor& c) {
    SizeVar v;
    v.name = c.NameTok();
    c.Expect(":");
    if (c.Accept("VAR")) {
    } else if (c.Accept("CONST(")) {
      v.const_value = c.Int();
      c.Expect(")");
    } else {
      c.Fail("expected VAR or CONST(n), found " + c.Found());
    }
    c.ExpectEnd();
    for (const auto& s : g_.size_vars) {
      if (s.name == v.name) c.Fail("size '" + v.name + "' declared twice");
    }
    g_.size_vars.push_back(v);
  }

  std::int64_t AxisId(Cursor& c, const std::string& name) {
    const Axis* a = g_.FindAxisByName(name);
    if (a == nullptr) c.Fail("unknown axis '" + name + "'");
    return a->id;
  }

  std::vector<std::int64_t> AxisIds(Cursor& c) {
    const std::size_t at = c.pos();
    std::vector<std::int64_t> ids;
    for (const auto& n : c.NameListTok()) {
      const Axis* a = g_.FindAxisByName(n);
      if (a == nullptr) {
        c.set_pos(at);
        c.Fail("unknown axis '" + n + "'");
      }
      ids.push_back(a->id);
    }
    return ids;
  }

  void AxisLine(Cursor& c) {
    Axis a;
    a.name = c.NameTok();
    c.Expect("(");
    a.id = c.Int();
    c.Expect(")");
    c.Expect(":");
    const std::string type = c.NameTok();
    const auto t = AxisTypeFromName(type);
    if (!t) c.Fail("unknown axis type '" + type + "'");
    a.type = *t;
    c.Expect(",");
    c.Expect("size:");
    a.size = c.ExprTok(",");
    // `from` may name axes declared later in the list (it never does in our dumps, but the ids
    // are resolved at the end to be safe).
    std::vector<std::string> from_names;
    const std::size_t from_pos = c.pos();
    while (c.Accept(",")) {
      if (c.Accept("align:")) {
        a.align = c.ExprTok(",");
      } else if (c.Accept("from:")) {
        from_names = c.NameListTok();
      } else if (c.Accept("pair:")) {
        a.split_pair_other_id = c.Int();
      } else if (c.Accept("bind_block")) {
        a.bind_block = true;
      } else if (c.Accept("oversize")) {
        a.allow_oversize_axis = true;
      } else if (c.Accept("no_unaligned_tail")) {
        a.allow_unaligned_tail = false;
      } else {
        c.Fail("unknown axis property " + c.Found());
      }
    }
    c.ExpectEnd();
    if (g_.FindAxis(a.id) != nullptr) c.Fail("axis id " + std::to_string(a.id) + " used twice");
    if (g_.FindAxisByName(a.name) != nullptr) c.Fail("axis '" + a.name + "' declared twice");
    for (const auto& n : from_names) {
      const Axis* p = g_.FindAxisByName(n);
      if (p == nullptr) {
        c.set_pos(from_pos);
        c.Fail("axis '" + a.name + "' comes from unknown axis '" + n + "'");
      }
      a.from.push_back(p->id);
    }
    g_.axes.push_back(a);
  }

  void NodeLine(Cursor& c) {
    if (c.Peek("[")) {
      NodeHeader(c);
      return;
    }
    if (g_.nodes.empty()) c.Fail("node property before any '[i] name : Type' line");
    Node& n = g_.nodes.back();
    c.Expect(".");
    const std::size_t key_pos = c.pos();
    std::string key = c.NameTok();
    if (key == "attr") {
      c.Expect(".");
      const std::string attr = c.NameTok();
      c.Expect("=");
      n.attrs[attr] = AttrTok(c);
    } else if (key == "axis") {
      c.Expect("=");
      n.sched.axis = AxisIds(c);
    } else if (key == "loop_axis") {
      c.Expect("=");
      n.sched.loop_axis = AxisId(c, c.NameTok());
    } else if (key == "exec_condition") {
      c.Expect("=");
      n.sched.exec_condition = static_cast<std::int32_t>(c.Int());
    } else if (key == "exec_order") {
      c.Expect("=");
      n.sched.exec_order = c.Int();
    } else if (key == "api") {
      c.Expect("=");
      const auto v = c.IntListTok("[", "]");
      if (v.size() != 3) c.Fail(".api needs [type, compute_type, unit]");
      n.api = {v[0], v[1], v[2]};
    } else if (key == "ir_inputs") {
      c.Expect("=");
      n.input_names = c.NameListTok();
    } else if (key == "ir_outputs") {
      c.Expect("=");
      n.output_names = c.NameListTok();
    } else if (key == "tmp_buf") {
      c.Expect("=");
      TmpBuffer tb;
      c.Expect("id:");
      tb.id = c.Int();
      c.Expect("size:");
      c.Expect("(");
      tb.size = c.ExprTok(")");
      c.Expect(")");
      c.Expect("life:");
      tb.life_time_axis_id = c.Int();
      c.Expect("mem:");
      tb.mem = MemTok(c);
      n.tmp_buffers.push_back(tb);
    } else if (key.size() >= 2 && key.size() <= 5 && key[0] == 'y' &&
               key.find_first_not_of("0123456789", 1) == std::string::npos) {
      const std::size_t k = std::stoul(key.substr(1));
      if (k > 4096) c.Fail("output index too large");
      if (n.outputs.size() <= k) n.outputs.resize(k + 1);
      TensorLine(c, n.outputs[k]);
    } else {
      c.set_pos(key_pos);
      c.Fail("unknown node property '" + key + "'");
    }
    c.ExpectEnd();
  }

  void TensorLine(Cursor& c, Tensor& t) {
    if (c.Accept(":")) {
      const std::string dt = c.NameTok();
      const auto d = DTypeFromName(dt);
      if (!d) c.Fail("unknown dtype '" + dt + "'");
      t.dtype = *d;
      c.Expect("axis=");
      t.axis = AxisIds(c);
      c.Expect("repeats=");
      t.repeats = c.ExprListTok();
      c.Expect("strides=");
      t.strides = c.ExprListTok();
      return;
    }
    c.Expect(".");
    const std::string what = c.NameTok();
    c.Expect("=");
    if (what == "vectorized") {
      t.vectorized_axis = AxisIds(c);
      c.Expect("strides=");
      t.vectorized_strides = c.ExprListTok();
    } else if (what == "mem") {
      t.mem = MemTok(c);
    } else if (what == "que") {
      c.Expect("id:");
      t.que.id = c.Int();
      c.Expect("depth:");
      t.que.depth = c.Int();
      c.Expect("buf_num:");
      t.que.buf_num = c.Int();
      if (c.Accept("name:")) t.que.name = c.QuotedTok();
    } else if (what == "buf") {
      c.Expect("id:");
      t.buf.id = c.Int();
      if (c.Accept("name:")) t.buf.name = c.QuotedTok();
    } else if (what == "opt") {
      c.Expect("reuse:");
      t.opt.reuse_id = c.Int();
      c.Expect("ref:");
      t.opt.ref_tensor = c.Int();
      c.Expect("scope:");
      t.opt.merge_scope = c.Int();
    } else {
      c.Fail("unknown tensor property '" + what + "'");
    }
  }

  template <typename E, typename NameFn>
  E EnumTok(Cursor& c, int count, NameFn name_of) {
    const std::string s = c.NameTok();
    for (int i = 0; i < count; ++i) {
      if (name_of(static_cast<E>(i)) == s) return static_cast<E>(i);
    }
    c.Fail("unknown value '" + s + "'");
  }

  MemInfo MemTok(Cursor& c) {
    MemInfo m;
    c.Expect("tensor_id:");
    m.tensor_id = c.Int();
    c.Expect("alloc:");
    m.alloc_type = EnumTok<AllocType>(c, 6, AllocTypeName);
    c.Expect("pos:");
    m.position = EnumTok<Position>(c, 5, PositionName);
    c.Expect("hw:");
    m.hardware = EnumTok<Hardware>(c, 3, HardwareName);
    c.Expect("bufs:");
    m.buf_ids = c.IntListTok("{", "}");
    c.Expect("reuse:");
    m.reuse_id = c.Int();
    if (c.Accept("name:")) m.name = c.QuotedTok();
    return m;
  }

  AttrValue AttrTok(Cursor& c) {
    if (c.Peek("\"")) return c.QuotedTok();
    if (c.Accept("expr(")) {
      Expr e = c.ExprTok(")");
      c.Expect(")");
      return e;
    }
    if (c.Peek("[")) return c.IntListTok("[", "]");
    if (c.Accept("true")) return true;
    if (c.Accept("false")) return false;
    if (c.Accept("nan")) return std::nan("");
    if (c.Accept("inf")) return HUGE_VAL;
    if (c.Accept("-inf")) return -HUGE_VAL;
    // A number: integer unless it has a '.', 'e' or 'E'.
    c.Ws();
    const std::size_t b = c.pos();
    std::size_t e = b;
    const std::string& s = c.str();
    while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) != 0 || s[e] == '.' ||
                            s[e] == '-' || s[e] == '+')) {
      ++e;
    }
    const std::string tok = s.substr(b, e - b);
    if (tok.empty()) c.Fail("expected an attribute value, found " + c.Found());
    if (tok.find_first_of(".eE") != std::string::npos) {
      char* end = nullptr;
      const double d = std::strtod(tok.c_str(), &end);
      if (end != tok.c_str() + tok.size()) c.Fail("bad number '" + tok + "'");
      c.set_pos(e);
      return d;
    }
    return c.Int();
  }

  void NodeHeader(Cursor& c) {
    c.Expect("[");
    const std::int64_t idx = c.Int();
    c.Expect("]");
    if (idx != static_cast<std::int64_t>(g_.nodes.size())) {
      c.Fail("node index " + std::to_string(idx) + " out of sequence (expected " +
             std::to_string(g_.nodes.size()) + ")");
    }
    Node n;
    n.name = c.NameTok();
    c.Expect(":");
    n.type = c.NameTok();
    if (c.Accept("(")) {
      if (!c.Accept(")")) {
        while (true) {
          const std::string producer = c.NameTok();
          c.Expect(".y");
          const auto out = c.Int();
          if (out < 0 || out > 4096) c.Fail("bad output index");
          pending_.push_back({g_.nodes.size(), producer, static_cast<int>(out), line_of(c)});
          n.inputs.push_back({-1, static_cast<int>(out)});
          if (c.Accept(")")) break;
          c.Expect(",");
        }
      }
    }
    c.ExpectEnd();
    if (g_.FindNode(n.name) != -1) c.Fail("node '" + n.name + "' declared twice");
    g_.nodes.push_back(std::move(n));
    node_lines_.push_back(line_of(c));
  }

  int line_of(const Cursor& c) const {
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      if (&lines_[i] == &c.str()) return static_cast<int>(i) + 1;
    }
    return 0;
  }

  void ResolveInputs() {
    std::vector<std::size_t> slot(g_.nodes.size(), 0);
    for (const auto& p : pending_) {
      const int src = g_.FindNode(p.producer);
      if (src < 0) {
        throw InputError({file_, p.line, 0}, "node '" + g_.nodes[p.node].name +
                                                 "' reads unknown node '" + p.producer + "'");
      }
      g_.nodes[p.node].inputs[slot[p.node]++].node = src;
    }
  }

  std::string file_;
  std::vector<std::string> lines_;
  std::vector<int> node_lines_;
  std::vector<PendingInput> pending_;
  Graph g_;
};

}  // namespace

Graph ParseText(const std::string& text, const std::string& file, std::vector<int>* node_lines) {
  TextParser p(text, file);
  Graph g = p.Parse();
  if (node_lines != nullptr) *node_lines = p.node_lines();
  return g;
}

}  // namespace af::ir
