// asc_graph.py hint graphs → ir::Graph. Values are re-parsed from the kept text with the Python
// expression parser; sizes and strides go through sym::Parse. Any failure is a reason.
#include <algorithm>
#include <map>
#include <set>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/validate.h"
#include "autofuse/support/strings.h"
#include "dump_lines.h"
#include "py_expr.h"

namespace af::importers::inductor {
namespace {

using fx::PyExpr;

struct Refuse {
  std::string reason;
};

std::string Span(const std::string& src, const PyExpr& e) {
  if (e.end <= e.begin || e.end > src.size()) return {};
  return src.substr(e.begin, e.end - e.begin);
}

PyExpr ParsePy(const std::string& text) {
  try {
    return fx::ParseWholeExpr(text);
  } catch (const fx::LexError& e) {
    throw Refuse{"cannot read `" + text + "`: " + e.message};
  }
}

sym::Expr ParseSym(const std::string& text) {
  try {
    return sym::Parse(text);
  } catch (const std::exception& e) {
    throw Refuse{"cannot read the expression `" + text + "`: " + e.what()};
  }
}

// "[a, b]" → item texts; a single expression → one item.
std::vector<std::string> Items(const std::string& text) {
  const PyExpr e = ParsePy(text);
  std::vector<std::string> out;
  if (e.kind == PyExpr::Kind::kList || e.kind == PyExpr::Kind::kTuple) {
    for (const auto& it : e.items)
      out.push_back(Span(text, it));
  } else {
    out.push_back(text);
  }
  return out;
}

ir::DType AscDType(const std::string& text) {
  std::string_view t = TrimSpace(text);
  if (StartsWith(t, "ascir.dtypes.")) t.remove_prefix(13);
  if (t == "float32") return ir::DType::kFloat32;
  if (t == "float16") return ir::DType::kFloat16;
  if (t == "bf16" || t == "bfloat16") return ir::DType::kBFloat16;
  if (t == "int32") return ir::DType::kInt32;
  if (t == "int64") return ir::DType::kInt64;
  if (t == "int8") return ir::DType::kInt8;
  if (t == "uint8") return ir::DType::kUInt8;
  if (t == "int16") return ir::DType::kInt16;
  if (t == "float64") return ir::DType::kFloat64;
  if (t == "uint16") return ir::DType::kUInt16;
  if (t == "uint32") return ir::DType::kUInt32;
  if (t == "uint64") return ir::DType::kUInt64;
  if (t == "bool") return ir::DType::kBool;
  throw Refuse{"dtype `" + text + "` is not known"};
}

class Converter {
 public:
  explicit Converter(const AscPyGraph& g) : src_(g) {}

  ir::Graph Run() {
    g_.name = src_.name;
    g_.type = ir::GraphType::kHint;
    for (const auto& s : src_.sizes)
      g_.AddSizeVar(s);
    for (std::size_t i = 0; i < src_.axes.size(); ++i) {
      const sym::Expr size = ParseSym(src_.axes[i].second);
      for (const auto& s : size.FreeSymbols())
        g_.AddSizeVar(s);
      const std::int64_t id = g_.AddAxis(src_.axes[i].first, size);
      if (i < src_.axis_vars.size()) axis_[src_.axis_vars[i]] = id;
      axis_[src_.axes[i].first] = id;
    }
    for (std::size_t k = 0; k < src_.nodes.size(); ++k)
      node_[src_.nodes[k].var] = static_cast<int>(k);
    for (const auto& n : src_.nodes)
      g_.nodes.push_back(Node(n));
    for (std::size_t k = 0; k < src_.nodes.size(); ++k)
      Inputs(src_.nodes[k], g_.nodes[k]);
    Views();
    for (const auto& d : ir::Validate(g_)) {
      if (d.severity == ir::Diagnostic::Severity::kError)
        throw Refuse{"the graph does not validate: " + d.message};
    }
    return g_;
  }

 private:
  std::vector<std::int64_t> Axes(const std::string& text) {
    std::vector<std::int64_t> out;
    for (const auto& a : Items(text)) {
      auto it = axis_.find(std::string(TrimSpace(a)));
      if (it == axis_.end()) throw Refuse{"unknown axis `" + a + "`"};
      out.push_back(it->second);
    }
    return out;
  }

  std::vector<sym::Expr> Exprs(const std::string& text) {
    std::vector<sym::Expr> out;
    for (const auto& a : Items(text))
      out.push_back(ParseSym(a));
    return out;
  }

  // Any other attr.ir_attr.<key>: True/False, an integer, a decimal, a list of integers, a
  // string, else a symbolic expression.
  ir::AttrValue IrAttr(const std::string& v) {
    const PyExpr e = ParsePy(v);
    const std::string t(TrimSpace(v));
    if (e.kind == PyExpr::Kind::kString) return e.text;
    if (t == "True" || t == "False") return t == "True";
    if (e.kind == PyExpr::Kind::kList) {
      std::vector<std::int64_t> l;
      for (const auto& item : Items(v))
        l.push_back(std::stoll(item));
      return l;
    }
    if (!t.empty() && t.find_first_not_of("-0123456789") == std::string::npos)
      return static_cast<std::int64_t>(std::stoll(t));
    if (!t.empty() && t.find_first_not_of("-+0123456789.e") == std::string::npos)
      return std::stod(t);
    return ParseSym(v);
  }

  ir::Node Node(const AscPyNode& n) {
    if (ir::FindOp(n.type) == nullptr) throw Refuse{"unknown AscIR op " + n.type};
    ir::Node out;
    out.name = n.name;
    out.type = n.type;
    out.outputs.emplace_back();
    bool has_dtype = false;
    for (const auto& [full, v] : n.attrs) {
      // `y[k].field` sets output k's view (nodes with several outputs), `y.field` output 0.
      std::string path = full;
      std::size_t k = 0;
      if (StartsWith(path, "y[")) {
        const std::size_t close = path.find("].");
        if (close == std::string::npos) throw Refuse{"cannot read `" + full + "`"};
        k = static_cast<std::size_t>(std::stoul(path.substr(2, close - 2)));
        if (k > 4096) throw Refuse{"output index in `" + full + "` too large"};
        path = "y." + path.substr(close + 2);
      }
      if (out.outputs.size() <= k) out.outputs.resize(k + 1);
      ir::Tensor& t = out.outputs[k];
      if (path == "attr.sched.axis") {
        out.sched.axis = Axes(v);
      } else if (path == "attr.ir_attr.index") {
        out.attrs["index"] = static_cast<std::int64_t>(std::stoll(v));
      } else if (path == "attr.ir_attr.offset" || path == "y.offset") {
        out.attrs["offset"] = ParseSym(v);
      } else if (path == "attr.ir_attr.value") {
        const PyExpr e = ParsePy(v);
        out.attrs["value"] = e.kind == PyExpr::Kind::kString ? e.text : v;
      } else if (StartsWith(path, "attr.ir_attr.")) {
        out.attrs[path.substr(13)] = IrAttr(v);
      } else if (path == "y.axis") {
        t.axis = Axes(v);
      } else if (path == "y.size") {
        t.repeats = Exprs(v);
      } else if (path == "y.strides") {
        t.strides = Exprs(v);
      } else if (path == "y.dtype") {
        t.dtype = AscDType(v);
        has_dtype = k == 0 || has_dtype;
      }
    }
    if (!has_dtype) untyped_.insert(n.var);
    if (out.type != "Data" && out.type != "Output" && !out.sched.axis.empty())
      out.sched.loop_axis = out.sched.axis.back();
    return out;
  }

  void Inputs(const AscPyNode& n, ir::Node& out) {
    std::vector<std::pair<std::string, std::string>> ports = n.inputs;
    // x, x1, x2, …, x10 by number
    std::sort(ports.begin(), ports.end(), [](const auto& a, const auto& b) {
      const auto num = [](const std::string& p) {
        return p.size() > 1 ? std::stoll(p.substr(1)) : 0;
      };
      return num(a.first) < num(b.first);
    });
    for (const auto& [port, text] : ports) {
      const PyExpr e = ParsePy(text);
      int output = 0;
      const PyExpr* base = &e;
      if (e.kind == PyExpr::Kind::kSubscript && e.items.size() == 2) {  // graph0.y[0]
        base = e.items.data();
        output = static_cast<int>(e.items[1].i);
      }
      if (base->kind != PyExpr::Kind::kName || !EndsWith(base->text, ".y"))
        throw Refuse{"input `" + text + "` of " + n.name + " is not <node>.y"};
      const std::string var = base->text.substr(0, base->text.size() - 2);
      auto it = node_.find(var);
      if (it == node_.end()) throw Refuse{"input `" + text + "` names no node"};
      out.inputs.push_back(ir::InputRef{it->second, output});
    }
  }

  // Data takes the view of the first Load reading it, Output the view of its input; untyped
  // outputs take the dtype of their first input (in file order, which is topological).
  void Views() {
    for (std::size_t k = 0; k < g_.nodes.size(); ++k) {
      ir::Node& n = g_.nodes[k];
      if (!n.inputs.empty() && untyped_.contains(src_.nodes[k].var)) {
        const ir::InputRef& in = n.inputs[0];
        if (in.node < 0 || static_cast<std::size_t>(in.node) >= g_.nodes.size())
          throw Refuse{"bad input of " + n.name};
        n.outputs[0].dtype = g_.nodes[static_cast<std::size_t>(in.node)].outputs[0].dtype;
      }
      if (n.type == "Output" && !n.inputs.empty() && n.outputs[0].axis.empty()) {
        const ir::Tensor& from = g_.nodes[static_cast<std::size_t>(n.inputs[0].node)].outputs[0];
        n.outputs[0].axis = from.axis;
        n.outputs[0].repeats = from.repeats;
        n.outputs[0].strides = from.strides;
        n.sched.axis = g_.nodes[static_cast<std::size_t>(n.inputs[0].node)].sched.axis;
      }
      if (n.type == "Load" && !n.inputs.empty()) {
        ir::Node& d = g_.nodes[static_cast<std::size_t>(n.inputs[0].node)];
        if (d.type == "Data" && d.outputs[0].axis.empty()) {
          d.outputs[0].axis = n.outputs[0].axis;
          d.outputs[0].repeats = n.outputs[0].repeats;
          d.outputs[0].strides = n.outputs[0].strides;
          d.sched.axis = n.sched.axis;
          n.outputs[0].dtype = d.outputs[0].dtype;
        }
      }
    }
  }

  const AscPyGraph& src_;
  ir::Graph g_;
  std::map<std::string, std::int64_t> axis_;
  std::map<std::string, int> node_;
  std::set<std::string> untyped_;
};

}  // namespace

AscPyHint ToHintGraph(const AscPyGraph& g) {
  AscPyHint h;
  if (g.fused) {
    h.reason = "a fused graph (its hint graphs are the AscBackend nodes' graphs)";
    return h;
  }
  try {
    Converter c(g);
    h.graph = c.Run();
  } catch (const Refuse& r) {
    h.reason = r.reason;
  } catch (const std::exception& e) {
    h.reason = std::string("cannot convert: ") + e.what();
  }
  return h;
}

}  // namespace af::importers::inductor
