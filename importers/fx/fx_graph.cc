// The FX graph reader: finds the module's forward, reads its signature and one statement per
// line, and builds a model graph. Statements are first parsed (so that nodes whose results are
// indexed by getitem are known to return tuples before they are built), then turned into nodes.
#include "autofuse/importers/fx_graph.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "../common/bracket_scan.h"
#include "autofuse/model/dtype_code.h"
#include "autofuse/model/infer.h"
#include "autofuse/model/scope_markers.h"
#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "fx_annotation.h"
#include "fx_runnable.h"
#include "py_expr.h"

namespace af::importers {
namespace {

using fx::LexError;
using fx::PyExpr;
using fx::Token;
using model::Arg;
using model::Graph;

constexpr std::size_t kMaxJoinedLines = 1000;  // a statement or signature spanning more is broken
constexpr std::int64_t kMaxTupleIndex = 4096;  // getitem indices beyond this are refused

// Indentation width as Python counts it: a tab advances to the next multiple of 8.
std::size_t Indent(std::string_view l) {
  std::size_t width = 0;
  for (char c : l) {
    if (c == ' ') {
      ++width;
    } else if (c == '\t') {
      width = (width / 8 + 1) * 8;
    } else {
      break;
    }
  }
  return width;
}

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

struct Stmt {
  int line = 0;
  std::string text;
  std::string target;
  std::optional<std::string> annotation;
  std::size_t annotation_offset = 0;
  PyExpr rhs;
  bool is_return = false;
  bool has_rhs = false;
  std::vector<std::string> provenance;
};

struct Binding {
  Arg arg;
  int tuple_node = -1;  // the node whose tuple result this name stands for
};

const char* PyOperatorName(std::string_view op, bool unary) {
  if (unary) {
    if (op == "-") return "neg";
    if (op == "+") return "pos";
    if (op == "~") return "invert";
    if (op == "not") return "not_";
    return nullptr;
  }
  static constexpr std::pair<std::string_view, const char*> kOps[] = {
      {"+", "add"}, {"-", "sub"},  {"*", "mul"},     {"/", "truediv"}, {"//", "floordiv"},
      {"%", "mod"}, {"**", "pow"}, {"@", "matmul"},  {"<", "lt"},      {">", "gt"},
      {"<=", "le"}, {">=", "ge"},  {"==", "eq"},     {"!=", "ne"},     {"&", "and_"},
      {"|", "or_"}, {"^", "xor"},  {"<<", "lshift"}, {">>", "rshift"},
  };
  for (const auto& [k, v] : kOps) {
    if (k == op) return v;
  }
  return nullptr;
}

class FxReader {
 public:
  FxReader(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {
    std::size_t start = 0;
    while (start <= text_.size()) {
      std::size_t nl = text_.find('\n', start);
      if (nl == std::string::npos) nl = text_.size();
      std::string_view l(text_.data() + start, nl - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.push_back(l);
      if (nl == text_.size()) break;
      start = nl + 1;
    }
  }

  Graph Read() {
    g_.file = file_;
    const std::size_t def = FindForward();
    const std::size_t body = ReadSignature(def);
    ReadBody(def, body);
    BuildGraph();
    ApplyRunnableInfo();
    model::ApplyScopeMarkers(g_);
    model::InferTypes(g_);
    return std::move(g_);
  }

 private:
  [[noreturn]] void Error(int line, std::size_t col, const std::string& msg) const {
    throw InputError(SourceLoc{file_, line, static_cast<int>(col)}, msg);
  }

  // The `def forward(self` of the outermost class that has one.
  std::size_t FindForward() {
    std::optional<std::size_t> best;
    std::size_t best_class_indent = 0;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string_view t = TrimSpace(lines_[i]);
      if (!StartsWith(t, "def forward(")) continue;
      const std::size_t ind = Indent(lines_[i]);
      std::size_t class_indent = 0;
      std::string class_name;
      for (std::size_t j = i; j-- > 0;) {
        const std::string_view ct = TrimSpace(lines_[j]);
        if (StartsWith(ct, "class ") && Indent(lines_[j]) < ind) {
          class_indent = Indent(lines_[j]);
          std::string_view n = TrimSpace(ct.substr(6));
          const std::size_t end = n.find_first_of("(:");
          class_name = std::string(TrimSpace(n.substr(0, end)));
          break;
        }
      }
      if (!best || class_indent < best_class_indent) {
        best = i;
        best_class_indent = class_indent;
        g_.name = class_name.empty() ? "forward" : class_name;
      }
    }
    if (!best) Error(1, 0, "no `def forward(self, ...)` found: not a printed FX graph module");
    return *best;
  }

  // Reads the parameters; returns the index of the first body line.
  std::size_t ReadSignature(std::size_t def) {
    std::string sig;
    int depth = 0;
    bool opened = false;
    std::size_t i = def;
    for (; i < lines_.size(); ++i) {
      if (i - def > kMaxJoinedLines) break;
      sig += lines_[i];
      sig += ' ';
      for (char c : lines_[i]) {
        if (c == '(') {
          ++depth;
          opened = true;
        }
        if (c == ')') --depth;
      }
      if (opened && depth <= 0) break;
    }
    const int line = static_cast<int>(def + 1);
    if (!opened || depth > 0 || i >= lines_.size()) {
      Error(line, Indent(lines_[def]) + 1, "the signature of forward never closes");
    }
    const std::size_t open = sig.find('(');
    std::vector<Token> toks;
    try {
      toks = fx::Tokenize(std::string_view(sig).substr(open + 1));
    } catch (const LexError& e) {
      Error(line, open + 2 + e.offset, e.message);
    }
    // Split at depth-0 commas up to the closing ')'.
    std::size_t p = 0;
    int d = 0;
    std::vector<std::pair<std::size_t, std::size_t>> params;
    std::size_t start = 0;
    for (; p < toks.size() && toks[p].kind != Token::Kind::kEnd; ++p) {
      const Token& t = toks[p];
      if (t.kind != Token::Kind::kOp) continue;
      if (t.text == "(" || t.text == "[" || t.text == "{") ++d;
      if (t.text == ")" || t.text == "]" || t.text == "}") {
        if (d == 0) break;
        --d;
      }
      if (t.text == "," && d == 0) {
        params.emplace_back(start, p);
        start = p + 1;
      }
    }
    if (p >= toks.size() || toks[p].kind == Token::Kind::kEnd) {
      Error(line, open + 1, "the signature of forward never closes");
    }
    params.emplace_back(start, p);
    const std::string_view ptext = std::string_view(sig).substr(open + 1);
    bool first = true;
    for (const auto& [b, e] : params) {
      std::size_t k = b;
      while (k < e && toks[k].kind == Token::Kind::kOp &&
             (toks[k].text == "*" || toks[k].text == "**"))
        ++k;
      if (k >= e) {
        if (b == e) continue;  // `forward()` or a trailing comma
        Error(line, open + 2 + toks[b].begin, "bad parameter");
      }
      if (toks[k].kind != Token::Kind::kName) {
        Error(line, open + 2 + toks[k].begin, "expected a parameter name");
      }
      const std::string name = toks[k].text;
      if (first && name == "self") {
        first = false;
        continue;
      }
      first = false;
      model::ValueType type;
      model::TypeSource source = model::TypeSource::kNone;
      if (k + 1 < e && toks[k + 1].kind == Token::Kind::kOp && toks[k + 1].text == ":") {
        std::size_t a_end = k + 2;
        while (a_end < e && !(toks[a_end].kind == Token::Kind::kOp && toks[a_end].text == "="))
          ++a_end;
        if (a_end == k + 2) Error(line, open + 2 + toks[k + 1].begin, "empty annotation");
        std::string ann;
        std::size_t ann_off = toks[k + 2].begin;
        if (a_end == k + 3 && toks[k + 2].kind == Token::Kind::kString) {
          ann = toks[k + 2].text;
        } else {
          ann =
              std::string(ptext.substr(toks[k + 2].begin, toks[a_end - 1].end - toks[k + 2].begin));
        }
        if (auto t = Annotation(ann, line, open + 2 + ann_off)) {
          type = *t;
          source = model::TypeSource::kAnnotation;
        }
      }
      if (names_.contains(name))
        Error(line, open + 2 + toks[k].begin, "duplicate parameter " + name);
      const int id = g_.AddInput(name, type, source);
      names_[name] = Binding{Arg::Value(id), -1};
    }
    return i + 1;
  }

  // An annotation's type; nullopt (with a diagnostic) for forms we do not know.
  std::optional<model::ValueType> Annotation(const std::string& text, int line, std::size_t col) {
    try {
      auto t = fx::ParseAnnotation(text);
      if (!t) {
        g_.diagnostics.push_back({model::Diagnostic::Kind::kAnnotation, line, -1,
                                  "annotation '" + text + "' not understood"});
      }
      return t;
    } catch (const fx::AnnotationError& e) {
      Error(line, col + e.offset, "annotation '" + text + "': " + e.message);
    }
  }

  void ReadBody(std::size_t def, std::size_t first) {
    const std::size_t def_indent = Indent(lines_[def]);
    std::vector<std::string> provenance;
    bool last_was_comment = false;
    for (std::size_t i = first; i < lines_.size(); ++i) {
      const std::string_view raw = lines_[i];
      const std::string_view t = TrimSpace(raw);
      if (t.empty()) continue;
      if (t[0] == '#') {
        if (!last_was_comment) provenance.clear();
        last_was_comment = true;
        if (StartsWith(t, "# File:")) provenance.emplace_back(TrimSpace(t.substr(1)));
        continue;
      }
      if (Indent(raw) <= def_indent) break;
      last_was_comment = false;
      Stmt s;
      s.line = static_cast<int>(i + 1);
      s.provenance = provenance;
      // Join continuation lines while brackets are open.
      std::string text(raw);
      int depth = BracketDelta(raw, HashComments::kStop);
      std::size_t j = i;
      while (depth > 0 && j + 1 < lines_.size() && j - i < kMaxJoinedLines) {
        ++j;
        text += ' ';
        text += lines_[j];
        depth += BracketDelta(lines_[j], HashComments::kStop);
      }
      i = j;
      s.text = std::move(text);
      ParseStatement(s);
      const bool is_return = s.is_return;
      if (s.has_rhs || s.is_return) stmts_.push_back(std::move(s));
      if (is_return) return;
    }
    std::size_t last = lines_.size();
    while (last > 1 && TrimSpace(lines_[last - 1]).empty())
      --last;
    Error(static_cast<int>(last), 0, "forward ends without a return statement (truncated file?)");
  }

  void ParseStatement(Stmt& s) {
    std::vector<Token> toks;
    try {
      toks = fx::Tokenize(s.text);
    } catch (const LexError& e) {
      Error(s.line, e.offset + 1, e.message);
    }
    // Only the first `;`-separated part matters: the rest are `a = b = None` deletions.
    std::size_t end = 0;
    int depth = 0;
    for (; end < toks.size() && toks[end].kind != Token::Kind::kEnd; ++end) {
      const Token& t = toks[end];
      if (t.kind != Token::Kind::kOp) continue;
      if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
      if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
      if (t.text == ";" && depth == 0) break;
    }
    if (depth != 0) {
      Error(s.line, Indent(s.text) + 1, "unbalanced brackets");
    }
    Token stop;
    stop.kind = Token::Kind::kEnd;
    stop.begin = stop.end = toks[end].begin;  // the `;` or the end of the statement
    toks.resize(end);
    toks.push_back(stop);
    if (toks[0].kind == Token::Kind::kEnd) return;
    const std::size_t col0 = toks[0].begin + 1;
    if (toks[0].kind == Token::Kind::kName) {
      const std::string& w = toks[0].text;
      if (w == "pass" || w == "import" || w == "from" || w == "del" || w == "assert") return;
      if (w == "return") {
        // FX always prints what forward returns; a bare `return` is a cut-off line.
        s.is_return = true;
        if (toks[1].kind == Token::Kind::kEnd) {
          Error(s.line, toks[0].end + 1, "`return` without a value (truncated file?)");
        }
        s.rhs = Parse(s, toks, 1);
        s.has_rhs = true;
        return;
      }
    }
    if (toks[0].kind != Token::Kind::kName || toks[1].kind != Token::Kind::kOp ||
        (toks[1].text != "=" && toks[1].text != ":")) {
      Error(s.line, col0, "expected `name = ...` or `name: type = ...`");
    }
    s.target = toks[0].text;
    std::size_t eq = 1;
    if (toks[1].text == ":") {
      std::size_t k = 2;
      while (toks[k].kind != Token::Kind::kEnd &&
             !(toks[k].kind == Token::Kind::kOp && toks[k].text == "="))
        ++k;
      if (toks[k].kind == Token::Kind::kEnd) Error(s.line, toks[1].begin + 1, "expected '='");
      if (k == 2) Error(s.line, toks[1].begin + 1, "empty annotation");
      if (k == 3 && toks[2].kind == Token::Kind::kString) {
        s.annotation = toks[2].text;
      } else {
        s.annotation = s.text.substr(toks[2].begin, toks[k - 1].end - toks[2].begin);
      }
      s.annotation_offset = toks[2].begin;
      eq = k;
    }
    if (toks[eq + 1].kind == Token::Kind::kEnd)
      Error(s.line, toks[eq].begin + 1, "nothing after '='");
    s.rhs = Parse(s, toks, eq + 1);
    s.has_rhs = true;
  }

  PyExpr Parse(const Stmt& s, const std::vector<Token>& toks, std::size_t pos) {
    try {
      PyExpr e = fx::ParseExpr(toks, pos);
      if (toks[pos].kind != Token::Kind::kEnd) {
        throw LexError{"unexpected '" + toks[pos].text + "'", toks[pos].begin};
      }
      return e;
    } catch (const LexError& e) {
      Error(s.line, e.offset + 1, e.message);
    }
  }

  // ---------------------------------------------------------------- building

  void BuildGraph() {
    // Names indexed by getitem return tuples.
    for (const auto& s : stmts_) {
      if (!s.has_rhs) continue;
      if (s.rhs.kind == PyExpr::Kind::kSubscript && s.rhs.items[0].kind == PyExpr::Kind::kName) {
        subscripted_.insert(s.rhs.items[0].text);
      }
      if (s.rhs.kind == PyExpr::Kind::kCall && s.rhs.text == "operator.getitem" &&
          !s.rhs.items.empty() && s.rhs.items[0].kind == PyExpr::Kind::kName) {
        subscripted_.insert(s.rhs.items[0].text);
      }
    }
    for (const auto& s : stmts_) {
      if (s.is_return) {
        if (s.has_rhs) Return(s);
        continue;
      }
      Assign(s);
    }
  }

  void Bind(const Stmt& s, Binding b) {
    if (names_.contains(s.target))
      Error(s.line, Indent(s.text) + 1, "'" + s.target + "' is defined twice");
    names_[s.target] = std::move(b);
  }

  void Annotate(const Stmt& s, int value_id) {
    if (!s.annotation) return;
    if (auto t = Annotation(*s.annotation, s.line, s.annotation_offset + 1)) {
      model::Value& v = g_.value(value_id);
      v.type = *t;
      v.source = model::TypeSource::kAnnotation;
      g_.NoteSymbols(*t);
    }
  }

  int AddNode(const Stmt& s, model::OpName op, std::vector<Arg> args,
              std::vector<std::pair<std::string, Arg>> kwargs, model::NodeKind kind, bool tuple) {
    const int id = g_.AddNode(s.target, std::move(op), std::move(args), std::move(kwargs),
                              tuple ? 0 : 1, kind);
    model::Node& n = g_.node(id);
    n.line = s.line;
    n.provenance = s.provenance;
    if (tuple) {
      Bind(s, Binding{Arg::List({}, true), id});
    } else {
      Bind(s, Binding{Arg::Value(n.outputs[0]), -1});
      Annotate(s, n.outputs[0]);
    }
    return id;
  }

  void Assign(const Stmt& s) {
    const PyExpr& r = s.rhs;
    switch (r.kind) {
      case PyExpr::Kind::kCall: {
        if (r.text == "operator.getitem" && r.items.size() == 2 && r.kwargs.empty()) {
          GetItem(s, r.items[0], r.items[1]);
          return;
        }
        std::vector<Arg> args;
        for (const auto& a : r.items)
          args.push_back(ToArg(s, a));
        std::vector<std::pair<std::string, Arg>> kwargs;
        for (const auto& [k, v] : r.kwargs)
          kwargs.emplace_back(k, ToArg(s, v));
        if (StartsWith(r.text, "torch.ops.")) {
          auto op = model::ParseOpName(r.text);
          if (!op) Error(s.line, r.begin + 1, "bad op name '" + r.text + "'");
          const bool tuple =
              !s.annotation && (subscripted_.contains(s.target) || model::IsMultiOutputOp(*op));
          AddNode(s, *op, std::move(args), std::move(kwargs), model::NodeKind::kOp, tuple);
        } else if (const std::size_t dot0 = r.text.find('.');
                   dot0 != std::string::npos && names_.contains(r.text.substr(0, dot0)) &&
                   r.text.find('.', dot0 + 1) == std::string::npos) {
          // A method call on a graph value (Dynamo-level graphs): `x.sin()`; the receiver
          // becomes the first argument.
          PyExpr receiver;
          receiver.kind = PyExpr::Kind::kName;
          receiver.text = r.text.substr(0, dot0);
          receiver.begin = r.begin;
          args.insert(args.begin(), ToArg(s, receiver));
          const bool tuple = !s.annotation && subscripted_.contains(s.target);
          AddNode(s, model::OpName{"method", r.text.substr(dot0 + 1), ""}, std::move(args),
                  std::move(kwargs), model::NodeKind::kPython, tuple);
        } else {
          model::OpName op;
          const std::size_t dot = r.text.rfind('.');
          op.ns = dot == std::string::npos ? "builtins" : r.text.substr(0, dot);
          op.name = dot == std::string::npos ? r.text : r.text.substr(dot + 1);
          const bool tuple = !s.annotation && subscripted_.contains(s.target);
          AddNode(s, op, std::move(args), std::move(kwargs), model::NodeKind::kPython, tuple);
        }
        return;
      }
      case PyExpr::Kind::kSubscript:
        GetItem(s, r.items[0], r.items[1]);
        return;
      case PyExpr::Kind::kBinary:
      case PyExpr::Kind::kUnary: {
        const char* name = PyOperatorName(r.text, r.kind == PyExpr::Kind::kUnary);
        if (name == nullptr) Error(s.line, r.begin + 1, "unsupported operator '" + r.text + "'");
        // A negative literal is a constant, not an operation.
        if (r.kind == PyExpr::Kind::kUnary && IsNumber(r.items[0])) {
          Bind(s, Binding{ToArg(s, r), -1});
          return;
        }
        std::vector<Arg> args;
        for (const auto& a : r.items)
          args.push_back(ToArg(s, a));
        AddNode(s, model::OpName{"operator", name, ""}, std::move(args), {},
                model::NodeKind::kPython, false);
        return;
      }
      case PyExpr::Kind::kName:
        if (StartsWith(r.text, "self.")) {
          const int id = g_.AddAttr(s.target);
          attr_paths_[id] = r.text.substr(5);
          Bind(s, Binding{Arg::Value(id), -1});
          Annotate(s, id);
          return;
        }
        [[fallthrough]];
      default:
        Bind(s, Binding{ToArg(s, r), -1});
        return;
    }
  }

  static bool IsNumber(const PyExpr& e) {
    return e.kind == PyExpr::Kind::kInt || e.kind == PyExpr::Kind::kFloat ||
           (e.kind == PyExpr::Kind::kName && (e.text == "inf" || e.text == "nan"));
  }

  void GetItem(const Stmt& s, const PyExpr& base, const PyExpr& index) {
    if (base.kind == PyExpr::Kind::kName) {
      auto it = names_.find(base.text);
      if (it != names_.end() && it->second.tuple_node >= 0 && index.kind == PyExpr::Kind::kInt) {
        if (index.big || index.i > kMaxTupleIndex) {
          Error(s.line, index.begin + 1, "tuple index " + index.text + " is too large");
        }
        const int node_id = it->second.tuple_node;
        while (static_cast<std::int64_t>(g_.node(node_id).outputs.size()) <= index.i) {
          const std::size_t k = g_.node(node_id).outputs.size();
          g_.AddOutput(node_id, base.text + "[" + std::to_string(k) + "]");
        }
        const int vid = g_.node(node_id).outputs[static_cast<std::size_t>(index.i)];
        model::Value& v = g_.value(vid);
        if (v.name == base.text + "[" + index.text + "]") v.name = s.target;
        Bind(s, Binding{Arg::Value(vid), -1});
        if (v.source == model::TypeSource::kNone) Annotate(s, vid);
        return;
      }
    }
    std::vector<Arg> args{ToArg(s, base), ToArg(s, index)};
    AddNode(s, model::OpName{"operator", "getitem", ""}, std::move(args), {},
            model::NodeKind::kPython, !s.annotation && subscripted_.contains(s.target));
  }

  Arg ResolveName(const Stmt& s, const PyExpr& e) {
    const std::string& n = e.text;
    if (n == "None") return Arg::None();
    if (n == "True") return Arg::Bool(true);
    if (n == "False") return Arg::Bool(false);
    if (n == "inf" || n == "math.inf") return Arg::Float(HUGE_VAL, "inf");
    if (n == "nan" || n == "math.nan") return Arg::Float(std::nan(""), "nan");
    if (auto it = names_.find(n); it != names_.end()) {
      if (it->second.tuple_node >= 0) {
        std::vector<Arg> items;
        for (int v : g_.node(it->second.tuple_node).outputs)
          items.push_back(Arg::Value(v));
        return Arg::List(std::move(items), true);
      }
      return it->second.arg;
    }
    if (StartsWith(n, "torch.")) {
      if (auto dt = model::DTypeFromTorchName(n)) return Arg::DType(*dt, n);
      Arg a;
      a.text = n;
      if (n == "torch.strided" || StartsWith(n, "torch.sparse") || n == "torch._mkldnn" ||
          n == "torch.jagged") {
        a.kind = Arg::Kind::kLayout;
      } else if (n == "torch.contiguous_format" || n == "torch.channels_last" ||
                 n == "torch.channels_last_3d" || n == "torch.preserve_format") {
        a.kind = Arg::Kind::kMemoryFormat;
      } else {
        a.kind = Arg::Kind::kOther;
      }
      return a;
    }
    Error(s.line, e.begin + 1, "'" + n + "' is not defined");
  }

  Arg ToArg(const Stmt& s, const PyExpr& e) {
    switch (e.kind) {
      case PyExpr::Kind::kName:
        return ResolveName(s, e);
      case PyExpr::Kind::kInt:
        if (e.big) {
          Arg a;
          a.kind = Arg::Kind::kOther;
          a.text = e.text;
          return a;
        }
        return Arg::Int(e.i);
      case PyExpr::Kind::kFloat:
        return Arg::Float(e.f, e.text);
      case PyExpr::Kind::kString:
        return Arg::String(e.text);
      case PyExpr::Kind::kList:
      case PyExpr::Kind::kTuple: {
        std::vector<Arg> items;
        for (const auto& it : e.items)
          items.push_back(ToArg(s, it));
        return Arg::List(std::move(items), e.kind == PyExpr::Kind::kTuple);
      }
      case PyExpr::Kind::kUnary:
        if (e.text == "-" && IsNumber(e.items[0])) {
          Arg a = ToArg(s, e.items[0]);
          if (a.kind == Arg::Kind::kInt && a.i != INT64_MIN) {
            a.i = -a.i;
          } else if (a.kind == Arg::Kind::kFloat) {
            a.f = -a.f;
            a.text = "-" + a.text;
          } else {
            a.text = "-" + a.text;
          }
          return a;
        }
        break;
      case PyExpr::Kind::kCall:
        if (e.text == "device" || e.text == "torch.device") return Arg::Device(DeviceText(e));
        break;
      default:
        break;
    }
    // Anything else is kept as its text (its names are not followed as data edges).
    Arg a;
    a.kind = Arg::Kind::kOther;
    a.text = s.text.substr(e.begin, e.end - e.begin);
    return a;
  }

  static std::string DeviceText(const PyExpr& e) {
    std::string type;
    std::string index;
    if (!e.items.empty() && e.items[0].kind == PyExpr::Kind::kString) type = e.items[0].text;
    if (e.items.size() >= 2 && e.items[1].kind == PyExpr::Kind::kInt) index = e.items[1].text;
    for (const auto& [k, v] : e.kwargs) {
      if (k == "type" && v.kind == PyExpr::Kind::kString) type = v.text;
      if (k == "index" && v.kind == PyExpr::Kind::kInt) index = v.text;
    }
    return index.empty() ? type : type + ":" + index;
  }

  void Return(const Stmt& s) {
    const PyExpr* e = &s.rhs;
    if (e->kind == PyExpr::Kind::kCall && e->text == "pytree.tree_unflatten" && !e->items.empty()) {
      e = e->items.data();
    }
    if (e->kind == PyExpr::Kind::kTuple || e->kind == PyExpr::Kind::kList) {
      for (const auto& it : e->items)
        g_.outputs.push_back(ToArg(s, it));
    } else {
      g_.outputs.push_back(ToArg(s, *e));
    }
  }

  // fx_graph_runnable.py: input descriptions for unannotated inputs, and the torch version.
  void ApplyRunnableInfo() {
    const fx::RunnableInfo info = fx::ReadRunnableInfo(lines_);
    g_.torch_version = info.torch_version;
    for (const auto& [line, msg] : info.problems) {
      g_.diagnostics.push_back({model::Diagnostic::Kind::kAnnotation, line, -1,
                                "input description not understood: " + msg});
    }
    for (const auto& [id, path] : attr_paths_) {
      model::Value& v = g_.value(id);
      if (v.type.IsKnown()) continue;
      for (const auto& [name, type] : info.buffers) {
        if (name != path) continue;
        v.type = type;
        v.source = model::TypeSource::kAnnotation;
      }
    }
    if (info.inputs.empty()) return;
    bool by_name = true;
    for (const auto& in : info.inputs)
      by_name = by_name && !in.name.empty();
    for (std::size_t k = 0; k < info.inputs.size(); ++k) {
      const auto& in = info.inputs[k];
      model::Value* v = nullptr;
      if (by_name) {
        for (int id : g_.inputs) {
          if (g_.value(id).name == in.name) v = &g_.value(id);
        }
      } else if (k < g_.inputs.size()) {
        v = &g_.value(g_.inputs[k]);
      }
      if (v == nullptr || v->type.IsKnown()) continue;
      v->type = in.type;
      v->source = model::TypeSource::kAnnotation;
      v->hint = in.hint;
      g_.NoteSymbols(in.type);
    }
  }

  const std::string& text_;
  std::string file_;
  std::vector<std::string_view> lines_;
  std::vector<Stmt> stmts_;
  std::unordered_set<std::string> subscripted_;
  std::unordered_map<std::string, Binding> names_;
  std::unordered_map<int, std::string> attr_paths_;  // attribute value id -> path after `self.`
  Graph g_;
};

}  // namespace

bool LooksLikeFxGraph(std::string_view text) {
  bool forward = false;
  bool klass = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view t = TrimSpace(text.substr(start, nl - start));
    if (StartsWith(t, "def forward(self")) forward = true;
    if (StartsWith(t, "class ") && t.back() == ':') klass = true;
    start = nl + 1;
  }
  return forward && klass &&
         (text.find("torch.ops.") != std::string_view::npos ||
          text.find(": \"f32[") != std::string_view::npos ||
          text.find("return") != std::string_view::npos);
}

model::Graph ParseFxGraph(const std::string& text, const std::string& file) {
  FxReader r(text, file);
  return r.Read();
}

model::Graph LoadFxGraphFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ParseFxGraph(ss.str(), path.string());
}

}  // namespace af::importers
