// AutoFuse's human-readable AscGraph dump (ascgraph_*.txt): a tolerant line reader of VIEW 2
// ("Graph Structure") into ir::Graph. See dfx_dump.h; the layout is described in docs/formats.md
// ("AutoFuse DFX dump folders").
#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include "autofuse/importers/dfx_dump.h"
#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "autofuse/sym/expr.h"

namespace af::importers::dfx {
namespace {

constexpr std::size_t kMaxFileBytes = std::size_t{256} << 20;
constexpr std::size_t kMaxNodes = 200000;
constexpr std::size_t kMaxAxes = 4096;
constexpr std::int64_t kMaxOutputIndex = 1023;
constexpr std::size_t kMaxTensors = 400000;  // output slots of the whole graph (memory bound)
constexpr std::size_t kShown = 60;           // characters of a bad line quoted in a message

std::string Quote(std::string_view s) {
  std::string out(s.substr(0, kShown));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return "`" + out + (s.size() > kShown ? "…`" : "`");
}

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::optional<std::int64_t> ToInt(std::string_view s) {
  s = TrimSpace(s);
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto r = std::from_chars(s.data(), end, v);
  if (s.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return v;
}

// Splits `a, b(c, d), e` at top-level commas (brackets and double-quoted strings nest).
std::vector<std::string_view> SplitTop(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(TrimSpace(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(TrimSpace(s.substr(start)));
  // The legacy form ends lists with ", " ({z0, z1, }): drop one empty last item.
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// A pending reference resolved once every axis / node is known (forward references allowed).
struct AxisRef {
  std::string name;
  int line = 0;
};

struct PendingTensor {
  ir::Tensor t;
  std::vector<AxisRef> axis;
  std::vector<AxisRef> vectorized;
  bool has_axis = false;
};

struct PendingNode {
  ir::Node n;
  int line = 0;
  std::vector<AxisRef> sched_axis;
  std::optional<AxisRef> loop_axis;
  std::vector<std::pair<std::string, int>> inputs;  // "producer.y[k]" text, line
  std::vector<std::optional<PendingTensor>> outputs;
  int current_output = -1;  // the .y block the following tensor properties belong to
};

struct PendingAxis {
  ir::Axis a;
  int line = 0;
  std::vector<AxisRef> from;
};

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)) { Split(text); }

  AscGraphText Run() {
    AscGraphText out;
    out.file = file_;
    std::size_t i = FindStructure(&out.three_views);
    i = Header(i, &out.name);
    bool saw_nodes = false;
    enum class Section { kNone, kSizes, kAxis, kNodes } section = Section::kNone;
    for (; i < lines_.size(); ++i) {
      const std::string_view raw = lines_[i];
      const std::string_view t = TrimSpace(raw);
      const int ln = static_cast<int>(i) + 1;
      if (t.empty()) continue;
      if (IsEnd(t)) break;
      if (t == "Sizes:") {
        section = Section::kSizes;
        continue;
      }
      if (t == "Axis:") {
        section = Section::kAxis;
        continue;
      }
      if (t == "Nodes:") {
        section = Section::kNodes;
        saw_nodes = true;
        continue;
      }
      switch (section) {
        case Section::kSizes:
          SizeLine(t, ln);
          break;
        case Section::kAxis:
          AxisLine(t, ln);
          break;
        case Section::kNodes:
          NodeLine(t, ln);
          break;
        case Section::kNone:
          ++skipped_;
          break;
      }
    }
    if (!saw_nodes) {
      Fail(static_cast<int>(std::min(i, lines_.size())) + (i < lines_.size() ? 1 : 0),
           "expected `Nodes:`", i < lines_.size() ? Quote(TrimSpace(lines_[i])) : "end of file");
    }
    if (nodes_.empty()) Fail(static_cast<int>(i), "expected at least one node", "none");
    out.graph = Build(&out.node_lines);
    out.graph.name = out.name;
    out.skipped_lines = skipped_;
    return out;
  }

 private:
  [[noreturn]] void Fail(int line, const std::string& expected, const std::string& found) const {
    throw InputError(SourceLoc{file_, line, 0}, expected + ", found " + found);
  }

  void Split(const std::string& text) {
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string_view l(text.data() + start, end - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.push_back(l);
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  static bool IsRule(std::string_view t) {
    return t.size() >= 8 &&
           std::all_of(t.begin(), t.end(), [](char c) { return c == '-' || c == '='; });
  }

  // VIEW 2 ends at the rule above VIEW 3 or the closing banner (rules never occur inside it).
  static bool IsEnd(std::string_view t) {
    return StartsWith(t, "VIEW ") || StartsWith(t, "End of Dump") || IsRule(t);
  }

  // The first line of VIEW 2 (after its rule), or of the whole text in the legacy form.
  std::size_t FindStructure(bool* three_views) const {
    bool any_view = false;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string_view t = TrimSpace(lines_[i]);
      if (!StartsWith(t, "VIEW ")) continue;
      any_view = true;
      if (StartsWith(t, "VIEW 2")) {
        *three_views = true;
        std::size_t j = i + 1;
        while (j < lines_.size() && (IsRule(TrimSpace(lines_[j])) || TrimSpace(lines_[j]).empty()))
          ++j;
        return j;
      }
    }
    if (any_view) {
      Fail(static_cast<int>(lines_.size()), "expected `VIEW 2: Graph Structure`", "end of file");
    }
    *three_views = false;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string_view t = TrimSpace(lines_[i]);
      if (t.empty() || IsRule(t)) continue;
      return i;
    }
    Fail(static_cast<int>(lines_.size()), "expected `Graph: <name>`", "an empty file");
  }

  std::size_t Header(std::size_t i, std::string* name) const {
    if (i >= lines_.size()) {
      Fail(static_cast<int>(lines_.size()), "expected `Graph: <name>`", "end of file");
    }
    const std::string_view t = TrimSpace(lines_[i]);
    if (!StartsWith(t, "Graph:")) {
      Fail(static_cast<int>(i) + 1, "expected `Graph: <name>`", Quote(t));
    }
    *name = std::string(TrimSpace(t.substr(6)));
    if (name->empty())
      Fail(static_cast<int>(i) + 1, "expected a graph name after `Graph:`", "none");
    return i + 1;
  }

  sym::Expr ParseExpr(std::string_view s, int line, const std::string& what) const {
    s = TrimSpace(s);
    if (s.empty()) Fail(line, "expected " + what, "nothing");
    try {
      return sym::Parse(s);
    } catch (const sym::Error& e) {
      Fail(line, "expected " + what + " (an expression)", Quote(s) + " (" + e.what() + ")");
    }
  }

  // `  s0: VAR` | `  c0: CONST(100)` | `  c0: 100` (constant size var) | `  n: <expr>`.
  void SizeLine(std::string_view t, int line) {
    const std::size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      Fail(line, "expected `<name>: VAR` in Sizes", Quote(t));
    }
    const std::string name(TrimSpace(t.substr(0, colon)));
    std::string_view v = TrimSpace(t.substr(colon + 1));
    if (!std::all_of(name.begin(), name.end(), IsIdentChar)) {
      Fail(line, "expected a size variable name", Quote(name));
    }
    if (v == "VAR") {
      sizes_.push_back({name, std::nullopt});
      return;
    }
    if (StartsWith(v, "CONST(") && v.back() == ')') v = v.substr(6, v.size() - 7);
    const sym::Expr e = ParseExpr(v, line, "VAR or a constant for size " + name);
    if (const auto c = e.AsInt()) {
      sizes_.push_back({name, *c});
    } else {
      sizes_.push_back({name, std::nullopt});  // a derived size: kept as a variable
    }
  }

  std::vector<AxisRef> NameList(std::string_view s, int line, const std::string& what) const {
    s = TrimSpace(s);
    if (s.size() < 2 || s.front() != '{' || s.back() != '}') {
      Fail(line, "expected " + what + " as {a, b, …}", Quote(s));
    }
    std::vector<AxisRef> out;
    for (const auto item : SplitTop(s.substr(1, s.size() - 2))) {
      if (item.empty()) Fail(line, "expected an axis name in " + what, "an empty entry");
      out.push_back({std::string(item), line});
    }
    return out;
  }

  // `z0(0) : ORIGINAL, size:s0[, from: {z0}]`; legacy `z0(0) : ORIGINAL, size:s0, , from: {z0, }`.
  void AxisLine(std::string_view t, int line) {
    if (axes_.size() >= kMaxAxes) Fail(line, "expected at most 4096 axes", "more");
    const std::size_t open = t.find('(');
    const std::size_t close = t.find(')', open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || close == std::string_view::npos || open == 0) {
      Fail(line, "expected `<axis>(<id>) : <TYPE>, size:<expr>`", Quote(t));
    }
    PendingAxis pa;
    pa.line = line;
    pa.a.name = std::string(TrimSpace(t.substr(0, open)));
    const auto id = ToInt(t.substr(open + 1, close - open - 1));
    if (!id || *id < 0) {
      Fail(line, "expected an axis id in `" + pa.a.name + "(<id>)`",
           Quote(t.substr(open, close - open + 1)));
    }
    pa.a.id = *id;
    std::string_view rest = TrimSpace(t.substr(close + 1));
    if (rest.empty() || rest.front() != ':')
      Fail(line, "expected `:` after the axis id", Quote(rest));
    const auto parts = SplitTop(rest.substr(1));
    if (parts.empty()) Fail(line, "expected an axis type", "nothing");
    const auto type = ir::AxisTypeFromName(parts[0]);
    if (!type) {
      Fail(line, "expected an axis type (ORIGINAL, TILE_OUT, TILE_IN, BLOCK_OUT, BLOCK_IN, MERGED)",
           Quote(parts[0]));
    }
    pa.a.type = *type;
    bool has_size = false;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const std::string_view p = parts[k];
      if (p.empty()) continue;
      if (StartsWith(p, "size:")) {
        pa.a.size = ParseExpr(p.substr(5), line, "the size of axis " + pa.a.name);
        has_size = true;
      } else if (StartsWith(p, "from:")) {
        pa.from = NameList(p.substr(5), line, "from");
      } else {
        ++skipped_;  // attributes a newer writer may add
      }
    }
    if (!has_size) Fail(line, "expected `size:<expr>` for axis " + pa.a.name, Quote(t));
    axes_.push_back(std::move(pa));
  }

  PendingNode& Current(int line, std::string_view t) {
    if (nodes_.empty())
      Fail(line, "expected a node header `[<i>] <name> : ascir.ops.<Type>`", Quote(t));
    return nodes_.back();
  }

  void NodeLine(std::string_view t, int line) {
    if (t.front() == '.') {
      Property(t, line);
      return;
    }
    PendingNode pn;
    pn.line = line;
    if (t.front() == '[') {
      // [3] load : ascir.ops.Load
      const std::size_t close = t.find(']');
      const std::size_t sep = t.rfind(" : ");
      if (close == std::string_view::npos || sep == std::string_view::npos || sep < close) {
        Fail(line, "expected a node header `[<i>] <name> : ascir.ops.<Type>`", Quote(t));
      }
      if (!ToInt(t.substr(1, close - 1))) {
        Fail(line, "expected a node index in `[<i>]`", Quote(t.substr(0, close + 1)));
      }
      pn.n.name = std::string(TrimSpace(t.substr(close + 1, sep - close - 1)));
      std::string_view type = TrimSpace(t.substr(sep + 3));
      if (StartsWith(type, "ascir.ops.")) type.remove_prefix(10);
      pn.n.type = std::string(type);
    } else if (t.back() == ')' && t.rfind(" (") != std::string_view::npos &&
               t.find(": ") != std::string_view::npos) {
      // legacy: load: Load (3)
      const std::size_t paren = t.rfind(" (");
      const std::size_t sep = t.rfind(": ", paren);
      if (sep == std::string_view::npos || !ToInt(t.substr(paren + 2, t.size() - paren - 3))) {
        Fail(line, "expected a node header `<name>: <Type> (<i>)`", Quote(t));
      }
      pn.n.name = std::string(TrimSpace(t.substr(0, sep)));
      pn.n.type = std::string(TrimSpace(t.substr(sep + 2, paren - sep - 2)));
    } else {
      ++skipped_;  // an unknown line between nodes
      return;
    }
    if (pn.n.name.empty()) Fail(line, "expected a node name", Quote(t));
    if (pn.n.type.empty() || !std::all_of(pn.n.type.begin(), pn.n.type.end(), IsIdentChar)) {
      Fail(line, "expected an op type", Quote(pn.n.type));
    }
    if (nodes_.size() >= kMaxNodes) Fail(line, "expected at most 200000 nodes", "more");
    nodes_.push_back(std::move(pn));
  }

  static std::optional<ir::DType> DTypeOf(std::string_view s) {
    static const std::map<std::string_view, ir::DType> kShort = {
        {"f32", ir::DType::kFloat32}, {"f16", ir::DType::kFloat16}, {"bf16", ir::DType::kBFloat16},
        {"f64", ir::DType::kFloat64}, {"i8", ir::DType::kInt8},     {"i16", ir::DType::kInt16},
        {"i32", ir::DType::kInt32},   {"i64", ir::DType::kInt64},   {"u8", ir::DType::kUInt8},
        {"u16", ir::DType::kUInt16},  {"u32", ir::DType::kUInt32},  {"u64", ir::DType::kUInt64},
        {"i1", ir::DType::kBool},
    };
    if (const auto it = kShort.find(s); it != kShort.end()) return it->second;
    if (const auto ge = ir::DTypeFromGeName(s)) return ge;
    return ir::DTypeFromName(s);
  }

  std::vector<sym::Expr> ExprTuple(std::string_view s, int line, const std::string& what) const {
    s = TrimSpace(s);
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') {
      Fail(line, "expected " + what + " as (e1, e2, …)", Quote(s));
    }
    std::vector<sym::Expr> out;
    for (const auto item : SplitTop(s.substr(1, s.size() - 2)))
      out.push_back(ParseExpr(item, line, "an entry of " + what));
    return out;
  }

  // `.mem = UB[tensor_id=3, que_id=0, buf_num=2, depth=2, pos=VECIN]`, `GM[pos=GM]`,
  // `UB[tensor_id=4, buf_id=1, reuse_id=0, pos=VECCALC]`.
  void Mem(std::string_view v, PendingTensor& pt, int line) const {
    const std::size_t open = v.find('[');
    if (open == std::string_view::npos || v.back() != ']') {
      Fail(line, "expected `.mem = <GM|UB>[key=value, …]`", Quote(v));
    }
    ir::MemInfo& m = pt.t.mem;
    const std::string_view hw = TrimSpace(v.substr(0, open));
    m.hardware = hw == "UB"   ? ir::Hardware::kUB
                 : hw == "GM" ? ir::Hardware::kGM
                              : ir::Hardware::kInvalid;
    bool que = false;
    bool buf = false;
    for (const auto item : SplitTop(v.substr(open + 1, v.size() - open - 2))) {
      const std::size_t eq = item.find('=');
      if (eq == std::string_view::npos) Fail(line, "expected key=value in .mem", Quote(item));
      const std::string_view k = TrimSpace(item.substr(0, eq));
      const std::string_view val = TrimSpace(item.substr(eq + 1));
      if (k == "pos") {
        m.position = val == "GM"        ? ir::Position::kGM
                     : val == "VECIN"   ? ir::Position::kVecIn
                     : val == "VECOUT"  ? ir::Position::kVecOut
                     : val == "VECCALC" ? ir::Position::kVecCalc
                                        : ir::Position::kInvalid;
        continue;
      }
      const auto n = ToInt(val);
      if (!n) Fail(line, "expected an integer for ." + std::string(k) + " in .mem", Quote(val));
      if (k == "tensor_id") {
        m.tensor_id = *n;
      } else if (k == "que_id") {
        pt.t.que.id = *n;
        que = true;
      } else if (k == "buf_num") {
        pt.t.que.buf_num = *n;
      } else if (k == "depth") {
        pt.t.que.depth = *n;
      } else if (k == "buf_id") {
        pt.t.buf.id = *n;
        buf = true;
      } else if (k == "reuse_id") {
        m.reuse_id = *n;
      }
    }
    m.alloc_type = que   ? ir::AllocType::kQueue
                   : buf ? ir::AllocType::kBuffer
                         : ir::AllocType::kGlobal;
  }

  // One protobuf ShortDebugString of an AttrDef: `i: 0`, `f: 0.5`, `b: true`, `s: "x"`,
  // `expression: "(s1 * 4)"`, `dt: 1`, `list { i: 1 i: 2 }`. `*end` receives where it stopped.
  ir::AttrValue AttrValue(std::string_view s, int line, const std::string& key,
                          std::size_t* end) const {
    std::size_t p = 0;
    while (p < s.size() && s[p] == ' ')
      ++p;
    std::size_t q = p;
    while (q < s.size() && IsIdentChar(s[q]))
      ++q;
    const std::string_view kind = s.substr(p, q - p);
    while (q < s.size() && s[q] == ' ')
      ++q;
    const std::string what = "a value for .ir_attr." + key;
    if (kind == "list") {
      const std::size_t close = s.find('}', q);
      if (q >= s.size() || s[q] != '{' || close == std::string_view::npos) {
        Fail(line, "expected `list { i: … }` for .ir_attr." + key, Quote(s));
      }
      std::vector<std::int64_t> out;
      std::string_view body = s.substr(q + 1, close - q - 1);
      while (!TrimSpace(body).empty()) {
        body = TrimSpace(body);
        if (!StartsWith(body, "i:")) Fail(line, "expected `i: <int>` in a list", Quote(body));
        body = TrimSpace(body.substr(2));
        std::size_t k = 0;
        while (k < body.size() && body[k] != ' ')
          ++k;
        const auto v = ToInt(body.substr(0, k));
        if (!v) Fail(line, "expected an integer in a list", Quote(body.substr(0, k)));
        out.push_back(*v);
        body = body.substr(k);
      }
      *end = close + 1;
      return out;
    }
    if (q >= s.size() || s[q] != ':')
      Fail(line, "expected " + what + " (`i: 0`, `expression: \"…\"`)", Quote(s));
    ++q;
    while (q < s.size() && s[q] == ' ')
      ++q;
    if (kind == "s" || kind == "expression") {
      if (q >= s.size() || s[q] != '"')
        Fail(line, "expected a quoted string for " + what, Quote(s.substr(q)));
      std::string str;
      std::size_t k = q + 1;
      for (; k < s.size() && s[k] != '"'; ++k) {
        if (s[k] == '\\' && k + 1 < s.size()) {
          ++k;
          str += s[k] == 'n' ? '\n' : s[k] == 't' ? '\t' : s[k];
        } else {
          str += s[k];
        }
      }
      if (k >= s.size()) Fail(line, "expected a closing `\"` for " + what, Quote(s.substr(q)));
      *end = k + 1;
      if (kind == "s") return str;
      return ParseExpr(str, line, what);
    }
    // Numbers end where from_chars stops: the legacy one-line form runs straight on into the
    // next `.key = ` after a value.
    const char* first = s.data() + q;
    const char* last = s.data() + s.size();
    auto ends_ok = [&](const char* p2) { return p2 == last || *p2 == ' ' || *p2 == '.'; };
    if (kind == "i" || kind == "dt") {
      std::int64_t v = 0;
      const auto r = std::from_chars(first, last, v);
      if (r.ec != std::errc() || r.ptr == first || !ends_ok(r.ptr)) {
        Fail(line, "expected an integer for " + what, Quote(s.substr(q)));
      }
      *end = static_cast<std::size_t>(r.ptr - s.data());
      return v;
    }
    if (kind == "b") {
      for (const std::string_view word : {std::string_view("true"), std::string_view("false")}) {
        if (StartsWith(s.substr(q), word) && ends_ok(first + word.size())) {
          *end = q + word.size();
          return word == "true";
        }
      }
      Fail(line, "expected true or false for " + what, Quote(s.substr(q)));
    }
    if (kind == "f") {
      for (const std::string_view word :
           {std::string_view("-inf"), std::string_view("inf"), std::string_view("nan")}) {
        if (StartsWith(s.substr(q), word) && ends_ok(first + word.size())) {
          *end = q + word.size();
          return std::string(word);
        }
      }
      double d = 0;
      const auto r = std::from_chars(first, last, d);
      // A float may also end in '.', which ends_ok accepts: "1." is not what protobuf prints.
      if (r.ec != std::errc() || r.ptr == first || !ends_ok(r.ptr)) {
        Fail(line, "expected a number for " + what, Quote(s.substr(q)));
      }
      *end = static_cast<std::size_t>(r.ptr - s.data());
      return d;
    }
    Fail(line, "expected " + what + " (i, f, b, s, dt, expression or list)", Quote(kind));
  }

  void Property(std::string_view t, int line) {
    PendingNode& pn = Current(line, t);
    // `.y: f32` / `.y[1]: f16` (legacy: `.<output name>: <dtype>`) opens an output block.
    const std::size_t eq = t.find(" = ");
    const std::size_t colon = t.find(": ");
    if (eq == std::string_view::npos || (colon != std::string_view::npos && colon < eq)) {
      if (colon == std::string_view::npos) {
        ++skipped_;
        return;
      }
      const std::string_view key = t.substr(1, colon - 1);
      auto index = static_cast<std::int64_t>(pn.outputs.size());
      if (const std::size_t br = key.find('['); br != std::string_view::npos) {
        const auto v =
            key.back() == ']' ? ToInt(key.substr(br + 1, key.size() - br - 2)) : std::nullopt;
        if (!v || *v < 0 || *v > kMaxOutputIndex) {
          Fail(line, "expected an output `.y[<i>]`", Quote(key));
        }
        index = *v;
      }
      const auto dt = DTypeOf(TrimSpace(t.substr(colon + 2)));
      if (!dt)
        Fail(line, "expected a dtype (f32, f16, bf16, i32 …)",
             Quote(TrimSpace(t.substr(colon + 2))));
      if (index >= static_cast<std::int64_t>(pn.outputs.size())) {
        tensors_ += static_cast<std::size_t>(index) + 1 - pn.outputs.size();
        if (tensors_ > kMaxTensors)
          Fail(line, "expected at most 400000 outputs in a graph", "more");
        pn.outputs.resize(static_cast<std::size_t>(index) + 1);
      }
      auto& slot = pn.outputs[static_cast<std::size_t>(index)];
      if (slot)
        Fail(line, "expected each output once", "output " + std::to_string(index) + " again");
      slot.emplace();
      slot->t.dtype = *dt;
      pn.current_output = static_cast<int>(index);
      return;
    }
    const std::string_view key = TrimSpace(t.substr(1, eq - 1));
    const std::string_view v = TrimSpace(t.substr(eq + 3));
    PendingTensor* pt = pn.current_output >= 0
                            ? &*pn.outputs[static_cast<std::size_t>(pn.current_output)]
                            : nullptr;
    if (pt != nullptr) {
      if (key == "axis") {
        pt->axis = NameList(v, line, ".axis");
        pt->has_axis = true;
        return;
      }
      if (key == "repeats") {
        pt->t.repeats = ExprTuple(v, line, ".repeats");
        return;
      }
      if (key == "strides") {
        pt->t.strides = ExprTuple(v, line, ".strides");
        return;
      }
      if (key == "vectorized" || key == "vectorized_strides") {
        // {z1:1, z2:s2}
        if (v.size() < 2 || v.front() != '{' || v.back() != '}') {
          Fail(line, "expected ." + std::string(key) + " = {axis:stride, …}", Quote(v));
        }
        for (const auto item : SplitTop(v.substr(1, v.size() - 2))) {
          const std::size_t c = item.find(':');
          if (c == std::string_view::npos || c == 0)
            Fail(line, "expected axis:stride", Quote(item));
          pt->vectorized.push_back({std::string(TrimSpace(item.substr(0, c))), line});
          const std::string_view st = TrimSpace(item.substr(c + 1));
          if (!st.empty())
            pt->t.vectorized_strides.push_back(ParseExpr(st, line, "a vectorized stride"));
        }
        return;
      }
      if (key == "mem") {
        Mem(v, *pt, line);
        return;
      }
    }
    if (key == "axis") {
      pn.sched_axis = NameList(v, line, ".axis");
    } else if (key == "loop_axis") {
      if (const auto n = ToInt(v)) {
        if (*n >= 0) pn.loop_axis = AxisRef{std::to_string(*n), -line};  // legacy: an id
      } else {
        pn.loop_axis = AxisRef{std::string(v), line};
      }
    } else if (key == "x") {
      std::string_view list = v;
      if (!list.empty() && list.front() == '{') {
        if (list.back() != '}') Fail(line, "expected .x = {a.y, b.y[1], …}", Quote(v));
        list = list.substr(1, list.size() - 2);
      }
      for (const auto item : SplitTop(list)) {
        if (item.empty()) Fail(line, "expected an input `<node>.y` in .x", "an unconnected slot");
        pn.inputs.emplace_back(std::string(item), line);
      }
    } else if (StartsWith(key, "ir_attr.")) {
      const std::string k(key.substr(8));
      std::size_t end = 0;
      pn.n.attrs[k] = AttrValue(v, line, k, &end);
    } else if (key == "ir_attr") {
      // legacy: .ir_attr =  {.offset = expression: "0".index = i: 0}
      if (v.size() < 2 || v.front() != '{' || v.back() != '}') {
        Fail(line, "expected .ir_attr = {.key = value…}", Quote(v));
      }
      std::string_view body = v.substr(1, v.size() - 2);
      while (!TrimSpace(body).empty()) {
        body = TrimSpace(body);
        const std::size_t e = body.find(" = ");
        if (body.front() != '.' || e == std::string_view::npos) {
          Fail(line, "expected `.key = value` in .ir_attr", Quote(body));
        }
        const std::string k(TrimSpace(body.substr(1, e - 1)));
        std::size_t end = 0;
        const std::string_view rest = body.substr(e + 3);
        pn.n.attrs[k] = AttrValue(rest, line, k, &end);
        body = rest.substr(std::min(end, rest.size()));
      }
    } else if (key == "exec_condition") {
      if (const auto n = ToInt(v)) {
        pn.n.sched.exec_condition = static_cast<std::int32_t>(*n);
      } else if (v.find("FusedBroadcast") != std::string_view::npos) {
        pn.n.sched.exec_condition = 1;
      } else if (v.find("OriginBroadcast") != std::string_view::npos) {
        pn.n.sched.exec_condition = 2;
      } else {
        ++skipped_;
      }
    } else if (key == "tmp_buf") {
      TmpBufs(v, pn, line);
    } else {
      ++skipped_;  // .api.unit and whatever a newer writer adds
    }
  }

  // {{id=0, size=8192, life_cycle=-1}, …} (legacy {buf_id=0, size=8192}).
  void TmpBufs(std::string_view v, PendingNode& pn, int line) const {
    if (v.size() < 2 || v.front() != '{' || v.back() != '}') {
      Fail(line, "expected .tmp_buf = {{id=…, size=…}, …}", Quote(v));
    }
    for (const auto item : SplitTop(v.substr(1, v.size() - 2))) {
      if (item.size() < 2 || item.front() != '{' || item.back() != '}') {
        Fail(line, "expected {id=…, size=…} in .tmp_buf", Quote(item));
      }
      ir::TmpBuffer tb;
      tb.size = sym::Expr(0);
      for (const auto kv : SplitTop(item.substr(1, item.size() - 2))) {
        const std::size_t e = kv.find('=');
        if (e == std::string_view::npos) Fail(line, "expected key=value in .tmp_buf", Quote(kv));
        const std::string_view k = TrimSpace(kv.substr(0, e));
        const std::string_view val = TrimSpace(kv.substr(e + 1));
        if (k == "size") {
          tb.size = ParseExpr(val, line, "a tmp_buf size");
        } else if (k == "id" || k == "buf_id" || k == "life_cycle") {
          const auto n = ToInt(val);
          if (!n) Fail(line, "expected an integer for " + std::string(k), Quote(val));
          (k == "life_cycle" ? tb.life_time_axis_id : tb.id) = *n;
        }
      }
      pn.n.tmp_buffers.push_back(std::move(tb));
    }
  }

  // ---- resolution

  std::int64_t AxisId(const AxisRef& r, const std::string& what) const {
    if (r.line < 0) {  // legacy numeric loop axis
      const auto n = ToInt(r.name);
      if (n && axis_ids_.contains(*n)) return *n;
      Fail(-r.line, "expected a declared axis id for " + what, Quote(r.name));
    }
    const auto it = axis_by_name_.find(r.name);
    if (it == axis_by_name_.end()) {
      Fail(r.line, "expected an axis declared under Axis: in " + what, Quote(r.name));
    }
    return it->second;
  }

  std::vector<std::int64_t> AxisIds(const std::vector<AxisRef>& refs,
                                    const std::string& what) const {
    std::vector<std::int64_t> out;
    out.reserve(refs.size());
    for (const auto& r : refs)
      out.push_back(AxisId(r, what));
    return out;
  }

  ir::Graph Build(std::vector<int>* node_lines) {
    ir::Graph g;
    for (const auto& s : sizes_) {
      if (std::any_of(g.size_vars.begin(), g.size_vars.end(),
                      [&](const ir::SizeVar& v) { return v.name == s.name; }))
        continue;
      g.size_vars.push_back(s);
    }
    for (const auto& pa : axes_) {
      if (!axis_by_name_.emplace(pa.a.name, pa.a.id).second) {
        Fail(pa.line, "expected each axis name once", Quote(pa.a.name) + " again");
      }
      if (!axis_ids_.insert(pa.a.id).second) {
        Fail(pa.line, "expected each axis id once", "id " + std::to_string(pa.a.id) + " again");
      }
    }
    bool impl = false;
    for (auto& pa : axes_) {
      pa.a.from = AxisIds(pa.from, "from: of axis " + pa.a.name);
      impl = impl || (pa.a.type != ir::AxisType::kOriginal && pa.a.type != ir::AxisType::kMerged);
      g.axes.push_back(pa.a);
    }
    g.type = impl ? ir::GraphType::kImpl : ir::GraphType::kHint;
    std::map<std::string, int> index;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (!index.emplace(nodes_[i].n.name, static_cast<int>(i)).second) {
        Fail(nodes_[i].line, "expected each node name once", Quote(nodes_[i].n.name) + " again");
      }
    }
    // Outputs a consumer reads but the dump does not print (subgraph dumps print only Data and
    // Output tensors) are added untyped; ir::Validate reports them.
    std::vector<std::size_t> needed(nodes_.size(), 0);
    std::vector<std::vector<ir::InputRef>> inputs(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      for (const auto& [text, line] : nodes_[i].inputs) {
        std::string_view s = text;
        int out = 0;
        std::size_t dot = std::string_view::npos;
        if (s.size() > 3 && s.back() == ']') {
          dot = s.rfind(".y[");
          if (dot != std::string_view::npos) {
            const auto v = ToInt(s.substr(dot + 3, s.size() - dot - 4));
            if (!v || *v < 0 || *v > kMaxOutputIndex) {
              Fail(line, "expected an output index in `<node>.y[<i>]`", Quote(s));
            }
            out = static_cast<int>(*v);
          }
        } else if (s.size() > 2 && s.substr(s.size() - 2) == ".y") {
          dot = s.size() - 2;
        }
        if (dot == std::string_view::npos || dot == 0) {
          Fail(line, "expected an input `<node>.y` or `<node>.y[<i>]`", Quote(s));
        }
        const auto it = index.find(std::string(s.substr(0, dot)));
        if (it == index.end()) Fail(line, "expected a node of the graph in .x", Quote(s));
        inputs[i].push_back({it->second, out});
        auto& need = needed[static_cast<std::size_t>(it->second)];
        const std::size_t have =
            std::max(need, nodes_[static_cast<std::size_t>(it->second)].outputs.size());
        if (static_cast<std::size_t>(out) + 1 > have) {
          tensors_ += static_cast<std::size_t>(out) + 1 - have;
          if (tensors_ > kMaxTensors)
            Fail(line, "expected at most 400000 outputs in a graph", "more");
        }
        need = std::max(need, static_cast<std::size_t>(out) + 1);
      }
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      PendingNode& pn = nodes_[i];
      ir::Node n = std::move(pn.n);
      n.inputs = std::move(inputs[i]);
      n.sched.axis = AxisIds(pn.sched_axis, ".axis of node " + n.name);
      if (pn.loop_axis) n.sched.loop_axis = AxisId(*pn.loop_axis, ".loop_axis of node " + n.name);
      const std::size_t count = std::max(pn.outputs.size(), needed[i]);
      for (std::size_t k = 0; k < count; ++k) {
        if (k >= pn.outputs.size() || !pn.outputs[k]) {
          ir::Tensor t;
          t.dtype = ir::DType::kUndefined;
          n.outputs.push_back(std::move(t));
          continue;
        }
        PendingTensor& pt = *pn.outputs[k];
        const std::string what = "output " + std::to_string(k) + " of node " + n.name;
        pt.t.axis = AxisIds(pt.axis, ".axis of " + what);
        pt.t.vectorized_axis = AxisIds(pt.vectorized, ".vectorized of " + what);
        if (pt.has_axis &&
            (pt.t.repeats.size() != pt.t.axis.size() || pt.t.strides.size() != pt.t.axis.size())) {
          Fail(pn.line, "expected as many repeats and strides as axes for " + what,
               std::to_string(pt.t.axis.size()) + " axes, " + std::to_string(pt.t.repeats.size()) +
                   " repeats, " + std::to_string(pt.t.strides.size()) + " strides");
        }
        n.outputs.push_back(std::move(pt.t));
      }
      node_lines->push_back(pn.line);
      g.nodes.push_back(std::move(n));
    }
    return g;
  }

  std::string file_;
  std::vector<std::string_view> lines_;
  std::vector<ir::SizeVar> sizes_;
  std::vector<PendingAxis> axes_;
  std::vector<PendingNode> nodes_;
  std::map<std::string, std::int64_t> axis_by_name_;
  std::set<std::int64_t> axis_ids_;
  int skipped_ = 0;
  std::size_t tensors_ = 0;
};

}  // namespace

std::string AscGraphText::NodeLoc(int node) const {
  if (node >= 0 && node < static_cast<int>(node_lines.size())) {
    return file + ":" + std::to_string(node_lines[static_cast<std::size_t>(node)]);
  }
  return file;
}

bool LooksLikeAscGraphText(std::string_view head) {
  // The legacy DebugStr form ("Graph:" / "Sizes:" …) is too close to our own readable text to be
  // told apart by content: it is recognised by its file name (ascgraph_*.txt) only.
  head = head.substr(0, 4096);
  return head.find("VIEW 1: Loop Execution") != std::string_view::npos ||
         head.find("VIEW 2: Graph Structure") != std::string_view::npos;
}

AscGraphText ParseAscGraphText(const std::string& text, const std::string& file) {
  return Parser(text, file).Run();
}

AscGraphText LoadAscGraphTextFile(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot read the file: " + ec.message());
  if (size > kMaxFileBytes) {
    throw InputError(SourceLoc{path.string(), 0, 0}, "file larger than 256 MiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot open the file");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return ParseAscGraphText(text, path.string());
}

}  // namespace af::importers::dfx
