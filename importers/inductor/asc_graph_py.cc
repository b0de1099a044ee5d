// asc_graph.py reader: top-level statements one line at a time (helper function bodies and the
// triple-quoted hint block are set aside), each right-hand side parsed with the FX importer's
// Python expression parser, never evaluated.
#include "autofuse/importers/asc_graph_py.h"

#include <fstream>
#include <map>
#include <sstream>

#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "dump_lines.h"
#include "py_expr.h"

namespace af::importers::inductor {
namespace {

using fx::PyExpr;

bool IsInputPort(std::string_view p) {
  if (p.empty() || p[0] != 'x') return false;
  for (char c : p.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

class AscPyReader {
 public:
  AscPyReader(const std::string& text, std::string file)
      : file_(std::move(file)), lines_(SplitDumpLines(text)) {}

  AscGraphPy Read() {
    AscGraphPy out;
    out.file = file_;
    std::string quote;
    for (const DumpLine& l : lines_) {
      const std::string_view t = l.Stripped();
      if (!quote.empty()) {
        const std::size_t close = l.text.find(quote);
        out.hint_block += close == std::string::npos ? l.text + "\n" : l.text.substr(0, close);
        if (close != std::string::npos) quote.clear();
        continue;
      }
      if (l.blank || StartsWith(t, "#")) continue;
      for (const char* q : {"'''", "\"\"\""}) {
        if (t.find(q) != std::string_view::npos) {
          const std::size_t open = l.text.find(q);
          const std::size_t close = l.text.find(q, open + 3);
          if (close == std::string::npos) {
            quote = q;
            out.hint_block += l.text.substr(open + 3) + "\n";
            start_ = l.no;
          }
          break;
        }
      }
      if (!quote.empty() || t.find("'''") != std::string_view::npos ||
          t.find("\"\"\"") != std::string_view::npos)
        continue;
      // Only top-level assignments and calls build graphs: definitions, imports and control
      // flow around them (our own py_code scripts carry a numpy runner) are passed over.
      if (l.indent > 0 || StartsWith(t, "def ") || StartsWith(t, "class ") ||
          StartsWith(t, "import ") || StartsWith(t, "from ") || StartsWith(t, "return ") ||
          StartsWith(t, "if ") || StartsWith(t, "elif ") || t == "else:" || t == "try:" ||
          StartsWith(t, "except") || t == "finally:" || StartsWith(t, "@"))
        continue;
      Statement(out, t, l.no);
    }
    if (!quote.empty()) Fail(start_, "a string opened here never closes (truncated file?)");
    if (out.graphs.empty()) Fail(1, "no ascir.HintGraph or ascir.FusedGraph in the file");
    return out;
  }

 private:
  [[noreturn]] void Fail(int line, const std::string& cause) const {
    throw InputError(SourceLoc{file_, line, 0}, cause);
  }

  static std::string Span(const std::string& src, const PyExpr& e) {
    if (e.end <= e.begin || e.end > src.size()) return {};
    return src.substr(e.begin, e.end - e.begin);
  }

  static std::string Str(const std::string& src, const PyExpr& e) {
    return e.kind == PyExpr::Kind::kString ? e.text : Span(src, e);
  }

  PyExpr Parse(const std::string& s, int line) {
    try {
      return fx::ParseWholeExpr(s);
    } catch (const fx::LexError& e) {
      Fail(line, "cannot read `" + s.substr(0, 80) + "`: " + e.message);
    }
  }

  int GraphOf(const std::string& var, int line) {
    auto it = graphs_.find(var);
    if (it == graphs_.end()) Fail(line, "unknown graph `" + var + "`");
    return it->second;
  }

  void Statement(AscGraphPy& out, std::string_view t, int line) {
    const std::size_t eq = t.find(" = ");
    if (eq == std::string_view::npos) {
      const std::string s(t);
      const PyExpr e = Parse(s, line);
      if (e.kind == PyExpr::Kind::kCall && EndsWith(e.text, ".create_size") && !e.items.empty()) {
        const std::string g = e.text.substr(0, e.text.size() - 12);
        if (graphs_.count(g) != 0u)
          out.graphs[static_cast<std::size_t>(graphs_[g])].sizes.push_back(Str(s, e.items[0]));
      }
      return;
    }
    const std::string lhs(TrimSpace(t.substr(0, eq)));
    const std::string rhs(TrimSpace(t.substr(eq + 3)));
    if (lhs.find(',') != std::string::npos) return;  // tuple unpacking of fuser results
    const std::size_t dot = lhs.find('.');
    if (dot != std::string::npos) {
      auto it = nodes_.find(lhs.substr(0, dot));
      if (it == nodes_.end()) return;
      AscPyNode& n = out.graphs[static_cast<std::size_t>(it->second.first)]
                         .nodes[static_cast<std::size_t>(it->second.second)];
      const std::string path = lhs.substr(dot + 1);
      Parse(rhs, line);  // the value must be a readable expression
      if (IsInputPort(path)) {
        n.inputs.emplace_back(path, rhs);
      } else {
        n.attrs.emplace_back(path, rhs);
      }
      return;
    }
    if (!IsIdentifier(lhs)) return;
    const PyExpr e = Parse(rhs, line);
    if (e.kind != PyExpr::Kind::kCall) return;
    const std::string& c = e.text;
    if (c == "ascir.HintGraph" || c == "ascir.FusedGraph") {
      AscPyGraph g;
      g.var = lhs;
      g.name = e.items.empty() ? lhs : Str(rhs, e.items[0]);
      g.fused = c == "ascir.FusedGraph";
      g.line = line;
      graphs_[lhs] = static_cast<int>(out.graphs.size());
      out.graphs.push_back(std::move(g));
      return;
    }
    if (EndsWith(c, ".create_axis") || EndsWith(c, ".create_size")) {
      const std::string gv = c.substr(0, c.rfind('.'));
      if (graphs_.count(gv) == 0u || e.items.empty()) return;
      AscPyGraph& g = out.graphs[static_cast<std::size_t>(graphs_[gv])];
      if (EndsWith(c, ".create_axis")) {
        g.axes.emplace_back(Str(rhs, e.items[0]),
                            e.items.size() > 1 ? Span(rhs, e.items[1]) : std::string());
        g.axis_vars.push_back(lhs);
      } else {
        g.sizes.push_back(Str(rhs, e.items[0]));
      }
      return;
    }
    if (StartsWith(c, "ascir.ops.")) {
      // AutoFuse's py_code_*.py passes the graph only to nodes without inputs
      // (`ascir.ops.Load("load")`): those belong to the graph created last.
      if (e.items.empty() || (e.items.size() < 2 && out.graphs.empty()))
        Fail(line, "expected ascir.ops.<Type>('<name>', <graph>)");
      AscPyNode n;
      n.var = lhs;
      n.type = c.substr(10);
      n.line = line;
      n.name = Str(rhs, e.items[0]);
      const std::size_t slash = n.name.rfind('/');
      if (slash != std::string::npos) n.name = n.name.substr(slash + 1);
      // AscBackend('graph', <hint graph>, <fused graph>) belongs to the fused graph.
      const bool backend = n.type == "AscBackend" && e.items.size() >= 3;
      const int gi = e.items.size() < 2 ? static_cast<int>(out.graphs.size()) - 1
                                        : GraphOf(Span(rhs, e.items[backend ? 2 : 1]), line);
      if (backend) n.attrs.emplace_back("hint_graph", Span(rhs, e.items[1]));
      AscPyGraph& g = out.graphs[static_cast<std::size_t>(gi)];
      nodes_[lhs] = {gi, static_cast<int>(g.nodes.size())};
      g.nodes.push_back(std::move(n));
    }
  }

  std::string file_;
  std::vector<DumpLine> lines_;
  std::map<std::string, int> graphs_;                 // variable → graph index
  std::map<std::string, std::pair<int, int>> nodes_;  // variable → (graph, node)
  int start_ = 0;
};

}  // namespace

const std::string* AscPyNode::Attr(std::string_view path) const {
  for (const auto& [k, v] : attrs) {
    if (k == path) return &v;
  }
  return nullptr;
}

int AscGraphPy::CountGraphs(bool fused) const {
  int c = 0;
  for (const auto& g : graphs)
    c += g.fused == fused ? 1 : 0;
  return c;
}

bool LooksLikeAscGraphPy(std::string_view text) {
  return text.find("ascir.HintGraph(") != std::string_view::npos ||
         text.find("ascir.FusedGraph(") != std::string_view::npos;
}

AscGraphPy ParseAscGraphPy(const std::string& text, const std::string& file) {
  AscPyReader r(text, file);
  return r.Read();
}

AscGraphPy LoadAscGraphPyFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ParseAscGraphPy(ss.str(), path.string());
}

}  // namespace af::importers::inductor
