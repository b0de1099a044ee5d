// The Inductor IR reader: a line cursor over the dump. A node starts at a header
// `name: NodeClass(IrClass, ...)`; its lines are `name.key = value` (values spanning lines until
// their brackets balance), `<buf>_layout = …`, a `.outputs = [` block, `class name_loop_body:`,
// `name.snodes[i] =` markers followed by a full sub-node dump (flat or indented), and backend code
// blocks. A node ends at the next header, at a line indented less than it, at a foreign
// unindented line or at a new log message. Values are parsed with the FX importer's Python
// expression parser; index expressions are kept as text and parsed through `sym` when possible.
#include "autofuse/importers/inductor_ir.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "dump_lines.h"
#include "py_expr.h"

namespace af::importers::inductor {
namespace {

using fx::PyExpr;

constexpr int kMaxNesting = 16;         // snodes inside snodes
constexpr int kMaxValueLines = 100000;  // a value spanning more lines is broken

struct Header {
  std::string name;
  std::string node_class;
  std::vector<std::string> ir_classes;
};

// `op0: SchedulerNode(ComputedBuffer)` → header; anything else → false.
bool ParseHeader(std::string_view t, Header* h) {
  const std::size_t colon = t.find(": ");
  if (colon == std::string_view::npos || !IsIdentifier(t.substr(0, colon))) return false;
  std::string_view rest = t.substr(colon + 2);
  const std::size_t open = rest.find('(');
  if (open == std::string_view::npos || rest.empty() || rest.back() != ')') return false;
  const std::string_view cls = rest.substr(0, open);
  if (!IsIdentifier(cls) || std::isupper(static_cast<unsigned char>(cls[0])) == 0) return false;
  const std::string_view inner = rest.substr(open + 1, rest.size() - open - 2);
  if (inner.find_first_of("()=") != std::string_view::npos) return false;
  h->name = std::string(t.substr(0, colon));
  h->node_class = std::string(cls);
  h->ir_classes.clear();
  std::size_t start = 0;
  while (start <= inner.size()) {
    std::size_t comma = inner.find(',', start);
    if (comma == std::string_view::npos) comma = inner.size();
    const std::string_view part = TrimSpace(inner.substr(start, comma - start));
    if (!part.empty()) {
      if (!IsIdentifier(part)) return false;
      h->ir_classes.emplace_back(part);
    }
    start = comma + 1;
  }
  return true;
}

NodeKind KindOf(const Header& h) {
  const std::string& c = h.node_class;
  if (c == "ExternKernelSchedulerNode") return NodeKind::kExtern;
  if (c == "NopKernelSchedulerNode") return NodeKind::kNop;
  if (c == "ForeachKernelSchedulerNode") return NodeKind::kForeach;
  if (c.find("Fused") != std::string::npos || c == "GroupedSchedulerNode") return NodeKind::kFused;
  if (c == "SchedulerNode") {
    for (const auto& ir : h.ir_classes) {
      if (ir.find("Template") != std::string::npos) return NodeKind::kTemplate;
    }
    return NodeKind::kScheduler;
  }
  return NodeKind::kOther;
}

IndexExpr MakeIndex(std::string_view text) {
  IndexExpr e;
  e.text = std::string(TrimSpace(text));
  if (e.text.size() > 4096) return e;  // keep huge expressions as text
  try {
    e.expr = sym::Parse(e.text);
  } catch (const std::exception&) {
    e.expr.reset();
  }
  return e;
}

class IrReader {
 public:
  IrReader(const std::string& text, std::string file)
      : file_(std::move(file)), lines_(SplitDumpLines(text)) {}

  IrFile Read() {
    IrFile f;
    f.file = file_;
    bool any_text = false;
    while (pos_ < lines_.size()) {
      const DumpLine& l = lines_[pos_];
      if (l.blank) {
        ++pos_;
        continue;
      }
      any_text = true;
      Header h;
      if (ParseHeader(l.Stripped(), &h)) {
        const int base = l.indent;
        const int line = l.no;
        ++pos_;
        f.nodes.push_back(ParseNode(h, base, line, 0));
        continue;
      }
      const std::string_view t = l.Stripped();
      if (t == "BEFORE FUSION" || EndsWith(t, "BEFORE FUSION")) f.stage = "pre";
      if (t == "AFTER FUSION" || EndsWith(t, "AFTER FUSION")) f.stage = "post";
      ++f.skipped_lines;
      ++pos_;
    }
    if (f.nodes.empty() && any_text) {
      throw InputError(SourceLoc{file_, 1, 0},
                       "expected Inductor scheduler node dumps (`op0: SchedulerNode(...)`), "
                       "found none");
    }
    f.version_guess = GuessVersion(f);
    return f;
  }

 private:
  [[noreturn]] void Fail(int line, const std::string& cause) const {
    throw InputError(SourceLoc{file_, line, 0}, cause);
  }

  static std::string GuessVersion(const IrFile& f) {
    bool kw_dep = false;
    bool outputs = false;
    bool pvars = false;
    bool opnames = false;
    std::vector<const SchedNode*> all;
    for (const auto& n : f.nodes) {
      all.push_back(&n);
      for (const auto* s : n.Leaves())
        all.push_back(s);
    }
    for (const SchedNode* n : all) {
      if (StartsWith(n->name, "op")) opnames = true;
      if (!n->outputs.empty()) outputs = true;
      for (const auto& d : n->writes) {
        if (d.text.find("name=") != std::string::npos && d.kind == Dep::Kind::kMemory)
          kw_dep = true;
      }
      if (n->body) {
        for (const auto& [v, r] : n->body->var_ranges) {
          if (!v.empty() && v[0] == 'p') pvars = true;
        }
      }
    }
    if (kw_dep) return "2.0";
    if (pvars) return ">=2.6";
    if (outputs || opnames) return "2.5";
    return "2.1-2.4";
  }

  // The value of `key = value` starting on the current line (after "= "), joined with the
  // following lines until its brackets balance. Advances past it.
  std::string CollectValue(std::string_view first, int line) {
    std::string value(TrimSpace(first));
    int depth = BracketDepth(value);
    ++pos_;
    int joined = 0;
    while ((value.empty() || depth > 0) && pos_ < lines_.size()) {
      const DumpLine& l = lines_[pos_];
      if (l.log_start || ++joined > kMaxValueLines) break;
      Header h;
      if (ParseHeader(l.Stripped(), &h)) break;
      value += "\n";
      value += l.text;
      depth += BracketDepth(l.text);
      ++pos_;
    }
    if (depth != 0) Fail(line, "a value whose brackets never close (truncated file?)");
    if (TrimSpace(value).empty()) Fail(line, "a key without a value");
    return value;
  }

  PyExpr ParseValue(const std::string& value, int line) {
    try {
      return fx::ParseWholeExpr(value);
    } catch (const fx::LexError& e) {
      Fail(line, "cannot read the value: " + e.message);
    }
  }

  static std::string Span(const std::string& src, const PyExpr& e) {
    if (e.end <= e.begin || e.end > src.size()) return {};
    return src.substr(e.begin, e.end - e.begin);
  }

  static std::string NameOrString(const std::string& src, const PyExpr& e) {
    if (e.kind == PyExpr::Kind::kString) return e.text;
    return Span(src, e);
  }

  static const PyExpr* Kwarg(const PyExpr& call, std::string_view key) {
    for (const auto& [k, v] : call.kwargs) {
      if (k == key) return &v;
    }
    return nullptr;
  }

  std::vector<IndexExpr> ExprList(const std::string& src, const PyExpr& e) {
    std::vector<IndexExpr> out;
    if (e.kind == PyExpr::Kind::kList || e.kind == PyExpr::Kind::kTuple) {
      for (const auto& it : e.items)
        out.push_back(MakeIndex(Span(src, it)));
    } else {
      out.push_back(MakeIndex(Span(src, e)));
    }
    return out;
  }

  Dep MakeDep(const std::string& src, const PyExpr& e) {
    Dep d;
    d.text = Span(src, e);
    if (e.kind != PyExpr::Kind::kCall) return d;
    const std::string& c = e.text;
    auto arg = [&](std::size_t i, std::string_view kw) -> const PyExpr* {
      if (const PyExpr* k = Kwarg(e, kw)) return k;
      return i < e.items.size() ? &e.items[i] : nullptr;
    };
    if (const PyExpr* n = arg(0, "name")) d.buffer = NameOrString(src, *n);
    if (c == "MemoryDep") {
      d.kind = Dep::Kind::kMemory;
      if (const PyExpr* ix = arg(1, "index")) d.index = MakeIndex(Span(src, *ix));
      if (const PyExpr* r = arg(2, "var_names"); r != nullptr && r->kind == PyExpr::Kind::kDict) {
        for (std::size_t i = 0; i + 1 < r->items.size(); i += 2)
          d.ranges.emplace_back(Span(src, r->items[i]), MakeIndex(Span(src, r->items[i + 1])));
      }
      if (const PyExpr* s = Kwarg(e, "size")) d.size = ExprList(src, *s);
      if (const PyExpr* m = arg(3, "mode")) d.mode = NameOrString(src, *m);
      d.indirect = d.index.text.find("tmp") != std::string::npos;
    } else if (c == "StarDep") {
      d.kind = Dep::Kind::kStar;
      if (const PyExpr* m = arg(1, "mode")) d.mode = NameOrString(src, *m);
    } else if (c == "WeakDep") {
      d.kind = Dep::Kind::kWeak;
      if (const PyExpr* m = arg(1, "mutating_buf")) d.mutating_buf = NameOrString(src, *m);
    }
    return d;
  }

  std::vector<Dep> ParseDeps(const std::string& value, int line) {
    const PyExpr e = ParseValue(value, line);
    std::vector<Dep> out;
    if (e.kind != PyExpr::Kind::kList && e.kind != PyExpr::Kind::kTuple)
      Fail(line, "expected a list of dependencies, found `" + value.substr(0, 60) + "`");
    for (const auto& it : e.items)
      out.push_back(MakeDep(value, it));
    return out;
  }

  Layout MakeLayout(const std::string& src, const PyExpr& e) {
    Layout l;
    l.text = Span(src, e);
    if (e.kind != PyExpr::Kind::kCall) return l;
    l.kind = e.text;
    if (!e.items.empty()) l.device = NameOrString(src, e.items[0]);
    if (const PyExpr* d = Kwarg(e, "device")) l.device = NameOrString(src, *d);
    if (e.items.size() > 1) l.dtype = Span(src, e.items[1]);
    if (const PyExpr* d = Kwarg(e, "dtype")) l.dtype = Span(src, *d);
    if (const PyExpr* s = Kwarg(e, "size")) l.size = ExprList(src, *s);
    if (const PyExpr* s = Kwarg(e, "stride")) l.stride = ExprList(src, *s);
    if (const PyExpr* o = Kwarg(e, "offset")) l.offset = MakeIndex(Span(src, *o));
    return l;
  }

  std::vector<NodeUser> ParseUsers(const std::string& value, int line) {
    const PyExpr e = ParseValue(value, line);
    std::vector<NodeUser> out;
    if (e.kind == PyExpr::Kind::kName && e.text == "None") return out;
    if (e.kind != PyExpr::Kind::kList) Fail(line, "expected a list of NodeUser");
    for (const auto& it : e.items) {
      NodeUser u;
      if (it.kind == PyExpr::Kind::kCall) {
        const PyExpr* n = Kwarg(it, "node");
        if (n == nullptr && !it.items.empty()) n = &it.items[0];
        if (n != nullptr && n->kind == PyExpr::Kind::kCall) {
          u.node_class = n->text;
          const PyExpr* nm = Kwarg(*n, "name");
          if (nm == nullptr && !n->items.empty()) nm = &n->items[0];
          if (nm != nullptr) u.node = NameOrString(value, *nm);
        } else if (n != nullptr) {
          u.node = Span(value, *n);
        }
        if (const PyExpr* c = Kwarg(it, "can_inplace")) u.can_inplace = c->text == "True";
        if (const PyExpr* w = Kwarg(it, "is_weak")) u.is_weak = w->text == "True";
      } else {
        u.node = Span(value, it);
      }
      out.push_back(std::move(u));
    }
    return out;
  }

  std::vector<std::string> ParseNames(const std::string& value, int line) {
    const PyExpr e = ParseValue(value, line);
    std::vector<std::string> out;
    if (e.kind == PyExpr::Kind::kName && e.text == "None") return out;
    if (e.kind != PyExpr::Kind::kList && e.kind != PyExpr::Kind::kTuple)
      Fail(line, "expected a list of names");
    for (const auto& it : e.items)
      out.push_back(NameOrString(value, it));
    return out;
  }

  // `.outputs = [` … `]` (>= 2.5).
  void ParseOutputs(SchedNode& n, std::string_view value, int base, int line) {
    const std::string_view v = TrimSpace(value);
    ++pos_;
    if (v == "[]") return;
    if (v != "[") Fail(line, "expected `[` to open the outputs block");
    OutputBuffer* cur = nullptr;
    while (pos_ < lines_.size()) {
      const DumpLine& l = lines_[pos_];
      if (l.blank) {
        ++pos_;
        continue;
      }
      const std::string_view t = l.Stripped();
      if (l.indent <= base || l.log_start) {
        if (t == "]") {
          ++pos_;
          return;
        }
        Fail(l.no,
             "the outputs block opened on line " + std::to_string(line) + " ends without `]`");
      }
      const std::size_t colon = t.find(": ");
      if (colon != std::string_view::npos && IsIdentifier(t.substr(0, colon)) &&
          IsIdentifier(t.substr(colon + 2))) {
        n.outputs.emplace_back();
        cur = &n.outputs.back();
        cur->name = std::string(t.substr(0, colon));
        cur->ir_class = std::string(t.substr(colon + 2));
        ++pos_;
        continue;
      }
      const std::size_t eq = t.find(" =");
      if (cur == nullptr || eq == std::string_view::npos || !StartsWith(t, cur->name + ".")) {
        Fail(l.no, "expected `<buffer>: <class>` or `<buffer>.<key> = …` in the outputs block");
      }
      const std::string key(t.substr(cur->name.size() + 1, eq - cur->name.size() - 1));
      const int vline = l.no;
      const std::string val = CollectValue(t.substr(std::min(t.size(), eq + 2)), vline);
      if (key == "layout") {
        cur->layout = MakeLayout(val, ParseValue(val, vline));
      } else if (key == "users") {
        cur->users = ParseUsers(val, vline);
      } else if (key == "aliases") {
        cur->aliases = ParseNames(val, vline);
      } else if (key == "mutations") {
        cur->mutations = ParseNames(val, vline);
      } else {
        n.skipped_keys.push_back(cur->name + "." + key);
      }
    }
    Fail(line, "the outputs block never closes (truncated file?)");
  }

  BodyOp ParseStatement(std::string_view t, int line) {
    BodyOp op;
    op.line = line;
    op.text = std::string(t);
    if (StartsWith(t, "return")) {
      op.kind = BodyOp::Kind::kReturn;
      const std::string_view v = TrimSpace(t.substr(6));
      if (!v.empty()) op.args.emplace_back(v);
      return op;
    }
    const std::size_t eq = t.find(" = ");
    if (eq == std::string_view::npos || !IsIdentifier(t.substr(0, eq))) return op;
    op.result = std::string(t.substr(0, eq));
    const std::string rhs(t.substr(eq + 3));
    const PyExpr e = ParseValue(rhs, line);
    if (e.kind == PyExpr::Kind::kSubscript && e.items.size() == 2) {
      op.kind = BodyOp::Kind::kGetItem;
      op.args.push_back(Span(rhs, e.items[0]));
      if (e.items[1].kind == PyExpr::Kind::kInt) op.item = static_cast<int>(e.items[1].i);
      return op;
    }
    if (e.kind != PyExpr::Kind::kCall) return op;
    for (const auto& a : e.items)
      op.args.push_back(NameOrString(rhs, a));
    for (const auto& [k, v] : e.kwargs)
      op.kwargs.emplace_back(k, NameOrString(rhs, v));
    const std::string& c = e.text;
    if (c == "self.get_index") {
      op.kind = BodyOp::Kind::kGetIndex;
      if (!op.args.empty()) op.index = op.args[0];
    } else if (StartsWith(c, "self.set_indirect")) {
      op.kind = BodyOp::Kind::kSetIndirect;
      op.op = c.substr(5);
    } else if (StartsWith(c, "self.masked_subblock")) {
      op.kind = BodyOp::Kind::kMaskedSubblock;
      op.op = c.substr(5);
    } else if (StartsWith(c, "ops.")) {
      op.kind = BodyOp::Kind::kOps;
      op.op = c.substr(4);
      const auto& a = op.args;
      if ((op.op == "load" || op.op == "store" || op.op == "store_reduction") && a.size() >= 2) {
        op.buffer = a[0];
        op.index = a[1];
      } else if (op.op == "reduction" && a.size() == 6) {  // 2.0: stores directly
        op.buffer = a[0];
        op.reduction_type = a[3];
        op.index = a[4];
      } else if (op.op == "reduction" && a.size() >= 3) {
        op.reduction_type = a[2];
      } else if (op.op == "index_expr" && !a.empty()) {
        op.index = a[0];
      }
    }
    return op;
  }

  // `class <name>_loop_body:` and the lines indented below it.
  LoopBody ParseLoopBody(int class_indent, int line) {
    LoopBody b;
    b.line = line;
    ++pos_;
    int def_indent = -1;
    while (pos_ < lines_.size()) {
      const DumpLine& l = lines_[pos_];
      if (l.blank) {
        std::size_t k = pos_;
        while (k < lines_.size() && lines_[k].blank)
          ++k;
        if (k < lines_.size() && lines_[k].indent > class_indent && !lines_[k].log_start) {
          pos_ = k;
          continue;
        }
        break;
      }
      if (l.indent <= class_indent || l.log_start) break;
      const std::string_view t = l.Stripped();
      if (StartsWith(t, "def ") && EndsWith(t, ":")) {
        const std::size_t open = t.find('(');
        b.blocks.push_back(BodyBlock{
            std::string(
                TrimSpace(t.substr(4, open == std::string_view::npos ? t.size() - 5 : open - 4))),
            {}});
        def_indent = l.indent;
        ++pos_;
        continue;
      }
      if (!b.blocks.empty() && l.indent > def_indent) {
        b.blocks.back().ops.push_back(ParseStatement(t, l.no));
        ++pos_;
        continue;
      }
      const std::size_t eq = t.find(" = ");
      if (eq != std::string_view::npos) {
        const std::string_view key = t.substr(0, eq);
        if (key == "var_ranges") {
          const std::string val = CollectValue(t.substr(eq + 3), l.no);
          const PyExpr e = ParseValue(val, l.no);
          if (e.kind != PyExpr::Kind::kDict) Fail(l.no, "expected var_ranges to be a dict");
          for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
            b.var_ranges.emplace_back(Span(val, e.items[i]), MakeIndex(Span(val, e.items[i + 1])));
          }
          continue;
        }
        if (IsIdentifier(key)) {
          const int vl = l.no;
          const std::string val = CollectValue(t.substr(eq + 3), vl);
          b.indexing.emplace_back(std::string(key), MakeIndex(val));
          continue;
        }
      }
      ++pos_;  // something we do not know inside the class: skipped
    }
    return b;
  }

  SchedNode ParseNode(const Header& h, int base, int line, int depth) {
    if (depth > kMaxNesting) Fail(line, "fused nodes nested too deeply");
    SchedNode n;
    n.name = h.name;
    n.node_class = h.node_class;
    n.ir_classes = h.ir_classes;
    n.kind = KindOf(h);
    n.line = line;
    const std::string own = n.name + ".";
    while (pos_ < lines_.size()) {
      const DumpLine& l = lines_[pos_];
      if (l.blank) {
        ++pos_;
        continue;
      }
      if (l.log_start || l.indent < base) break;
      const std::string_view t = l.Stripped();
      Header sub;
      if (ParseHeader(t, &sub)) break;
      if (StartsWith(t, own)) {
        const std::string_view rest = t.substr(own.size());
        if (StartsWith(rest, "snodes[") && EndsWith(rest, "=")) {
          const int marker = l.no;
          ++pos_;
          while (pos_ < lines_.size() && lines_[pos_].blank)
            ++pos_;
          Header ch;
          if (pos_ >= lines_.size() || !ParseHeader(lines_[pos_].Stripped(), &ch)) {
            Fail(marker, "expected a node dump after `" + std::string(t) + "`");
          }
          const int cbase = lines_[pos_].indent;
          const int cline = lines_[pos_].no;
          ++pos_;
          n.snodes.push_back(ParseNode(ch, cbase, cline, depth + 1));
          n.snode_names.push_back(n.snodes.back().name);
          continue;
        }
        const std::size_t eq = rest.find(" =");
        if (eq == std::string_view::npos) {
          n.skipped_keys.emplace_back(rest);
          ++pos_;
          continue;
        }
        const std::string key(rest.substr(0, eq));
        const std::string_view after = rest.substr(std::min(rest.size(), eq + 2));
        const int vl = l.no;
        if (key == "outputs") {
          ParseOutputs(n, after, base, vl);
          continue;
        }
        const std::string val = CollectValue(after, vl);
        if (key == "writes") {
          n.writes = ParseDeps(val, vl);
        } else if (key == "unmet_dependencies") {
          n.unmet_dependencies = ParseDeps(val, vl);
        } else if (key == "met_dependencies") {
          n.met_dependencies = ParseDeps(val, vl);
        } else if (key == "group.device") {
          n.device = std::string(TrimSpace(val));
        } else if (key == "group.iteration") {
          const PyExpr e = ParseValue(val, vl);
          if (e.kind != PyExpr::Kind::kTuple) Fail(vl, "expected group.iteration to be a tuple");
          for (const auto& it : e.items)
            n.iteration.push_back(ExprList(val, it));
        } else if (key == "sizes") {
          const PyExpr e = ParseValue(val, vl);
          if (e.kind != PyExpr::Kind::kTuple || e.items.size() != 2)
            Fail(vl, "expected sizes to be a pair (iteration ranges, reduction ranges)");
          n.sizes = ExprList(val, e.items[0]);
          n.reduction_sizes = ExprList(val, e.items[1]);
        } else if (key == "node.kernel") {
          n.kernel = std::string(TrimSpace(val));
        } else if (key == "snodes") {
          n.snode_names = ParseNames(val, vl);
        } else if (key == "users") {
          n.users.emplace_back(n.name, ParseUsers(val, vl));
        } else if (key != "aliases" && key != "mutations" && key != "min_input_distance" &&
                   key != "max_input_distance") {
          n.skipped_keys.push_back(key);
        }
        continue;
      }
      const std::size_t eq = t.find(" = ");
      if (eq != std::string_view::npos) {
        const std::string_view lhs = t.substr(0, eq);
        if (EndsWith(lhs, "_layout") && IsIdentifier(lhs)) {
          const int vl = l.no;
          const std::string val = CollectValue(t.substr(eq + 3), vl);
          n.buffer_layouts.emplace_back(std::string(lhs.substr(0, lhs.size() - 7)),
                                        MakeLayout(val, ParseValue(val, vl)));
          continue;
        }
        if (EndsWith(lhs, ".users") && IsIdentifier(lhs.substr(0, lhs.size() - 6))) {
          const int vl = l.no;
          const std::string val = CollectValue(t.substr(eq + 3), vl);
          n.users.emplace_back(std::string(lhs.substr(0, lhs.size() - 6)), ParseUsers(val, vl));
          continue;
        }
      }
      if (StartsWith(t, "class ") && EndsWith(t, "_loop_body:")) {
        n.body = ParseLoopBody(l.indent, l.no);
        continue;
      }
      if (StartsWith(t, n.name + " ")) {  // "<name> Triton code:" and similar blocks
        n.has_backend_code = true;
        const int ind = l.indent;
        ++pos_;
        while (pos_ < lines_.size() && !lines_[pos_].log_start &&
               (lines_[pos_].blank || lines_[pos_].indent > ind))
          ++pos_;
        continue;
      }
      if (l.indent > base) {
        n.skipped_keys.emplace_back(t.substr(0, 40));
        ++pos_;
        continue;
      }
      break;  // a foreign line at our indentation: the node ends
    }
    return n;
  }

  std::string file_;
  std::vector<DumpLine> lines_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string_view NodeKindName(NodeKind k) {
  switch (k) {
    case NodeKind::kScheduler:
      return "scheduler";
    case NodeKind::kTemplate:
      return "template";
    case NodeKind::kFused:
      return "fused";
    case NodeKind::kForeach:
      return "foreach";
    case NodeKind::kExtern:
      return "extern";
    case NodeKind::kNop:
      return "nop";
    case NodeKind::kOther:
      return "other";
  }
  return "other";
}

int LoopBody::CountOps(BodyOp::Kind kind) const {
  int c = 0;
  for (const auto& b : blocks) {
    for (const auto& op : b.ops)
      c += op.kind == kind ? 1 : 0;
  }
  return c;
}

bool LoopBody::HasOp(std::string_view op) const {
  for (const auto& b : blocks) {
    for (const auto& o : b.ops) {
      if (o.kind == BodyOp::Kind::kOps && o.op == op) return true;
    }
  }
  return false;
}

bool SchedNode::IsReduction() const {
  if (!reduction_sizes.empty()) return true;
  if (body && body->HasOp("reduction")) return true;
  for (const auto& s : snodes) {
    if (s.IsReduction()) return true;
  }
  return false;
}

std::vector<const SchedNode*> SchedNode::Leaves() const {
  std::vector<const SchedNode*> out;
  if (snodes.empty()) {
    out.push_back(this);
    return out;
  }
  for (const auto& s : snodes) {
    for (const auto* l : s.Leaves())
      out.push_back(l);
  }
  return out;
}

int IrFile::CountKind(NodeKind k) const {
  int c = 0;
  for (const auto& n : nodes)
    c += n.kind == k ? 1 : 0;
  return c;
}

bool LooksLikeInductorIr(std::string_view text) {
  const std::vector<DumpLine> lines = SplitDumpLines(text.substr(0, 1 << 20));
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    Header h;
    if (!ParseHeader(lines[i].Stripped(), &h)) continue;
    if (h.node_class.find("SchedulerNode") == std::string::npos &&
        h.node_class.find("Fused") == std::string::npos)
      continue;
    if (StartsWith(lines[i + 1].Stripped(), h.name + ".")) return true;
  }
  return false;
}

IrFile ParseInductorIr(const std::string& text, const std::string& file) {
  IrReader r(text, file);
  return r.Read();
}

IrFile LoadInductorIrFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  IrFile f = ParseInductorIr(ss.str(), path.string());
  const std::string name = path.filename().string();
  if (f.stage.empty()) {
    if (name.find("pre_fusion") != std::string::npos) f.stage = "pre";
    if (name.find("post_fusion") != std::string::npos) f.stage = "post";
  }
  return f;
}

}  // namespace af::importers::inductor
