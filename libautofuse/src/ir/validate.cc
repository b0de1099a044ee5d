// Graph validation: structure, views, op signatures, dtypes and symbols.
#include "autofuse/ir/validate.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "autofuse/ir/conv.h"
#include "autofuse/ir/cube.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"

namespace af::ir {
namespace {

class Checker {
 public:
  explicit Checker(const Graph& g) : g_(g) {
    for (const auto& v : g.size_vars)
      known_symbols_.insert(v.name);
    // Inner sizes of split axes are tiling variables (z0t_size ...), known by construction.
    for (const auto& a : g.axes) {
      if (a.type == AxisType::kTileInner || a.type == AxisType::kBlockInner) {
        for (const auto& s : a.size.FreeSymbols())
          known_symbols_.insert(s);
      }
    }
  }

  std::vector<Diagnostic> Run() {
    CheckAxes();
    std::set<std::string> names;
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      if (!names.insert(n.name).second) Error(i, "duplicate node name");
      CheckNode(static_cast<int>(i));
    }
    if (g_.TopoOrder().empty() && !g_.nodes.empty()) {
      diags_.push_back({Diagnostic::Severity::kError, -1, "the graph has a cycle"});
    }
    return std::move(diags_);
  }

 private:
  void Error(std::size_t node, const std::string& msg) {
    diags_.push_back({Diagnostic::Severity::kError, static_cast<int>(node),
                      "node '" + g_.nodes[node].name + "' (" + g_.nodes[node].type + "): " + msg});
  }
  void GraphError(const std::string& msg) {
    diags_.push_back({Diagnostic::Severity::kError, -1, msg});
  }

  void CheckSymbols(const Expr& e, const std::string& where, std::size_t node, bool graph_level) {
    for (const auto& s : e.FreeSymbols()) {
      if (!known_symbols_.contains(s)) {
        const std::string msg = where + " uses unknown size symbol '" + s + "'";
        if (graph_level) {
          GraphError(msg);
        } else {
          Error(node, msg);
        }
      }
    }
  }

  void CheckAxes() {
    std::set<std::int64_t> ids;
    std::set<std::string> names;
    for (const auto& a : g_.axes) {
      const std::string where = "axis '" + a.name + "'";
      if (!ids.insert(a.id).second) GraphError(where + " reuses id " + std::to_string(a.id));
      if (!names.insert(a.name).second) GraphError(where + " is declared twice");
      CheckSymbols(a.size, where + " size", 0, true);
      for (auto p : a.from) {
        if (g_.FindAxis(p) == nullptr) {
          GraphError(where + " comes from unknown axis id " + std::to_string(p));
        }
      }
      if (a.type != AxisType::kOriginal && a.from.empty()) {
        GraphError(where + " is " + std::string(AxisTypeName(a.type)) + " but has no parent");
      }
    }
  }

  void CheckAxisList(std::size_t i, const std::vector<std::int64_t>& list,
                     const std::string& what) {
    std::set<std::int64_t> seen;
    for (auto id : list) {
      if (g_.FindAxis(id) == nullptr) {
        Error(i, what + " refers to unknown axis id " + std::to_string(id));
      } else if (!seen.insert(id).second) {
        Error(i, what + " lists axis '" + g_.FindAxis(id)->name + "' twice");
      }
    }
  }

  void CheckNode(int i) {
    const Node& n = g_.nodes[i];
    const OpDef* op = FindOp(n.type);
    if (op == nullptr) {
      Error(i, "unknown op type '" + n.type + "'");
    }
    // Inputs.
    for (std::size_t s = 0; s < n.inputs.size(); ++s) {
      const InputRef& in = n.inputs[s];
      if (in.node < 0 || in.node >= static_cast<int>(g_.nodes.size())) {
        Error(i, "input " + std::to_string(s) + " is dangling (no producer node)");
        continue;
      }
      if (in.node == i) Error(i, "input " + std::to_string(s) + " is the node itself");
      const Node& p = g_.nodes[in.node];
      if (in.output < 0 || in.output >= static_cast<int>(p.outputs.size())) {
        Error(i, "input " + std::to_string(s) + " reads output " + std::to_string(in.output) +
                     " of '" + p.name + "', which has " + std::to_string(p.outputs.size()) +
                     " outputs");
      }
    }
    if (op != nullptr) {
      const auto want = op->inputs.size();
      const bool degree_input =
          (op->code == OpCode::kLaguerrePolynomialL || op->code == OpCode::kLegendrePolynomialP) &&
          n.inputs.size() == 2;
      if (degree_input) {
        // AscIR's own form: the degree as a second, integer input. We take it as attribute n
        // (docs/ir.md): say so rather than only count the inputs.
        Error(i,
              "has the degree as a second input (AscIR's form); give it as the integer "
              "attribute 'n' on the one input x (the degree must be known when the kernel is "
              "generated)");
      } else if (op->dynamic_inputs ? n.inputs.empty() : n.inputs.size() != want) {
        Error(i, "expects " +
                     std::string(op->dynamic_inputs ? "at least 1" : std::to_string(want)) +
                     " inputs, has " + std::to_string(n.inputs.size()));
      }
      if (op->code == OpCode::kOutput && n.inputs.size() > 1) {
        for (std::size_t s = 0; s < n.inputs.size(); ++s) {
          const int p = n.inputs[s].node;
          if (p < 0 || p >= static_cast<int>(g_.nodes.size())) continue;
          const OpDef* pop = FindOp(g_.nodes[p].type);
          if (pop == nullptr || pop->code != OpCode::kStore) {
            Error(i, "has " + std::to_string(n.inputs.size()) +
                         " inputs, so each must be a Store; input " + std::to_string(s) + " is '" +
                         g_.nodes[p].name + "' (" + g_.nodes[p].type + ")");
          }
        }
      }
      for (const auto& key : op->required_attrs) {
        if (n.FindAttr(key) == nullptr) Error(i, "missing attribute '" + key + "'");
      }
      if (IsPolynomialOp(op->code) && n.FindAttr("n") != nullptr && !PolynomialDegree(n)) {
        Error(i, "attribute 'n' (the polynomial's degree) must be an integer");
      }
      if ((op->code == OpCode::kData || op->code == OpCode::kOutput) &&
          n.FindAttr("index") == nullptr) {
        diags_.push_back({Diagnostic::Severity::kWarning, i,
                          "node '" + n.name + "' (" + n.type +
                              "): no 'index' attribute; numbered by its order in the graph"});
      }
      if (!op->dynamic_outputs && n.outputs.size() != static_cast<std::size_t>(op->num_outputs)) {
        Error(i, "expects " + std::to_string(op->num_outputs) + " output(s), has " +
                     std::to_string(n.outputs.size()));
      }
    }
    // Schedule.
    CheckAxisList(i, n.sched.axis, "the loop nest");
    if (n.sched.loop_axis != -1 && std::find(n.sched.axis.begin(), n.sched.axis.end(),
                                             n.sched.loop_axis) == n.sched.axis.end()) {
      Error(i, "loop axis " + std::to_string(n.sched.loop_axis) + " is not in its loop nest");
    }
    // Views.
    for (std::size_t o = 0; o < n.outputs.size(); ++o) {
      const Tensor& t = n.outputs[o];
      const std::string where = "output " + std::to_string(o);
      if (t.repeats.size() != t.axis.size() || t.strides.size() != t.axis.size()) {
        Error(i, where + " view has " + std::to_string(t.axis.size()) + " axes, " +
                     std::to_string(t.repeats.size()) + " repeats and " +
                     std::to_string(t.strides.size()) + " strides");
      }
      CheckAxisList(i, t.axis, where + " view");
      for (auto v : t.vectorized_axis) {
        if (std::find(t.axis.begin(), t.axis.end(), v) == t.axis.end()) {
          Error(i, where + " vectorises axis id " + std::to_string(v) + ", not in its view");
        }
      }
      if (!t.vectorized_strides.empty() &&
          t.vectorized_strides.size() != t.vectorized_axis.size()) {
        Error(i, where + " has " + std::to_string(t.vectorized_strides.size()) +
                     " vectorized strides for " + std::to_string(t.vectorized_axis.size()) +
                     " vectorized axes");
      }
      for (const auto& e : t.repeats)
        CheckSymbols(e, where + " repeats", i, false);
      for (const auto& e : t.strides)
        CheckSymbols(e, where + " strides", i, false);
      if (t.dtype == DType::kUndefined && (op == nullptr || op->compute != ComputeType::kBuffer)) {
        Error(i, where + " has an undefined dtype");
      }
    }
    if (const AttrValue* off = n.FindAttr("offset")) {
      if (const auto* e = std::get_if<Expr>(off)) CheckSymbols(*e, "offset", i, false);
    }
    if (op != nullptr) CheckDtypes(i, *op);
    if (op != nullptr) CheckDataMovement(i, *op);
  }

  void Warning(std::size_t node, const std::string& msg) {
    diags_.push_back({Diagnostic::Severity::kWarning, static_cast<int>(node),
                      "node '" + g_.nodes[node].name + "' (" + g_.nodes[node].type + "): " + msg});
  }

  static std::string ExprList(const std::vector<Expr>& v) {
    std::string s = "(";
    for (std::size_t k = 0; k < v.size(); ++k)
      s += (k != 0 ? ", " : "") + v[k].ToString();
    return s + ")";
  }

  std::string AxisNames(const std::vector<std::int64_t>& ids) const {
    std::string s = "{";
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const Axis* a = g_.FindAxis(ids[k]);
      s += (k != 0 ? ", " : "") + (a != nullptr ? a->name : "#" + std::to_string(ids[k]));
    }
    return s + "}";
  }

  static bool WellFormed(const Tensor& t) {
    return t.repeats.size() == t.axis.size() && t.strides.size() == t.axis.size();
  }

  // Shape rules of the data-movement ops (docs/ir.md). Dangling inputs and malformed views are
  // reported elsewhere; these checks skip them.
  void CheckDataMovement(int i, const OpDef& op) {
    const Node& n = g_.nodes[static_cast<std::size_t>(i)];
    const auto node = static_cast<std::size_t>(i);
    switch (op.code) {
      case OpCode::kTranspose:
        return CheckTranspose(node, n);
      case OpCode::kConcat:
        return CheckConcat(node, n);
      case OpCode::kSplit:
        return CheckSplit(i, n);
      case OpCode::kGather:
        return CheckGather(node, n);
      case OpCode::kPad:
      case OpCode::kRemovePad:
        return CheckPad(node, n, op.code == OpCode::kPad);
      default:
        if (IsCubeOp(op.code)) {
          for (const std::string& e : CheckMatMul(g_, n))
            Error(node, e);
        }
        if (IsConvOp(op.code)) {
          for (const std::string& e : CheckConv2D(g_, n))
            Error(node, e);
        }
        return;
    }
  }

  void CheckTranspose(std::size_t i, const Node& n) {
    const Tensor* in = InputTensor(g_, n, 0);
    if (in == nullptr || n.outputs.empty() || !WellFormed(*in) || !WellFormed(n.outputs[0])) return;
    const Tensor& out = n.outputs[0];
    const auto perm = TransposePerm(*in, out);
    if (!perm) {
      Error(i, "output axes " + AxisNames(out.axis) + " are not a permutation of the input axes " +
                   AxisNames(in->axis));
      return;
    }
    for (std::size_t j = 0; j < perm->size(); ++j) {
      const std::size_t k = (*perm)[j];
      if (!SameRepeat(out.repeats[j], in->repeats[k])) {
        Error(i, "output dim " + std::to_string(j) + " (axis " + AxisNames({out.axis[j]}) +
                     ") has repeat " + out.repeats[j].ToString() + ", but input dim " +
                     std::to_string(k) + " of that axis has " + in->repeats[k].ToString());
      }
    }
  }

  void CheckConcat(std::size_t i, const Node& n) {
    if (n.outputs.empty() || !WellFormed(n.outputs[0])) return;
    const Tensor& out = n.outputs[0];
    std::vector<const Tensor*> ins;
    for (std::size_t s = 0; s < n.inputs.size(); ++s) {
      const Tensor* t = InputTensor(g_, n, s);
      if (t == nullptr || !WellFormed(*t)) return;
      if (t->repeats.size() != out.repeats.size()) {
        Error(i, "input " + std::to_string(s) + " has rank " + std::to_string(t->repeats.size()) +
                     ", the output has rank " + std::to_string(out.repeats.size()));
        return;
      }
      ins.push_back(t);
    }
    const auto d = ConcatDim(g_, n);
    if (!d) {
      if (ins.size() > 1) {
        Error(i, "every input has the output's repeats " + ExprList(out.repeats) + "; with " +
                     std::to_string(ins.size()) + " inputs one dim (the concat dim) must differ");
      }
      return;
    }
    Expr sum(0);
    for (std::size_t s = 0; s < ins.size(); ++s) {
      for (std::size_t k = 0; k < out.repeats.size(); ++k) {
        if (k != *d && !SameRepeat(ins[s]->repeats[k], out.repeats[k])) {
          Error(i, "input " + std::to_string(s) + " " + ExprList(ins[s]->repeats) +
                       " differs from the output " + ExprList(out.repeats) + " on dim " +
                       std::to_string(k) + " as well as on the concat dim " + std::to_string(*d) +
                       "; Concat inputs agree with the output on every dim but one");
        }
      }
      sum = sum + ins[s]->repeats[*d];
    }
    CheckSum(i, "concat dim " + std::to_string(*d) + ": the inputs' repeats add up to ", sum,
             "the output has", out.repeats[*d]);
  }

  void CheckSum(std::size_t i, const std::string& what, const Expr& sum, const std::string& whose,
                const Expr& want) {
    const sym::Tri eq = sym::ProveEq(sum, want);
    const std::string msg = what + sum.ToString() + ", " + whose + " " + want.ToString();
    if (eq == sym::Tri::kFalse) {
      Error(i, msg);
    } else if (eq == sym::Tri::kUnknown) {
      Warning(i, msg + " (not provably equal)");
    }
  }

  void CheckSplit(int i, const Node& n) {
    const auto node = static_cast<std::size_t>(i);
    for (const char* key : {"index", "gid"}) {
      if (n.FindAttr(key) != nullptr && !n.IntAttr(key)) {
        Error(node, std::string("attribute '") + key + "' is not an integer");
      }
    }
    if (n.outputs.empty()) {
      Error(node, "has no outputs (a Split has one output per piece)");
      return;
    }
    const Tensor* in = InputTensor(g_, n, 0);
    if (in == nullptr || !WellFormed(*in)) return;
    const std::vector<int> group = SplitGroup(g_, i);
    std::vector<const Tensor*> pieces;
    for (const SplitPiece& p : SplitPieces(g_, i)) {
      const Tensor& t =
          g_.nodes[static_cast<std::size_t>(p.node)].outputs[static_cast<std::size_t>(p.output)];
      if (!WellFormed(t)) return;
      if (t.repeats.size() != in->repeats.size()) {
        if (p.node == i) {
          Error(node, "output " + std::to_string(p.output) + " has rank " +
                          std::to_string(t.repeats.size()) + ", the input has rank " +
                          std::to_string(in->repeats.size()));
        }
        return;
      }
      pieces.push_back(&t);
    }
    if (group.size() > 1 && group.front() == i) {
      std::set<std::int64_t> seen;
      for (const int m : group) {
        const auto idx = g_.nodes[static_cast<std::size_t>(m)].IntAttr("index");
        if (!idx) {
          Error(node, "Split '" + g_.nodes[static_cast<std::size_t>(m)].name + "' of gid " +
                          std::to_string(*n.IntAttr("gid")) +
                          " has no integer 'index'; the pieces of one split are ordered by it");
        } else if (!seen.insert(*idx).second) {
          Error(node, "two Split nodes of gid " + std::to_string(*n.IntAttr("gid")) +
                          " have index " + std::to_string(*idx));
        }
      }
    }
    const auto d = SplitDim(g_, i);
    if (!d) {
      if (pieces.size() > 1 && group.front() == i) {
        Error(node, "every piece has the input's repeats " + ExprList(in->repeats) + "; with " +
                        std::to_string(pieces.size()) +
                        " pieces one dim (the split dim) must differ");
      }
      return;
    }
    for (std::size_t o = 0; o < n.outputs.size(); ++o) {
      const Tensor& t = n.outputs[o];
      for (std::size_t k = 0; k < in->repeats.size(); ++k) {
        if (k != *d && !SameRepeat(t.repeats[k], in->repeats[k])) {
          Error(node, "output " + std::to_string(o) + " " + ExprList(t.repeats) +
                          " differs from the input " + ExprList(in->repeats) + " on dim " +
                          std::to_string(k) + " as well as on the split dim " + std::to_string(*d) +
                          "; Split pieces agree with the input on every dim "
                          "but one");
        }
      }
    }
    if (group.front() != i) return;  // the group's sum is checked once, on its first node
    Expr sum(0);
    for (const Tensor* t : pieces)
      sum = sum + t->repeats[*d];
    CheckSum(node, "split dim " + std::to_string(*d) + ": the pieces' repeats add up to ", sum,
             "the input has", in->repeats[*d]);
  }

  void CheckGather(std::size_t i, const Node& n) {
    const AttrValue* nis = n.FindAttr("negative_index_support");
    if (nis != nullptr && std::get_if<bool>(nis) == nullptr &&
        !n.IntAttr("negative_index_support")) {
      Error(i, "attribute 'negative_index_support' is neither a bool nor an integer");
    }
    const Tensor* params = InputTensor(g_, n, 0);
    const Tensor* indices = InputTensor(g_, n, 1);
    if (params == nullptr || indices == nullptr || n.outputs.empty()) return;
    if (indices->dtype != DType::kInt32 && indices->dtype != DType::kInt64) {
      Error(i, "indices (input 1) have dtype " + std::string(DTypeName(indices->dtype)) +
                   "; Gather takes int32 or int64 indices");
    }
    if (!WellFormed(*params) || !WellFormed(*indices) || !WellFormed(n.outputs[0])) return;
    if (n.FindAttr("axis") == nullptr) return;  // reported as a missing attribute
    const auto rank = static_cast<std::int64_t>(params->repeats.size());
    const auto axis = GatherAxis(n, params->repeats.size());
    if (!axis) {
      const auto v = n.IntAttr("axis");
      Error(i, v ? "attribute 'axis' = " + std::to_string(*v) + " is outside [" +
                       std::to_string(-rank) + ", " + std::to_string(rank) +
                       ") for params of rank " + std::to_string(rank)
                 : std::string("attribute 'axis' is not an integer"));
      return;
    }
    const std::vector<Expr> want = GatherOutputRepeats(*params, *indices, *axis);
    const Tensor& out = n.outputs[0];
    if (out.repeats.size() != want.size()) {
      Error(i, "output has rank " + std::to_string(out.repeats.size()) + ", expected " +
                   std::to_string(want.size()) + " = params[:axis] + indices + params[axis+1:] " +
                   ExprList(want));
      return;
    }
    for (std::size_t k = 0; k < want.size(); ++k) {
      if (!SameRepeat(out.repeats[k], want[k])) {
        Error(i, "output repeats " + ExprList(out.repeats) + " differ from params[:axis] + " +
                     "indices + params[axis+1:] = " + ExprList(want) + " at dim " +
                     std::to_string(k));
        return;
      }
    }
  }

  void CheckPad(std::size_t i, const Node& n, bool pad) {
    const Tensor* in = InputTensor(g_, n, 0);
    if (in == nullptr || n.outputs.empty() || !WellFormed(*in) || !WellFormed(n.outputs[0])) return;
    const Tensor& out = n.outputs[0];
    if (out.repeats.size() != in->repeats.size()) {
      Error(i, "output has rank " + std::to_string(out.repeats.size()) + ", the input has rank " +
                   std::to_string(in->repeats.size()));
      return;
    }
    for (std::size_t k = 0; k < out.repeats.size(); ++k) {
      const sym::Tri ok = pad ? sym::ProveGe(out.repeats[k], in->repeats[k])
                              : sym::ProveLe(out.repeats[k], in->repeats[k]);
      if (ok == sym::Tri::kFalse) {
        Error(i, "output dim " + std::to_string(k) + " has repeat " + out.repeats[k].ToString() +
                     (pad ? ", smaller than" : ", larger than") + " the input's " +
                     in->repeats[k].ToString() +
                     (pad ? " (Pad only adds padding)" : " (RemovePad only drops padding)"));
      }
    }
  }

  void CheckDtypes(int i, const OpDef& op) {
    const Node& n = g_.nodes[i];
    if (op.compute == ComputeType::kBuffer) return;
    std::vector<DType> in;
    for (const auto& r : n.inputs) {
      if (r.node < 0 || r.node >= static_cast<int>(g_.nodes.size())) return;
      const Node& p = g_.nodes[r.node];
      if (r.output < 0 || r.output >= static_cast<int>(p.outputs.size())) return;
      in.push_back(p.outputs[r.output].dtype);
    }
    if (in.empty() || n.outputs.empty()) return;
    std::size_t first_data = (op.code == OpCode::kWhere || op.code == OpCode::kSelect) ? 1 : 0;
    if (op.code == OpCode::kGather) in.resize(1);
    for (std::size_t s = first_data; s < in.size(); ++s) {
      if (!op.dtypes.empty() &&
          std::find(op.dtypes.begin(), op.dtypes.end(), in[s]) == op.dtypes.end()) {
        Error(i, "input " + std::to_string(s) + " has dtype " + std::string(DTypeName(in[s])) +
                     ", which " + op.type + " does not support");
      }
      if (op.same_input_dtypes && in[s] != in[first_data]) {
        Error(i, "inputs have different dtypes (" + std::string(DTypeName(in[first_data])) +
                     " and " + std::string(DTypeName(in[s])) + ")");
      }
    }
    if ((op.code == OpCode::kWhere || op.code == OpCode::kSelect) && in.size() == 3 &&
        in[1] != in[2]) {
      Error(i, "value inputs have different dtypes");
    }
    if (op.code == OpCode::kMaskedFill && in.size() == 3) {
      if (in[1] != DType::kBool && in[1] != DType::kUInt8) Error(i, "mask is not bool");
      if (in[0] != in[2]) Error(i, "x and value have different dtypes");
    }
    const DType out = n.outputs[0].dtype;
    std::optional<DType> expected;
    switch (op.out_rule) {
      case DTypeRule::kSameAsFirst:
        expected = in[0];
        break;
      case DTypeRule::kSameAsSecond:
        if (in.size() > 1) expected = in[1];
        break;
      case DTypeRule::kBool:
        if (out != DType::kBool && out != DType::kUInt8) {
          Error(i, "output dtype is " + std::string(DTypeName(out)) + ", expected bool");
        }
        break;
      case DTypeRule::kDeclared:
        break;
    }
    if (expected && out != *expected) {
      Error(i, "output dtype is " + std::string(DTypeName(out)) + ", expected " +
                   std::string(DTypeName(*expected)));
    }
  }

  const Graph& g_;
  std::set<std::string> known_symbols_;
  std::vector<Diagnostic> diags_;
};

}  // namespace

std::optional<std::int64_t> PolynomialDegree(const Node& n) {
  const AttrValue* a = n.FindAttr("n");
  if (a == nullptr) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(a)) return *i;
  double d = 0;
  if (const auto* f = std::get_if<double>(a)) {
    d = *f;
  } else if (const auto* s = std::get_if<std::string>(a)) {
    char* end = nullptr;
    d = std::strtod(s->c_str(), &end);
    if (end == s->c_str() || *end != '\0') return std::nullopt;
  } else {
    return std::nullopt;
  }
  // Integral and within int64 (2^63 is the first double past it).
  if (!(d == std::trunc(d) && std::fabs(d) < 9.2233720368547758e18)) return std::nullopt;
  return static_cast<std::int64_t>(d);
}

std::vector<Diagnostic> Validate(const Graph& g) {
  return Checker(g).Run();
}

bool HasErrors(const std::vector<Diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) {
    return d.severity == Diagnostic::Severity::kError;
  });
}

std::string FormatDiagnostics(const std::vector<Diagnostic>& diags) {
  std::ostringstream ss;
  for (const auto& d : diags) {
    ss << (d.severity == Diagnostic::Severity::kError ? "error: " : "warning: ") << d.message
       << "\n";
  }
  return ss.str();
}

}  // namespace af::ir
