// Lowering of a group of model-graph nodes into one AscIR hint graph (see lower.h).
//
// One pass over the group's nodes in graph order builds the AscIR nodes. Each tensor carries a
// layout: per model dim, an axis class (union-find over dims that broadcasting says are the same
// loop axis) and whether the tensor spans it (`full`) or has extent 1 there. Views of values that
// come from outside the group stay unmaterialised "chains" (offset, sizes, strides over the
// external buffer) until an op reads them; then they become a Load. After the pass the classes
// become the graph's axes, ordered like the widest tensor, and every node gets its view.
#include "autofuse/frontend/lower.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <tuple>
#include <variant>

#include "autofuse/ir/op_registry.h"
#include "autofuse/model/promotion.h"
#include "autofuse/model/shape.h"

namespace af::frontend {
namespace {

using ir::DType;
using model::Arg;
using sym::Expr;

struct Dim {
  int cls = -1;  // axis class, -1 = none (extent 1, no axis known)
  bool full = false;
};
using Layout = std::vector<Dim>;

// An unmaterialised view of an external value: element (i0, i1, ...) is at
// offset + sum ik * strides[k] of the external (contiguous) buffer.
struct Chain {
  int base = -1;
  Expr offset;
  std::vector<Expr> sizes;
  std::vector<Expr> strides;
};

struct Emitted {
  int node = -1;
  DType dtype = DType::kFloat32;  // the IR dtype (fp32 for upcast fp16/bf16)
  Layout layout;
};

enum class Role : std::uint8_t { kCompute, kScalar, kData, kLoad, kStore, kOutput };

struct Info {
  Role role = Role::kCompute;
  Layout layout;
  std::vector<Expr> phys;  // Load/Store: buffer stride per layout dim
  Expr offset;
  int base = -1;  // Data: model value id; Load: Data node; Output: model value id
};

bool IsHalf(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16;
}

std::string Lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string FormatDouble(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 6; prec <= 17; ++prec) {  // the shortest text that reads back exactly
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

bool IsOne(const Expr& e) {
  return e == Expr(1);
}

class Lowerer {
 public:
  Lowerer(const model::Graph& g, const LowerOptions& o) : g_(g), o_(o) {}

  LoweredKernel Run(const std::vector<int>& nodes);

 private:
  // ---- helpers over the model graph
  const model::ValueType& TypeOf(int value) const { return g_.value(value).type; }
  const model::ValueType& OutType(const model::Node& n, int k = 0) const {
    if (static_cast<std::size_t>(k) >= n.outputs.size())
      throw LowerError("UNSUPPORTED_OP", n.name + " has no output " + std::to_string(k));
    const auto& t = TypeOf(n.outputs[static_cast<std::size_t>(k)]);
    if (!t.IsTensor() || t.dtype == DType::kUndefined)
      throw LowerError("UNKNOWN_TYPE", n.name + ": output type not known as a tensor");
    return t;
  }
  DType Compute(DType t) const { return o_.upcast_half && IsHalf(t) ? DType::kFloat32 : t; }

  // ---- union-find of axis classes
  int NewClass(const Expr& size) {
    parent_.push_back(static_cast<int>(parent_.size()));
    size_.push_back(size);
    return parent_.back();
  }
  int Find(int c) {
    while (parent_[static_cast<std::size_t>(c)] != c)
      c = parent_[static_cast<std::size_t>(c)] =
          parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(c)])];
    return c;
  }
  int Unify(int a, int b, const std::string& where) {
    a = Find(a);
    b = Find(b);
    if (a == b) return a;
    if (size_[static_cast<std::size_t>(a)] != size_[static_cast<std::size_t>(b)]) {
      throw LowerError("AXIS_CONFLICT",
                       where + ": dims of size " + size_[static_cast<std::size_t>(a)].ToString() +
                           " and " + size_[static_cast<std::size_t>(b)].ToString() +
                           " meet on one axis");
    }
    parent_[static_cast<std::size_t>(b)] = a;
    // a piece of a concat/split axis stays one after the merge
    if (auto pb = part_of_.find(b); pb != part_of_.end()) {
      const int wb = pb->second;
      part_of_.erase(pb);
      if (auto pa = part_of_.find(a); pa == part_of_.end()) {
        part_of_[a] = wb;
      } else if (AxisClass(pa->second) != AxisClass(wb)) {
        Unify(AxisClass(pa->second), AxisClass(wb), where);
      }
    }
    return a;
  }
  // The class whose loop axis class `c` lives on: its root, or for a piece of a concat or split
  // (docs/ir.md: the pieces share the whole's axis id with a smaller repeat) the whole's.
  int AxisClass(int c) {
    c = Find(c);
    for (std::size_t guard = 0; part_of_.contains(c); ++guard) {
      if (guard > parent_.size())
        throw LowerError("AXIS_CONFLICT", "a concat or split axis is a piece of itself");
      c = Find(part_of_.at(c));
    }
    return c;
  }
  // Class `piece` is a piece (smaller repeat) of the axis of class `whole`.
  void MarkPart(int piece, int whole, const std::string& where) {
    const int p = Find(piece);
    const int ap = AxisClass(p);
    const int aw = AxisClass(whole);
    if (ap == aw) {
      if (p == aw) {
        throw LowerError("AXIS_CONFLICT",
                         where + ": a concat/split piece would be the axis it is a piece of");
      }
      return;
    }
    if (part_of_.contains(p)) {
      Unify(ap, aw, where);  // one piece on two concat/split axes: they must be one axis
      return;
    }
    part_of_[p] = Find(whole);
  }

  // ---- emission
  int Add(const std::string& type, std::vector<int> inputs, DType dt, Info info) {
    ir::Node n;
    n.type = type;
    n.name = Lower(type) + std::to_string(g_out_.nodes.size());
    for (int i : inputs)
      n.inputs.push_back({i, 0});
    ir::Tensor t;
    t.dtype = dt;
    n.outputs.push_back(t);
    g_out_.nodes.push_back(std::move(n));
    info_.push_back(std::move(info));
    return static_cast<int>(g_out_.nodes.size()) - 1;
  }
  Emitted Op(const std::string& type, const std::vector<Emitted>& in, DType dt, Layout l) {
    std::vector<int> ids;
    for (const auto& e : in)
      ids.push_back(e.node);
    // the same op on the same inputs with the same result is emitted once
    std::vector<std::pair<int, bool>> key_layout;
    for (const auto& d : l)
      key_layout.emplace_back(d.cls < 0 ? -1 : Find(d.cls), d.full);
    auto key = std::make_tuple(type, ids, dt, key_layout);
    if (auto it = ops_.find(key); it != ops_.end()) return it->second;
    Info info;
    info.layout = l;
    Emitted e{Add(type, ids, dt, info), dt, l};
    ops_[key] = e;
    return e;
  }
  Emitted Scalar(double v, DType dt) {
    std::string text = FormatDouble(v);
    if (dt == DType::kBool) text = v != 0 ? "true" : "false";
    if (!ir::IsFloat(dt) && dt != DType::kBool && std::isfinite(v))
      text = std::to_string(static_cast<std::int64_t>(v));
    auto key = std::make_pair(text, dt);
    if (auto it = scalars_.find(key); it != scalars_.end()) return it->second;
    Info info;
    info.role = Role::kScalar;
    const int id = Add("Scalar", {}, dt, info);
    g_out_.nodes[static_cast<std::size_t>(id)].attrs["value"] = text;
    Emitted e{id, dt, {}};
    scalars_[key] = e;
    return e;
  }
  Emitted ScalarExpr(const Expr& e, DType dt) {
    if (auto v = e.AsInt()) return Scalar(static_cast<double>(*v), dt);
    Info info;
    info.role = Role::kScalar;
    const int id = Add("Scalar", {}, dt, info);
    g_out_.nodes[static_cast<std::size_t>(id)].attrs["value"] = e;
    return {id, dt, {}};
  }
  Emitted Cast(const Emitted& e, DType to) {
    if (e.dtype == to) return e;
    const ir::Node& n = g_out_.nodes[static_cast<std::size_t>(e.node)];
    if (n.type == "Cast" && e.dtype == DType::kFloat32 && IsHalf(to)) {
      // an fp16/bf16 value widened to fp32: narrowing it back is exact, use the narrow value
      const int src = n.inputs[0].node;
      if (g_out_.nodes[static_cast<std::size_t>(src)].outputs[0].dtype == to)
        return {src, to, info_[static_cast<std::size_t>(src)].layout};
    }
    return Op("Cast", {e}, to, e.layout);
  }
  // Broadcasts `e` to `out` (right-aligned) when it lacks any of out's full dims.
  Emitted BroadcastTo(const Emitted& e, const Layout& out) {
    if (e.layout.empty() && info_[static_cast<std::size_t>(e.node)].role == Role::kScalar) return e;
    const std::size_t r = out.size();
    const std::size_t er = e.layout.size();
    bool need = er != r;
    for (std::size_t j = 0; j < r && !need; ++j) {
      if (out[j].full && !e.layout[j].full) need = true;
    }
    if (!need) return e;
    std::vector<std::pair<int, bool>> key_layout;
    for (const auto& d : out)
      key_layout.emplace_back(d.cls < 0 ? -1 : Find(d.cls), d.full);
    auto key = std::make_pair(e.node, key_layout);
    if (auto it = broadcasts_.find(key); it != broadcasts_.end()) return it->second;
    Emitted b = Op("Broadcast", {e}, e.dtype, out);
    broadcasts_[key] = b;
    return b;
  }

  // A value as an emitted tensor (materialising chains into Data + Load, + Broadcast for
  // expanded dims).
  Emitted Get(int value);
  std::variant<Emitted, Chain> Source(int value);
  Emitted Materialize(const Chain& c);
  int DataFor(int base);

  // An argument as a tensor operand or a Python scalar.
  struct Operand {
    bool scalar = false;
    double v = 0;
    DType scalar_dtype = DType::kFloat32;  // bool, int64 or float32 (Python classes)
    int value = -1;
  };
  Operand ArgOperand(const model::Node& n, const Arg& a);

  // Broadcast layout of tensor operands, unifying dims; checks against the model's output shape.
  Layout BroadcastLayout(const model::Node& n, const std::vector<Emitted>& in,
                         const std::vector<Expr>& out_shape);
  // Emits an elementwise op over operands already cast to their dtype.
  Emitted Elementwise(const model::Node& n, const std::string& type, std::vector<Emitted> in,
                      DType out_dt, const std::vector<Expr>& out_shape);
  Emitted Pointwise(const model::Node& n, const std::string& type, const std::vector<Operand>& ops,
                    DType compute, DType out_dt, const std::vector<Expr>& out_shape);

  void LowerNode(const model::Node& n);
  void LowerReduce(const model::Node& n);
  void LowerView(const model::Node& n);
  // data movement (docs/frontend.md, "Data movement")
  Emitted ConcatOf(const model::Node& n, std::vector<Emitted> in, std::size_t dim, const Expr& size,
                   DType dt);
  void LowerCat(const model::Node& n);
  void LowerSplit(const model::Node& n);
  void LowerGather(const model::Node& n);
  void LowerPad(const model::Node& n);
  int GatherData(const model::Node& n, int value, const char* what);

  void Finalize(LoweredKernel* k);

  const model::Graph& g_;
  const LowerOptions& o_;
  std::set<int> group_;
  std::map<int, std::variant<Emitted, Chain>> values_;
  std::map<std::pair<int, std::vector<std::pair<int, bool>>>, Emitted> broadcasts_;
  std::map<std::tuple<std::string, std::vector<int>, DType, std::vector<std::pair<int, bool>>>,
           Emitted>
      ops_;
  std::map<std::pair<std::string, DType>, Emitted> scalars_;
  std::map<int, Emitted> materialized_;  // external / chain values by model value id
  std::map<int, int> data_;              // base model value -> Data node
  std::vector<int> data_order_;          // model values of the Data nodes, by index
  std::vector<int> parent_;
  std::vector<Expr> size_;
  std::map<int, int> part_of_;  // root class -> the class of the concat/split axis it is a piece of
  // A Gather and the classes of its params dims (docs/ir.md: output = params[:axis] + indices +
  // params[axis+1:]); its params and indices are read straight from Data nodes.
  struct GatherUse {
    int node = -1;
    int params = -1;  // Data nodes
    int indices = -1;
    std::vector<int> prefix;  // classes of params[:axis]
    std::vector<int> suffix;  // classes of params[axis+1:]
    Layout index_layout;      // the indices' dims
    Expr extent;              // params extent along axis (an axis of its own, no loop)
    std::vector<Expr> params_shape;
  };
  std::vector<GatherUse> gathers_;
  std::set<int> gather_data_;  // Data nodes read by a Gather
  int split_gid_ = 0;
  ir::Graph g_out_;
  std::vector<Info> info_;
};

// ------------------------------------------------------------------ sources

std::variant<Emitted, Chain> Lowerer::Source(int value) {
  if (auto it = values_.find(value); it != values_.end()) return it->second;
  const auto& t = TypeOf(value);
  if (!t.IsTensor() || t.dtype == DType::kUndefined) {
    throw LowerError("UNKNOWN_TYPE", "value " + g_.value(value).name + " is not a known tensor");
  }
  Chain c;
  c.base = value;
  c.offset = Expr(0);
  c.sizes = t.shape;
  c.strides = model::ContiguousStrides(t.shape);
  return c;
}

int Lowerer::DataFor(int base) {
  if (auto it = data_.find(base); it != data_.end()) return it->second;
  Info info;
  info.role = Role::kData;
  info.base = base;
  const int id = Add("Data", {}, TypeOf(base).dtype, info);
  g_out_.nodes[static_cast<std::size_t>(id)].attrs["index"] =
      static_cast<std::int64_t>(data_order_.size());
  g_out_.nodes[static_cast<std::size_t>(id)].name = "arg" + std::to_string(data_order_.size());
  data_order_.push_back(base);
  data_[base] = id;
  return id;
}

Emitted Lowerer::Materialize(const Chain& c) {
  const int data = DataFor(c.base);
  Info info;
  info.role = Role::kLoad;
  info.offset = c.offset;
  info.base = data;
  Layout full;
  bool expanded = false;
  for (std::size_t k = 0; k < c.sizes.size(); ++k) {
    Dim d;
    if (!IsOne(c.sizes[k])) {
      d.cls = NewClass(c.sizes[k]);
      d.full = c.strides[k] != Expr(0);
      expanded = expanded || !d.full;
    }
    info.layout.push_back(d);
    info.phys.push_back(d.full ? c.strides[k] : Expr(0));
    full.push_back({d.cls, d.cls >= 0});
  }
  const DType dt = TypeOf(c.base).dtype;
  Layout l = info.layout;
  Emitted e{Add("Load", {data}, dt, std::move(info)), dt, l};
  e = Cast(e, Compute(dt));
  if (expanded) e = Op("Broadcast", {e}, e.dtype, full);
  return e;
}

Emitted Lowerer::Get(int value) {
  auto src = Source(value);
  if (auto* e = std::get_if<Emitted>(&src)) return *e;
  if (auto it = materialized_.find(value); it != materialized_.end()) return it->second;
  Emitted e = Materialize(std::get<Chain>(src));
  materialized_[value] = e;
  return e;
}

Lowerer::Operand Lowerer::ArgOperand(const model::Node& n, const Arg& a) {
  Operand op;
  switch (a.kind) {
    case Arg::Kind::kValue: {
      const auto& t = TypeOf(a.value);
      if (t.IsTensor()) {
        op.value = a.value;
        return op;
      }
      if (t.kind == model::ValueKind::kSymInt && t.expr) {
        if (auto v = t.expr->AsInt()) {
          op.scalar = true;
          op.v = static_cast<double>(*v);
          op.scalar_dtype = DType::kInt64;
          return op;
        }
      }
      throw LowerError("SYMBOLIC_SCALAR", n.name + ": a symbolic scalar operand is not lowered (" +
                                              t.ToString() + ")");
    }
    case Arg::Kind::kBool:
      op.scalar = true;
      op.v = a.b ? 1 : 0;
      op.scalar_dtype = DType::kBool;
      return op;
    case Arg::Kind::kInt:
      op.scalar = true;
      op.v = static_cast<double>(a.i);
      op.scalar_dtype = DType::kInt64;
      return op;
    case Arg::Kind::kFloat:
      op.scalar = true;
      op.v = a.f;
      op.scalar_dtype = DType::kFloat32;
      return op;
    default:
      throw LowerError("UNSUPPORTED_ARG", n.name + ": an operand is neither a tensor nor a number");
  }
}

// ------------------------------------------------------------------ pointwise

Layout Lowerer::BroadcastLayout(const model::Node& n, const std::vector<Emitted>& in,
                                const std::vector<Expr>& out_shape) {
  const std::size_t r = out_shape.size();
  Layout out(r);
  for (std::size_t j = 0; j < r; ++j) {
    int cls = -1;
    bool full = false;
    int any = -1;
    for (const auto& e : in) {
      const std::size_t er = e.layout.size();
      if (er > r) throw LowerError("AXIS_CONFLICT", n.name + ": operand of higher rank");
      if (j + er < r) continue;
      const Dim& d = e.layout[j + er - r];
      if (d.cls < 0) continue;
      if (d.full) {
        cls = cls < 0 ? Find(d.cls) : Unify(cls, d.cls, n.name);
        full = true;
      } else if (any < 0) {
        any = Find(d.cls);
      }
    }
    if (!full && !IsOne(out_shape[j])) {
      throw LowerError("AXIS_CONFLICT", n.name + ": output dim " + std::to_string(j) +
                                            " has size " + out_shape[j].ToString() +
                                            " but no operand spans it");
    }
    out[j] = full ? Dim{cls, true} : Dim{any, false};
  }
  return out;
}

Emitted Lowerer::Elementwise(const model::Node& n, const std::string& type, std::vector<Emitted> in,
                             DType out_dt, const std::vector<Expr>& out_shape) {
  const Layout l = BroadcastLayout(n, in, out_shape);
  for (auto& e : in)
    e = BroadcastTo(e, l);
  return Op(type, in, out_dt, l);
}

Emitted Lowerer::Pointwise(const model::Node& n, const std::string& type,
                           const std::vector<Operand>& ops, DType compute, DType out_dt,
                           const std::vector<Expr>& out_shape) {
  std::vector<Emitted> in;
  for (const auto& op : ops) {
    if (op.scalar) {
      in.push_back(Scalar(op.v, compute));
    } else {
      in.push_back(Cast(Get(op.value), compute));
    }
  }
  return Elementwise(n, type, std::move(in), out_dt, out_shape);
}

const Arg* ArgAt(const model::Node& n, std::size_t i, std::string_view kw) {
  if (i < n.args.size()) return &n.args[i];
  return n.Kwarg(kw);
}

double FloatArg(const Arg* a, double dflt) {
  if (a == nullptr || a->IsNone()) return dflt;
  if (a->kind == Arg::Kind::kFloat) return a->f;
  if (auto v = a->AsInt()) return static_cast<double>(*v);
  throw LowerError("UNSUPPORTED_ARG", "expected a number");
}

std::optional<Expr> IntExprArg(const model::Graph& g, const Arg* a) {
  if (a == nullptr || a->IsNone()) return std::nullopt;
  if (auto v = a->AsInt()) return Expr(*v);
  if (a->IsValue()) {
    const auto& t = g.value(a->value).type;
    if (t.kind == model::ValueKind::kSymInt && t.expr) return *t.expr;
  }
  throw LowerError("UNSUPPORTED_ARG", "expected an integer");
}

std::string StringArg(const Arg* a, const std::string& dflt) {
  if (a == nullptr || a->IsNone()) return dflt;
  if (a->kind == Arg::Kind::kString) return a->text;
  throw LowerError("UNSUPPORTED_ARG", "expected a string");
}

const std::map<std::string, std::string>& UnaryOps() {
  static const std::map<std::string, std::string> m = {
      {"abs", "Abs"},
      {"neg", "Neg"},
      {"exp", "Exp"},
      {"log", "Ln"},
      {"sqrt", "Sqrt"},
      {"rsqrt", "Rsqrt"},
      {"reciprocal", "Reciprocal"},
      {"relu", "Relu"},
      {"sigmoid", "Sigmoid"},
      {"tanh", "Tanh"},
      {"erf", "Erf"},
      {"sign", "Sign"},
  };
  return m;
}
const std::map<std::string, std::string>& BinaryOps() {
  static const std::map<std::string, std::string> m = {
      {"add", "Add"},         {"sub", "Sub"},         {"mul", "Mul"},
      {"div", "Div"},         {"true_divide", "Div"}, {"maximum", "Maximum"},
      {"minimum", "Minimum"}, {"pow", "Pow"},         {"rsub", "Sub"},
  };
  return m;
}
const std::map<std::string, std::string>& CompareOps() {
  static const std::map<std::string, std::string> m = {
      {"eq", "Eq"}, {"ne", "Ne"}, {"gt", "Gt"}, {"ge", "Ge"}, {"lt", "Lt"}, {"le", "Le"},
  };
  return m;
}
const std::set<std::string>& ReduceOps() {
  static const std::set<std::string> s = {"sum", "mean", "amax", "amin",    "prod",
                                          "any", "all",  "var",  "var_mean"};
  return s;
}
const std::set<std::string>& ViewOps() {
  static const std::set<std::string> s = {
      "view",    "_unsafe_view",    "reshape",    "unsqueeze",   "squeeze",   "expand",
      "permute", "transpose",       "t",          "slice",       "select",    "alias",
      "clone",   "lift_fresh_copy", "contiguous", "expand_copy", "view_copy", "permute_copy"};
  return s;
}
// split family: views of their input (Load offsets), or a Split of a value computed in the kernel
const std::set<std::string>& SplitOps() {
  static const std::set<std::string> s = {"split",      "split_with_sizes",      "split_copy",
                                          "chunk",      "split_with_sizes_copy", "unbind",
                                          "unbind_copy"};
  return s;
}
// data movement that copies: Concat (cat, constant_pad_nd) and Gather
const std::set<std::string>& DataOps() {
  static const std::set<std::string> s = {"cat",    "constant_pad_nd", "index_select", "embedding",
                                          "gather", "index",           "_unsafe_index"};
  return s;
}
const std::set<std::string>& CubeOps() {
  static const std::set<std::string> s = {"mm",         "bmm",    "addmm",       "baddbmm",
                                          "matmul",     "linear", "convolution", "conv2d",
                                          "_scaled_mm", "addmv",  "mv"};
  return s;
}
const std::set<std::string>& OtherPointwise() {
  static const std::set<std::string> s = {"where",
                                          "clamp",
                                          "clamp_min",
                                          "clamp_max",
                                          "gelu",
                                          "silu",
                                          "logical_not",
                                          "logical_and",
                                          "logical_or",
                                          "bitwise_not",
                                          "_to_copy",
                                          "to",
                                          "convert_element_type",
                                          "masked_fill",
                                          "square"};
  return s;
}

OpKind KindOf(const model::Node& n) {
  if (n.kind != model::NodeKind::kOp || (n.op.ns != "aten" && n.op.ns != "prims"))
    return OpKind::kOther;
  const std::string& name = n.op.name;
  if (UnaryOps().count(name) || BinaryOps().count(name) || CompareOps().count(name) ||
      OtherPointwise().count(name))
    return OpKind::kPointwise;
  if (ReduceOps().count(name)) return OpKind::kReduce;
  if (ViewOps().contains(name) || (n.op.ns == "aten" && SplitOps().contains(name)))
    return OpKind::kView;
  if (n.op.ns == "aten" && DataOps().contains(name)) return OpKind::kData;
  if (n.op.ns == "prims" && name == "cat") return OpKind::kData;
  return OpKind::kOther;
}

void Lowerer::LowerNode(const model::Node& n) {
  const std::string& name = n.op.name;
  const OpKind kind = KindOf(n);
  if (kind == OpKind::kReduce) return LowerReduce(n);
  if (kind == OpKind::kView && SplitOps().contains(name)) return LowerSplit(n);
  if (kind == OpKind::kView) return LowerView(n);
  if (kind == OpKind::kData) {
    if (name == "cat") return LowerCat(n);
    if (name == "constant_pad_nd") return LowerPad(n);
    return LowerGather(n);
  }
  if (kind != OpKind::kPointwise) {
    throw LowerError(CubeOps().count(name) ? "CUBE_OP" : "UNSUPPORTED_OP",
                     n.op.ToString() + " is not lowered to AscIR");
  }
  const auto& ot = OutType(n);
  const DType out = ot.dtype;
  const DType cd = Compute(out);
  const auto& shape = ot.shape;
  auto operand = [&](std::size_t i, std::string_view kw) {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr) throw LowerError("UNSUPPORTED_ARG", n.name + ": missing operand");
    return ArgOperand(n, *a);
  };
  Emitted r;
  if (auto it = UnaryOps().find(name); it != UnaryOps().end()) {
    r = Pointwise(n, it->second, {operand(0, "self")}, cd, cd, shape);
  } else if (auto bt = BinaryOps().find(name); bt != BinaryOps().end()) {
    if (n.Kwarg("rounding_mode") != nullptr && !n.Kwarg("rounding_mode")->IsNone())
      throw LowerError("UNSUPPORTED_OP", n.name + ": div with a rounding mode is not lowered");
    if (name == "div" && !ir::IsFloat(out))
      throw LowerError("UNSUPPORTED_DTYPE", n.name + ": integer division is not lowered");
    Operand a = operand(0, "self");
    Operand b = operand(1, "other");
    if (name == "pow" && b.scalar) {
      Emitted x = Cast(Get(a.value), cd);
      if (b.v == 2.0) {
        r = Op("Mul", {x, x}, cd, x.layout);
      } else if (b.v == 0.5) {
        r = Op("Sqrt", {x}, cd, x.layout);
      } else if (b.v == -0.5) {
        r = Op("Rsqrt", {x}, cd, x.layout);
      } else if (b.v == 1.0) {
        r = x;
      } else if (b.v == -1.0) {
        r = Op("Reciprocal", {x}, cd, x.layout);
      } else {
        r = Elementwise(n, "Pow", {x, Scalar(b.v, cd)}, cd, shape);
      }
    } else {
      const Arg* alpha = n.Kwarg("alpha");
      const double al = FloatArg(alpha, 1.0);
      const bool rsub = name == "rsub";
      Operand& scaled = rsub ? a : b;
      std::vector<Emitted> in(2);
      auto emit = [&](const Operand& op) {
        return op.scalar ? Scalar(op.v, cd) : Cast(Get(op.value), cd);
      };
      Emitted ea = emit(a);
      Emitted eb = emit(b);
      if (al != 1.0) {
        Emitted& s = rsub ? ea : eb;
        if (scaled.scalar) {
          s = Scalar(scaled.v * al, cd);
        } else {
          s = Op("Mul", {s, Scalar(al, cd)}, cd, s.layout);
        }
      }
      if (rsub) std::swap(ea, eb);
      r = Elementwise(n, bt->second, {ea, eb}, cd, shape);
    }
  } else if (auto ct = CompareOps().find(name); ct != CompareOps().end()) {
    Operand a = operand(0, "self");
    Operand b = operand(1, "other");
    std::vector<model::PromotionOperand> po;
    for (const auto& op : {a, b}) {
      model::PromotionOperand p;
      if (op.scalar) {
        p.cls = model::PromotionOperand::Class::kScalar;
        p.dtype = op.scalar_dtype;
      } else {
        p.cls = TypeOf(op.value).rank() == 0 ? model::PromotionOperand::Class::kZeroDimTensor
                                             : model::PromotionOperand::Class::kDimTensor;
        p.dtype = TypeOf(op.value).dtype;
      }
      po.push_back(p);
    }
    const auto common = model::ResultType(po);
    if (!common) throw LowerError("UNSUPPORTED_DTYPE", n.name + ": no common dtype");
    r = Pointwise(n, ct->second, {a, b}, Compute(*common), DType::kBool, shape);
  } else if (name == "logical_not" || (name == "bitwise_not" && out == DType::kBool)) {
    r = Pointwise(n, "LogicalNot", {operand(0, "self")}, DType::kBool, DType::kBool, shape);
  } else if (name == "logical_and" || name == "logical_or") {
    r = Pointwise(n, name == "logical_and" ? "LogicalAnd" : "LogicalOr",
                  {operand(0, "self"), operand(1, "other")}, DType::kBool, DType::kBool, shape);
  } else if (name == "where") {
    Operand c = operand(0, "condition");
    if (c.scalar) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar condition");
    Emitted ec = Cast(Get(c.value), DType::kBool);
    auto emit = [&](const Operand& op) {
      return op.scalar ? Scalar(op.v, cd) : Cast(Get(op.value), cd);
    };
    r = Elementwise(n, "Where", {ec, emit(operand(1, "self")), emit(operand(2, "other"))}, cd,
                    shape);
  } else if (name == "masked_fill") {
    Operand m = operand(1, "mask");
    if (m.scalar) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar mask");
    Operand v = operand(2, "value");
    Emitted ev = v.scalar ? Scalar(v.v, cd) : Cast(Get(v.value), cd);
    r = Elementwise(n, "Where",
                    {Cast(Get(m.value), DType::kBool), ev, Cast(Get(operand(0, "self").value), cd)},
                    cd, shape);
  } else if (name == "clamp" || name == "clamp_min" || name == "clamp_max") {
    Emitted x = Cast(Get(operand(0, "self").value), cd);
    const Arg* lo = name == "clamp_max" ? nullptr : ArgAt(n, 1, "min");
    const Arg* hi =
        name == "clamp" ? ArgAt(n, 2, "max") : (name == "clamp_max" ? ArgAt(n, 1, "max") : nullptr);
    r = x;
    auto bound = [&](const Arg* a, const char* type) {
      if (a == nullptr || a->IsNone()) return;
      Operand b = ArgOperand(n, *a);
      Emitted eb = b.scalar ? Scalar(b.v, cd) : Cast(Get(b.value), cd);
      r = Elementwise(n, type, {r, eb}, cd, shape);
    };
    bound(lo, "Maximum");
    bound(hi, "Minimum");
  } else if (name == "square") {
    Emitted x = Cast(Get(operand(0, "self").value), cd);
    r = Op("Mul", {x, x}, cd, x.layout);
  } else if (name == "silu") {
    Emitted x = Cast(Get(operand(0, "self").value), cd);
    r = Op("Mul", {x, Op("Sigmoid", {x}, cd, x.layout)}, cd, x.layout);
  } else if (name == "gelu") {
    Emitted x = Cast(Get(operand(0, "self").value), cd);
    const std::string approx = StringArg(ArgAt(n, 1, "approximate"), "none");
    const Layout& l = x.layout;
    Emitted inner;
    if (approx == "none") {
      inner = Op("Erf", {Op("Mul", {x, Scalar((1.0 / std::numbers::sqrt2), cd)}, cd, l)}, cd, l);
    } else if (approx == "tanh") {
      // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
      Emitted x3 = Op("Mul", {Op("Mul", {x, x}, cd, l), x}, cd, l);
      Emitted s = Op("Add", {x, Op("Mul", {x3, Scalar(0.044715, cd)}, cd, l)}, cd, l);
      inner =
          Op("Tanh", {Op("Mul", {s, Scalar(std::sqrt(2.0 / std::numbers::pi), cd)}, cd, l)}, cd, l);
    } else {
      throw LowerError("UNSUPPORTED_ARG", n.name + ": gelu approximate='" + approx + "'");
    }
    Emitted half_x = Op("Mul", {x, Scalar(0.5, cd)}, cd, l);
    r = Op("Mul", {half_x, Op("Add", {inner, Scalar(1.0, cd)}, cd, l)}, cd, l);
  } else if (name == "_to_copy" || name == "to" || name == "convert_element_type") {
    Emitted x = Get(operand(0, "self").value);
    if (out == x.dtype) {
      r = x;
    } else if (IsHalf(out) && o_.upcast_half) {
      // round through the narrow type, as the cast asks, then keep computing in fp32
      r = Cast(Cast(x, out), DType::kFloat32);
    } else {
      r = Cast(x, out);
    }
  } else {
    throw LowerError("UNSUPPORTED_OP", n.op.ToString() + " is not lowered to AscIR");
  }
  values_[n.outputs[0]] = r;
}

// ------------------------------------------------------------------ reductions

void Lowerer::LowerReduce(const model::Node& n) {
  const std::string& name = n.op.name;
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": reduction input");
  const auto& it = TypeOf(self->value);
  if (!it.IsTensor()) throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::size_t rank = it.rank();
  // dims
  const Arg* dims_arg = nullptr;
  // sum.default, mean.default, prod.default, any.default, all.default, var.default: all dims
  const bool has_dims =
      n.op.ns == "prims" || n.op.overload != "default" || name == "amax" || name == "amin";
  if (has_dims) dims_arg = ArgAt(n, 1, "dim");
  std::vector<bool> reduced(rank, false);
  bool any_dim = false;
  auto add_dim = [&](std::int64_t d) {
    auto nd = model::NormalizeDim(d, rank);
    if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": bad reduction dim");
    reduced[static_cast<std::size_t>(*nd)] = true;
    any_dim = true;
  };
  if (dims_arg != nullptr && !dims_arg->IsNone()) {
    if (dims_arg->IsList()) {
      for (const auto& a : dims_arg->items) {
        auto v = a.AsInt();
        if (!v) throw LowerError("UNSUPPORTED_ARG", n.name + ": non-integer dim");
        add_dim(*v);
      }
    } else if (auto v = dims_arg->AsInt()) {
      add_dim(*v);
    } else {
      throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
    }
  }
  if (!any_dim) std::fill(reduced.begin(), reduced.end(), true);
  bool keepdim = false;
  if (n.op.ns == "aten") {
    const Arg* kd = n.Kwarg("keepdim");
    if (kd == nullptr && n.op.overload != "correction" && has_dims) {
      std::size_t pos = 2;
      if ((name == "var" || name == "var_mean") && n.op.overload == "dim") pos = 3;
      if (pos < n.args.size()) kd = &n.args[pos];
    }
    if (kd != nullptr && kd->kind == Arg::Kind::kBool) keepdim = kd->b;
  }
  const auto& ot = OutType(n);
  const DType out = ot.dtype;
  Emitted x = Get(self->value);
  // reduced layout
  Layout red = x.layout;
  Expr count(1);
  for (std::size_t k = 0; k < rank; ++k) {
    if (!reduced[k]) continue;
    red[k].full = false;
    count = count * it.shape[k];
  }
  auto finish = [&](const Emitted& e) {
    Emitted r = e;
    if (!keepdim) {
      Layout l;
      for (std::size_t k = 0; k < rank; ++k)
        if (!reduced[k]) l.push_back(e.layout[k]);
      r.layout = l;
    }
    return r;
  };
  if (name == "var" || name == "var_mean") {
    double correction = 1.0;
    if (const Arg* c = n.Kwarg("correction"); c != nullptr && !c->IsNone()) {
      correction = FloatArg(c, 1.0);
    } else if (n.op.overload == "dim" || n.op.overload == "default") {
      const Arg* ub = n.op.overload == "dim" ? ArgAt(n, 2, "unbiased") : ArgAt(n, 1, "unbiased");
      if (ub != nullptr && ub->kind == Arg::Kind::kBool && !ub->b) correction = 0.0;
    } else if (n.op.ns == "prims") {
      correction = FloatArg(ArgAt(n, 2, "correction"), 0.0);
    }
    const DType cd = Compute(out);
    if (!ir::IsFloat(cd)) throw LowerError("UNSUPPORTED_DTYPE", n.name + ": var of integers");
    x = Cast(x, cd);
    Emitted mean = Op("Mean", {x}, cd, red);
    Emitted d = Op("Sub", {x, BroadcastTo(mean, x.layout)}, cd, x.layout);
    Emitted sq = Op("Mul", {d, d}, cd, x.layout);
    Emitted var;
    if (correction == 0.0) {
      var = Op("Mean", {sq}, cd, red);
    } else {
      Emitted s = Op("Sum", {sq}, cd, red);
      if (auto c = count.AsInt()) {
        const double denom = static_cast<double>(*c) - correction;
        var = Op("Mul", {s, Scalar(denom > 0 ? 1.0 / denom : std::nan(""), cd)}, cd, red);
      } else {
        if (correction != std::floor(correction))
          throw LowerError("UNSUPPORTED_ARG", n.name + ": fractional correction");
        var = Op("Div", {s, ScalarExpr(count - Expr(static_cast<std::int64_t>(correction)), cd)},
                 cd, red);
      }
    }
    values_[n.outputs[0]] = finish(var);
    if (name == "var_mean") {
      if (n.outputs.size() < 2) throw LowerError("UNSUPPORTED_OP", n.name + ": var_mean outputs");
      values_[n.outputs[1]] = finish(mean);
    }
    return;
  }
  std::string type;
  DType cd = Compute(out);
  if (name == "sum") type = "Sum";
  if (name == "mean") type = "Mean";
  if (name == "amax") type = "Max";
  if (name == "amin") type = "Min";
  if (name == "prod") type = "Prod";
  if (name == "any") type = "Any";
  if (name == "all") type = "All";
  if (type == "Any" || type == "All") {
    if (x.dtype != DType::kBool) {
      x = Op("Ne", {x, Scalar(0, x.dtype)}, DType::kBool, x.layout);
    }
    cd = DType::kBool;
  }
  x = Cast(x, cd);
  values_[n.outputs[0]] = finish(Op(type, {x}, cd, red));
}

// ------------------------------------------------------------------ views

// Maps dims of `in` to dims of `out` when they differ only by size-1 dims: result[j] = input dim
// for out dim j, or -1 for an inserted size-1 dim. Empty optional when they differ otherwise.
std::optional<std::vector<int>> OnesOnlyMap(const std::vector<Expr>& in,
                                            const std::vector<Expr>& out) {
  std::vector<int> in_dims;
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!IsOne(in[k])) in_dims.push_back(static_cast<int>(k));
  std::vector<int> map(out.size(), -1);
  std::size_t p = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (IsOne(out[j])) continue;
    if (p >= in_dims.size() || in[static_cast<std::size_t>(in_dims[p])] != out[j])
      return std::nullopt;
    map[j] = in_dims[p++];
  }
  if (p != in_dims.size()) return std::nullopt;
  return map;
}

void Lowerer::LowerView(const model::Node& n) {
  const std::string& name = n.op.name;
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": view input");
  const auto& in_t = TypeOf(self->value);
  const auto& ot = OutType(n);
  if (!in_t.IsTensor()) throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::vector<Expr>& in_shape = in_t.shape;
  const std::vector<Expr>& out_shape = ot.shape;
  const std::size_t rank = in_shape.size();
  auto src = Source(self->value);
  Chain* chain = std::get_if<Chain>(&src);
  // permutation of dims
  std::optional<std::vector<int>> perm;
  if (name == "permute" || name == "permute_copy") {
    const Arg* d = ArgAt(n, 1, "dims");
    if (d == nullptr || !d->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
    std::vector<int> p;
    for (const auto& a : d->items) {
      auto v = a.AsInt();
      auto nd = v ? model::NormalizeDim(*v, rank) : std::nullopt;
      if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
      p.push_back(*nd);
    }
    perm = p;
  } else if (name == "transpose" || name == "t") {
    std::vector<int> p(rank);
    for (std::size_t k = 0; k < rank; ++k)
      p[k] = static_cast<int>(k);
    if (rank >= 2) {
      std::int64_t d0 = 0;
      std::int64_t d1 = 1;
      if (name == "transpose") {
        auto a0 = IntExprArg(g_, ArgAt(n, 1, "dim0"));
        auto a1 = IntExprArg(g_, ArgAt(n, 2, "dim1"));
        if (!a0 || !a1 || !a0->AsInt() || !a1->AsInt())
          throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
        d0 = *model::NormalizeDim(*a0->AsInt(), rank);
        d1 = *model::NormalizeDim(*a1->AsInt(), rank);
      }
      std::swap(p[static_cast<std::size_t>(d0)], p[static_cast<std::size_t>(d1)]);
    }
    perm = p;
  }
  if (chain != nullptr) {
    Chain c = *chain;
    if (perm) {
      Chain r = c;
      for (std::size_t j = 0; j < perm->size(); ++j) {
        r.sizes[j] = c.sizes[static_cast<std::size_t>((*perm)[j])];
        r.strides[j] = c.strides[static_cast<std::size_t>((*perm)[j])];
      }
      c = r;
    } else if (name == "slice") {
      auto dim = IntExprArg(g_, ArgAt(n, 1, "dim")).value_or(Expr(0)).AsInt();
      auto nd = dim ? model::NormalizeDim(*dim, rank) : std::nullopt;
      if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": slice dim");
      const auto k = static_cast<std::size_t>(*nd);
      Expr start = IntExprArg(g_, ArgAt(n, 2, "start")).value_or(Expr(0));
      auto step = IntExprArg(g_, ArgAt(n, 4, "step")).value_or(Expr(1)).AsInt();
      if (!step || *step < 1) throw LowerError("UNSUPPORTED_ARG", n.name + ": slice step");
      if (auto s = start.AsInt(); s && *s < 0) start = Max(c.sizes[k] + Expr(*s), Expr(0));
      c.offset = c.offset + start * c.strides[k];
      c.sizes[k] = out_shape.at(k);
      c.strides[k] = c.strides[k] * Expr(*step);
    } else if (name == "select") {
      auto dim = IntExprArg(g_, ArgAt(n, 1, "dim"));
      auto d = dim ? dim->AsInt() : std::nullopt;
      auto nd = d ? model::NormalizeDim(*d, rank) : std::nullopt;
      if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": select dim");
      const auto k = static_cast<std::size_t>(*nd);
      auto idx = IntExprArg(g_, ArgAt(n, 2, "index"));
      if (!idx) throw LowerError("UNSUPPORTED_ARG", n.name + ": select index");
      Expr index = *idx;
      if (auto v = index.AsInt(); v && *v < 0) index = c.sizes[k] + index;
      c.offset = c.offset + index * c.strides[k];
      c.sizes.erase(c.sizes.begin() + static_cast<std::ptrdiff_t>(k));
      c.strides.erase(c.strides.begin() + static_cast<std::ptrdiff_t>(k));
    } else if (name == "expand" || name == "expand_copy") {
      const std::size_t r = out_shape.size();
      if (r < rank) throw LowerError("UNSUPPORTED_ARG", n.name + ": expand to lower rank");
      Chain e;
      e.base = c.base;
      e.offset = c.offset;
      for (std::size_t j = 0; j < r; ++j) {
        if (j < r - rank) {
          e.sizes.push_back(out_shape[j]);
          e.strides.push_back(Expr(0));
          continue;
        }
        const std::size_t k = j - (r - rank);
        e.sizes.push_back(out_shape[j]);
        e.strides.push_back(IsOne(c.sizes[k]) && !IsOne(out_shape[j]) ? Expr(0) : c.strides[k]);
      }
      c = e;
    } else if (name == "alias" || name == "clone" || name == "lift_fresh_copy" ||
               name == "contiguous") {
    } else {  // view, reshape, unsqueeze, squeeze
      if (auto map = OnesOnlyMap(c.sizes, out_shape)) {
        Chain r;
        r.base = c.base;
        r.offset = c.offset;
        for (std::size_t j = 0; j < out_shape.size(); ++j) {
          r.sizes.push_back(out_shape[j]);
          r.strides.push_back((*map)[j] < 0 ? Expr(0)
                                            : c.strides[static_cast<std::size_t>((*map)[j])]);
        }
        c = r;
      } else {
        const auto contiguous = model::ContiguousStrides(c.sizes);
        for (std::size_t k = 0; k < c.sizes.size(); ++k) {
          if (!IsOne(c.sizes[k]) && c.strides[k] != contiguous[k]) {
            throw LowerError("VIEW_NOT_FUSIBLE",
                             n.name + ": reshape of a non-contiguous view of an input");
          }
        }
        c.sizes = out_shape;
        c.strides = model::ContiguousStrides(out_shape);
      }
    }
    values_[n.outputs[0]] = c;
    return;
  }
  // a value computed inside the group
  Emitted x = std::get<Emitted>(src);
  Emitted r = x;
  if (perm) {
    Layout l(perm->size());
    for (std::size_t j = 0; j < perm->size(); ++j)
      l[j] = x.layout.at(static_cast<std::size_t>((*perm)[j]));
    r.layout = l;
  } else if (name == "alias" || name == "clone" || name == "lift_fresh_copy" ||
             name == "contiguous") {
  } else if (name == "expand" || name == "expand_copy") {
    const std::size_t rr = out_shape.size();
    Layout l(rr);
    for (std::size_t j = 0; j < rr; ++j) {
      const bool old = j >= rr - rank;
      Dim d = old ? x.layout[j - (rr - rank)] : Dim{};
      if (!IsOne(out_shape[j]) && !d.full) {
        if (d.cls >= 0 && size_[static_cast<std::size_t>(Find(d.cls))] == out_shape[j]) {
          d.full = true;
        } else {
          d = Dim{NewClass(out_shape[j]), true};
        }
      }
      l[j] = d;
    }
    r = BroadcastTo(x, l);
    r.layout = l;
  } else if (name == "slice" || name == "select") {
    if (name == "slice" && out_shape == in_shape) {
      // a slice that keeps everything
    } else {
      throw LowerError("VIEW_NOT_FUSIBLE",
                       n.name + ": " + name + " of a value computed in the kernel");
    }
  } else {
    auto map = OnesOnlyMap(in_shape, out_shape);
    if (!map) {
      throw LowerError("VIEW_NOT_FUSIBLE",
                       n.name +
                           ": reshape that merges or splits dims of a value computed in "
                           "the kernel");
    }
    Layout l(out_shape.size());
    for (std::size_t j = 0; j < out_shape.size(); ++j)
      if ((*map)[j] >= 0) l[j] = x.layout[static_cast<std::size_t>((*map)[j])];
    r.layout = l;
  }
  values_[n.outputs[0]] = r;
}

// ------------------------------------------------------------------ data movement

// Concat of `in` (same rank, already in dtype `dt`) along `dim` into an output of extent `size`
// there. The output's concat dim is a new axis; each input's concat dim becomes a piece of it
// (the same axis id with the input's own repeat, docs/ir.md "Concat").
Emitted Lowerer::ConcatOf(const model::Node& n, std::vector<Emitted> in, std::size_t dim,
                          const Expr& size, DType dt) {
  const std::size_t r = in.front().layout.size();
  Layout out(r);
  for (std::size_t j = 0; j < r; ++j) {
    if (j == dim) continue;
    int cls = -1;
    int any = -1;
    for (const auto& e : in) {
      if (e.layout.size() != r)
        throw LowerError("AXIS_CONFLICT", n.name + ": concat inputs of different ranks");
      const Dim& d = e.layout[j];
      if (d.cls < 0) continue;
      if (d.full) {
        cls = cls < 0 ? Find(d.cls) : Unify(cls, d.cls, n.name);
      } else if (any < 0) {
        any = Find(d.cls);
      }
    }
    out[j] = cls >= 0 ? Dim{cls, true} : Dim{any, false};
  }
  out[dim] = Dim{NewClass(size), true};
  for (auto& e : in) {
    Layout want = out;
    want[dim] = e.layout[dim];
    e = BroadcastTo(e, want);
    const Dim& d = e.layout[dim];
    if (d.cls >= 0 && d.full) MarkPart(d.cls, out[dim].cls, n.name);
  }
  return Op("Concat", in, dt, out);
}

std::optional<std::size_t> DimArg(const model::Graph& g, const model::Node& n, std::size_t i,
                                  std::size_t rank) {
  const auto v = IntExprArg(g, ArgAt(n, i, "dim")).value_or(Expr(0)).AsInt();
  const auto d = v ? model::NormalizeDim(*v, rank) : std::nullopt;
  if (!d) return std::nullopt;
  return static_cast<std::size_t>(*d);
}

void Lowerer::LowerCat(const model::Node& n) {
  const Arg* list = ArgAt(n, 0, "tensors");
  if (list == nullptr || !list->IsList() || list->items.empty())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": cat needs a list of tensors");
  const auto& ot = OutType(n);
  const std::size_t r = ot.rank();
  const auto d = r == 0 ? std::nullopt : DimArg(g_, n, 1, r);
  if (!d) throw LowerError("UNSUPPORTED_ARG", n.name + ": cat dim");
  const DType cd = Compute(ot.dtype);
  std::vector<Emitted> in;
  Expr total(0);
  for (const auto& a : list->items) {
    if (!a.IsValue() || !TypeOf(a.value).IsTensor())
      throw LowerError("UNSUPPORTED_ARG", n.name + ": a cat operand is not a tensor");
    const auto& t = TypeOf(a.value);
    if (t.dtype == DType::kUndefined)
      throw LowerError("UNKNOWN_TYPE", n.name + ": a cat operand's dtype is not known");
    if (t.rank() == 1 && t.shape[0] == Expr(0) && r != 1) continue;  // legacy: skipped by cat
    if (t.rank() != r)
      throw LowerError("AXIS_CONFLICT", n.name + ": cat operands of different ranks");
    total = total + t.shape[*d];
    if (t.shape[*d] == Expr(0)) continue;
    Emitted e = Cast(Get(a.value), cd);
    if (e.layout.size() != r)
      throw LowerError("AXIS_CONFLICT", n.name + ": a cat operand's layout has another rank");
    if (!IsOne(t.shape[*d]) && !e.layout[*d].full)
      throw LowerError("AXIS_CONFLICT", n.name + ": a cat operand does not span the concat dim");
    in.push_back(e);
  }
  if (total != ot.shape[*d]) {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": the operands add up to " + total.ToString() +
                                            " along dim " + std::to_string(*d) +
                                            ", the output has " + ot.shape[*d].ToString());
  }
  if (in.empty()) throw LowerError("UNSUPPORTED_ARG", n.name + ": cat of empty tensors only");
  values_[n.outputs[0]] = in.size() == 1 ? in[0] : ConcatOf(n, in, *d, ot.shape[*d], cd);
}

void Lowerer::LowerSplit(const model::Node& n) {
  const std::string& name = n.op.name;
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": split input");
  const auto& it = TypeOf(self->value);
  if (!it.IsTensor() || it.dtype == DType::kUndefined)
    throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::size_t rank = it.rank();
  const bool unbind = name == "unbind" || name == "unbind_copy";
  const auto d = rank == 0 ? std::nullopt : DimArg(g_, n, unbind ? 1 : 2, rank);
  if (!d) throw LowerError("UNSUPPORTED_ARG", n.name + ": split dim");
  if (n.outputs.empty()) throw LowerError("UNSUPPORTED_ARG", n.name + ": split without outputs");
  // the pieces' extents along the split dim, from their types
  std::vector<Expr> sizes;
  Expr total(0);
  for (std::size_t k = 0; k < n.outputs.size(); ++k) {
    const auto& t = OutType(n, static_cast<int>(k));
    if (t.rank() != (unbind ? rank - 1 : rank))
      throw LowerError("AXIS_CONFLICT", n.name + ": piece " + std::to_string(k) + " has rank " +
                                            std::to_string(t.rank()));
    sizes.push_back(unbind ? Expr(1) : t.shape[*d]);
    total = total + sizes.back();
  }
  if (total != it.shape[*d]) {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": the " + std::to_string(sizes.size()) +
                                            " pieces add up to " + total.ToString() +
                                            ", the split dim has " + it.shape[*d].ToString());
  }
  auto src = Source(self->value);
  if (auto* chain = std::get_if<Chain>(&src)) {  // a view of an input: one Load view per piece
    Expr start(0);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      Chain c = *chain;
      c.offset = c.offset + start * c.strides[*d];
      start = start + sizes[k];
      if (unbind) {
        c.sizes.erase(c.sizes.begin() + static_cast<std::ptrdiff_t>(*d));
        c.strides.erase(c.strides.begin() + static_cast<std::ptrdiff_t>(*d));
      } else {
        c.sizes[*d] = sizes[k];
      }
      values_[n.outputs[k]] = c;
    }
    return;
  }
  const Emitted x = std::get<Emitted>(src);
  if (x.layout.size() != rank)
    throw LowerError("AXIS_CONFLICT", n.name + ": the split input's layout has another rank");
  auto drop = [&](Emitted e) {
    if (unbind) e.layout.erase(e.layout.begin() + static_cast<std::ptrdiff_t>(*d));
    return e;
  };
  if (sizes.size() == 1) {
    values_[n.outputs[0]] = drop(x);
    return;
  }
  const Dim whole = x.layout[*d];
  if (whole.cls < 0 || !whole.full)
    throw LowerError("AXIS_CONFLICT", n.name + ": the split dim is not spanned by its input");
  // One Split node per piece, all with one gid (AutoFuse's form before merging, docs/ir.md;
  // MergeSplits makes them one node with an output per piece at the end); each piece is the same
  // axis as the input with its own repeat.
  const int gid = split_gid_++;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    Layout l = x.layout;
    l[*d] = IsOne(sizes[k]) ? Dim{} : Dim{NewClass(sizes[k]), true};
    if (l[*d].cls >= 0) MarkPart(l[*d].cls, whole.cls, n.name);
    Info info;
    info.layout = l;
    const int id = Add("Split", {x.node}, x.dtype, info);
    auto& attrs = g_out_.nodes[static_cast<std::size_t>(id)].attrs;
    attrs["gid"] = static_cast<std::int64_t>(gid);
    attrs["index"] = static_cast<std::int64_t>(k);
    values_[n.outputs[k]] = drop(Emitted{id, x.dtype, l});
  }
}

int Lowerer::GatherData(const model::Node& n, int value, const char* what) {
  auto src = Source(value);
  int base = -1;
  if (const auto* c = std::get_if<Chain>(&src)) {
    const auto& bt = TypeOf(c->base);
    if (c->offset == Expr(0) && c->sizes == bt.shape &&
        c->strides == model::ContiguousStrides(bt.shape))
      base = c->base;
  }
  if (base < 0) {
    throw LowerError("VIEW_NOT_FUSIBLE",
                     n.name + ": the Gather " + what +
                         " must be a kernel input read whole (AutoFuse's Gather reads params and "
                         "indices straight from global memory), not a view or a computed value");
  }
  const int data = DataFor(base);
  gather_data_.insert(data);
  return data;
}

void Lowerer::LowerGather(const model::Node& n) {
  const std::string& name = n.op.name;
  auto tensor_arg = [&](std::size_t i, std::string_view kw) {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr || !a->IsValue() || !TypeOf(a->value).IsTensor())
      throw LowerError("UNSUPPORTED_ARG",
                       n.name + ": operand '" + std::string(kw) + "' is not a tensor");
    if (TypeOf(a->value).dtype == DType::kUndefined)
      throw LowerError("UNKNOWN_TYPE", n.name + ": operand '" + std::string(kw) + "' dtype");
    return a->value;
  };
  int params = -1;
  int indices = -1;
  std::optional<std::size_t> axis;
  bool negative = false;  // embedding, index_select and gather refuse negative indices
  if (name == "embedding") {
    params = tensor_arg(0, "weight");
    indices = tensor_arg(1, "indices");
    if (TypeOf(params).rank() != 2)
      throw LowerError("UNSUPPORTED_ARG", n.name + ": embedding weight must be 2-D");
    axis = 0;
  } else if (name == "index_select" || name == "gather") {
    params = tensor_arg(0, "self");
    indices = tensor_arg(2, "index");
    const std::size_t pr = TypeOf(params).rank();
    axis = pr == 0 ? std::nullopt : DimArg(g_, n, 1, pr);
    if (!axis) throw LowerError("UNSUPPORTED_ARG", n.name + ": dim");
    if (name == "gather" && pr != 1) {
      // torch.gather picks per element; it is AscIR Gather (a take along one axis) only in 1-D
      throw LowerError("UNSUPPORTED_ARG",
                       n.name + ": gather of a " + std::to_string(pr) +
                           "-D tensor is an element-wise gather, not a take along an axis");
    }
    if (TypeOf(indices).rank() != 1) {
      throw LowerError("UNSUPPORTED_ARG", n.name + ": " + name + " with a " +
                                              std::to_string(TypeOf(indices).rank()) +
                                              "-D index is not lowered (1-D only)");
    }
  } else {  // index.Tensor / _unsafe_index: x[..., idx, ...] with one index tensor
    params = tensor_arg(0, "self");
    const Arg* l = ArgAt(n, 1, "indices");
    if (l == nullptr || !l->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": index list");
    for (std::size_t k = 0; k < l->items.size(); ++k) {
      if (l->items[k].IsNone()) continue;
      if (axis || !l->items[k].IsValue() || !TypeOf(l->items[k].value).IsTensor())
        throw LowerError("UNSUPPORTED_ARG", n.name + ": indexing with more than one tensor");
      axis = k;
      indices = l->items[k].value;
    }
    if (!axis) throw LowerError("UNSUPPORTED_ARG", n.name + ": no index tensor");
    negative = true;  // Python indexing counts negative indices from the end
  }
  const auto& pt = TypeOf(params);
  const auto& xt = TypeOf(indices);
  if (xt.dtype != DType::kInt32 && xt.dtype != DType::kInt64) {
    throw LowerError("UNSUPPORTED_DTYPE",
                     n.name + ": Gather indices must be int32 or int64, not " + xt.dtype_code);
  }
  if (*axis >= pt.rank()) throw LowerError("UNSUPPORTED_ARG", n.name + ": axis out of range");
  const int pdata = GatherData(n, params, "params");
  const int idata = GatherData(n, indices, "indices");
  if (pdata == idata)
    throw LowerError("UNSUPPORTED_ARG", n.name + ": one tensor as params and indices");
  GatherUse gu;
  gu.params = pdata;
  gu.indices = idata;
  gu.extent = pt.shape[*axis];
  gu.params_shape = pt.shape;
  Layout out;
  for (std::size_t k = 0; k < pt.rank(); ++k) {
    if (k == *axis) {
      for (const auto& e : xt.shape) {
        const Dim dd = IsOne(e) ? Dim{} : Dim{NewClass(e), true};
        gu.index_layout.push_back(dd);
        out.push_back(dd);
      }
      continue;
    }
    const int c = NewClass(pt.shape[k]);  // an axis even when of extent 1: params views need it
    (k < *axis ? gu.prefix : gu.suffix).push_back(c);
    out.push_back({c, true});
  }
  const auto& ot = OutType(n);
  if (out.size() != ot.rank())
    throw LowerError("AXIS_CONFLICT", n.name + ": output rank differs from the Gather's");
  Info info;
  info.layout = out;
  const int id = Add("Gather", {pdata, idata}, pt.dtype, info);
  auto& attrs = g_out_.nodes[static_cast<std::size_t>(id)].attrs;
  attrs["axis"] = static_cast<std::int64_t>(*axis);
  attrs["negative_index_support"] = negative;
  gu.node = id;
  gathers_.push_back(gu);
  values_[n.outputs[0]] = Cast(Emitted{id, pt.dtype, out}, Compute(ot.dtype));
}

void Lowerer::LowerPad(const model::Node& n) {
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue() || !TypeOf(self->value).IsTensor())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": pad input");
  const auto& it = TypeOf(self->value);
  const Arg* pl = ArgAt(n, 1, "pad");
  if (pl == nullptr || !pl->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": pad list");
  std::vector<std::int64_t> pad;
  for (const auto& a : pl->items) {
    auto v = a.AsInt();
    if (!v) throw LowerError("UNSUPPORTED_ARG", n.name + ": symbolic pads are not lowered");
    if (*v < 0)
      throw LowerError("UNSUPPORTED_ARG", n.name + ": negative pads (cropping) are not lowered");
    pad.push_back(*v);
  }
  const std::size_t rank = it.rank();
  if (pad.size() % 2 != 0 || pad.size() / 2 > rank)
    throw LowerError("UNSUPPORTED_ARG", n.name + ": bad pad list");
  const double value = FloatArg(ArgAt(n, 2, "value"), 0.0);
  const auto& ot = OutType(n);
  const DType cd = Compute(ot.dtype);
  Emitted x = Cast(Get(self->value), cd);
  if (x.layout.size() != rank)
    throw LowerError("AXIS_CONFLICT", n.name + ": the pad input's layout has another rank");
  std::vector<Expr> shape = it.shape;
  // pad pairs run from the last dim backwards; each padded dim is a Concat of filled pieces
  for (std::size_t i = 0; i < pad.size() / 2; ++i) {
    const std::int64_t lo = pad[2 * i];
    const std::int64_t hi = pad[2 * i + 1];
    if (lo == 0 && hi == 0) continue;
    const std::size_t d = rank - 1 - i;
    if (!IsOne(shape[d]) && !x.layout[d].full)
      throw LowerError("AXIS_CONFLICT", n.name + ": the padded dim is not spanned");
    auto fill = [&](std::int64_t width) {
      Layout l = x.layout;
      l[d] = width == 1 ? Dim{} : Dim{NewClass(Expr(width)), true};
      return Op("Broadcast", {Scalar(value, cd)}, cd, l);
    };
    std::vector<Emitted> parts;
    if (lo > 0) parts.push_back(fill(lo));
    parts.push_back(x);
    if (hi > 0) parts.push_back(fill(hi));
    shape[d] = shape[d] + Expr(lo + hi);
    x = ConcatOf(n, parts, d, shape[d], cd);
  }
  values_[n.outputs[0]] = x;
}

// ------------------------------------------------------------------ finish

void Lowerer::Finalize(LoweredKernel* result) {
  // axes: classes some node spans (a piece of a concat/split axis counts as its whole)
  std::vector<int> roots;
  std::set<int> seen;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    for (auto& d : info_[i].layout) {
      if (d.cls < 0) continue;
      d.cls = Find(d.cls);
      const int a = AxisClass(d.cls);
      if (d.full && seen.insert(a).second) roots.push_back(a);
    }
  }
  // order: the layout spanning the most axes (Stores first, then earliest) gives the order
  int best = -1;
  int best_count = -1;
  bool best_store = false;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    int c = 0;
    for (const auto& d : info_[i].layout)
      c += d.full ? 1 : 0;
    const bool store = info_[i].role == Role::kStore;
    if (c > best_count || (c == best_count && store && !best_store)) {
      best = static_cast<int>(i);
      best_count = c;
      best_store = store;
    }
  }
  std::vector<int> order;
  auto push = [&](int a) {
    if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
  };
  if (best >= 0) {
    for (const auto& d : info_[static_cast<std::size_t>(best)].layout)
      if (d.full) push(AxisClass(d.cls));
  }
  for (int r : roots)
    push(r);
  // A Gather's output view is params[:axis] + indices + params[axis+1:] over the loop axes: the
  // params' leading dims go first, their trailing dims last, the indices' dims in between in
  // their order (docs/ir.md "Gather").
  auto axes_of = [&](const std::vector<int>& classes) {
    std::vector<int> r;
    r.reserve(classes.size());
    for (int c : classes)
      r.push_back(AxisClass(c));
    return r;
  };
  auto index_axes = [&](const GatherUse& gu) {
    std::vector<int> r;
    for (const auto& d : gu.index_layout)
      if (d.cls >= 0) r.push_back(AxisClass(d.cls));
    return r;
  };
  if (!gathers_.empty()) {
    const auto pre = axes_of(gathers_[0].prefix);
    const auto suf = axes_of(gathers_[0].suffix);
    std::vector<int> forced = pre;
    for (int a : index_axes(gathers_[0]))
      forced.push_back(a);
    for (int a : order)
      if (std::find(forced.begin(), forced.end(), a) == forced.end() &&
          std::find(suf.begin(), suf.end(), a) == suf.end())
        forced.push_back(a);
    for (int a : suf)
      if (std::find(forced.begin(), forced.end(), a) == forced.end()) forced.push_back(a);
    order = forced;
  }
  for (const auto& gu : gathers_) {
    const auto pre = axes_of(gu.prefix);
    const auto suf = axes_of(gu.suffix);
    const auto idx = index_axes(gu);
    bool ok = pre.size() + suf.size() <= order.size() &&
              std::equal(pre.begin(), pre.end(), order.begin()) &&
              std::equal(suf.begin(), suf.end(), order.end() - static_cast<long>(suf.size()));
    std::size_t at = pre.size();
    for (int a : idx) {  // the indices' axes in their order inside the middle
      while (ok && at < order.size() - suf.size() && order[at] != a)
        ++at;
      ok = ok && at < order.size() - suf.size();
    }
    if (!ok) {
      throw LowerError("AXIS_CONFLICT",
                       "Gather " + g_out_.nodes[static_cast<std::size_t>(gu.node)].name +
                           ": its output dims do not fit the kernel's loop order (two gathers "
                           "with different layouts, or a gathered value mixed with its params' "
                           "axes)");
    }
  }
  std::vector<std::int64_t> axis_ids;
  for (std::size_t a = 0; a < order.size(); ++a) {
    axis_ids.push_back(
        g_out_.AddAxis("z" + std::to_string(a), size_[static_cast<std::size_t>(order[a])]));
  }
  const std::size_t na = order.size();
  auto view_for = [&](std::size_t i, ir::Tensor* t) {
    const Info& info = info_[i];
    t->axis = axis_ids;
    t->repeats.assign(na, Expr(1));
    t->strides.assign(na, Expr(0));
    std::vector<int> dim_of(na, -1);
    for (std::size_t k = 0; k < info.layout.size(); ++k) {
      const Dim& d = info.layout[k];
      if (!d.full) continue;
      const auto pos = static_cast<std::size_t>(
          std::find(order.begin(), order.end(), AxisClass(d.cls)) - order.begin());
      if (dim_of[pos] >= 0) {
        throw LowerError("AXIS_CONFLICT", "two dims of one tensor map to axis z" +
                                              std::to_string(pos) + " (a diagonal view)");
      }
      dim_of[pos] = static_cast<int>(k);
      t->repeats[pos] = size_[static_cast<std::size_t>(d.cls)];
    }
    if (info.role == Role::kLoad || info.role == Role::kStore) {
      for (std::size_t a = 0; a < na; ++a)
        if (dim_of[a] >= 0) t->strides[a] = info.phys[static_cast<std::size_t>(dim_of[a])];
    } else {
      Expr s(1);
      for (std::size_t a = na; a-- > 0;) {
        if (dim_of[a] < 0) continue;
        t->strides[a] = s;
        s = s * t->repeats[a];
      }
    }
  };
  auto dense = [&](const ir::Tensor& t) {
    Expr s(1);
    for (std::size_t a = na; a-- > 0;) {
      if (IsOne(t.repeats[a])) {
        if (t.strides[a] != Expr(0)) return false;
        continue;
      }
      if (t.strides[a] != s) return false;
      s = s * t.repeats[a];
    }
    return true;
  };
  auto flat = [&](ir::Tensor* t, const Expr& numel) {
    if (na == 0) {
      t->axis.clear();
      t->repeats.clear();
      t->strides.clear();
      return;
    }
    // every loop axis (the schedule wants buffer views over the loop nest), the whole buffer
    // along the first: repeats (numel, 1, ...), strides (1, 0, ...)
    t->axis = axis_ids;
    t->repeats.assign(na, Expr(1));
    t->strides.assign(na, Expr(0));
    t->repeats[0] = numel;
    t->strides[0] = Expr(1);
  };
  for (std::size_t i = 0; i < info_.size(); ++i) {
    ir::Node& n = g_out_.nodes[i];
    ir::Tensor& t = n.outputs[0];
    const Info& info = info_[i];
    switch (info.role) {
      case Role::kScalar:
      case Role::kData:
      case Role::kOutput:
        break;
      default:
        view_for(i, &t);
        n.sched.axis = axis_ids;
        n.sched.loop_axis = na == 0 ? -1 : axis_ids.back();
        break;
    }
    if (info.role == Role::kLoad || info.role == Role::kStore) {
      if (info.offset != Expr(0)) {
        if (auto v = info.offset.AsInt()) {
          n.attrs["offset"] = *v;
        } else {
          n.attrs["offset"] = info.offset;
        }
      }
    }
  }
  // Data / Output views: the access view when it is the whole buffer, densely; else flat.
  for (std::size_t i = 0; i < info_.size(); ++i) {
    const Info& info = info_[i];
    if (info.role != Role::kData && info.role != Role::kOutput) continue;
    if (gather_data_.contains(static_cast<int>(i))) continue;  // below
    const int value = info.base;
    const Expr numel = model::Numel(TypeOf(value).shape);
    int access = -1;
    if (info.role == Role::kData) {
      for (std::size_t j = 0; j < info_.size(); ++j)
        if (info_[j].role == Role::kLoad && info_[j].base == static_cast<int>(i)) {
          access = static_cast<int>(j);
          break;
        }
    } else {
      access = g_out_.nodes[i].inputs[0].node;
    }
    ir::Tensor& t = g_out_.nodes[i].outputs[0];
    bool use_access = false;
    if (access >= 0) {
      const ir::Tensor& at = g_out_.nodes[static_cast<std::size_t>(access)].outputs[0];
      const ir::Node& an = g_out_.nodes[static_cast<std::size_t>(access)];
      Expr prod(1);
      for (const auto& r : at.repeats)
        prod = prod * r;
      use_access = an.FindAttr("offset") == nullptr && dense(at) && prod == numel;
      if (use_access) {
        t.axis = at.axis;
        t.repeats = at.repeats;
        t.strides = at.strides;
      }
    }
    if (!use_access) flat(&t, numel);
  }
  // Gather operands: read straight from Data, so each Data's view is the Gather's: params over
  // the loop axes of its leading and trailing dims and an axis of its own for the gathered dim
  // (no loop runs over it), indices over the loop axes between them.
  for (const Info& info : info_) {
    if (info.role == Role::kLoad && gather_data_.contains(info.base)) {
      throw LowerError("UNSUPPORTED_ARG",
                       "a Gather operand is also loaded elsewhere in the kernel (Gather reads "
                       "its Data directly)");
    }
  }
  std::map<int, ir::Tensor> gather_views;
  auto set_view = [&](int data, ir::Tensor v) {
    v.dtype = g_out_.nodes[static_cast<std::size_t>(data)].outputs[0].dtype;
    Expr s(1);
    for (std::size_t a = v.repeats.size(); a-- > 0;) {
      v.strides[a] = IsOne(v.repeats[a]) ? Expr(0) : s;
      s = s * v.repeats[a];
    }
    auto [it, fresh] = gather_views.emplace(data, v);
    if (!fresh && !(it->second == v)) {
      throw LowerError("AXIS_CONFLICT", "two Gathers read input " +
                                            g_out_.nodes[static_cast<std::size_t>(data)].name +
                                            " with different views");
    }
  };
  for (const auto& gu : gathers_) {
    const auto pre = axes_of(gu.prefix);
    const auto suf = axes_of(gu.suffix);
    ir::Tensor pv;
    for (std::size_t k = 0; k < gu.params_shape.size(); ++k) {
      std::int64_t id = 0;
      if (k < pre.size()) {
        id = axis_ids[k];
      } else if (k == pre.size()) {
        id = g_out_.AddAxis("z" + std::to_string(g_out_.axes.size()), gu.extent);
      } else {
        id = axis_ids[na - suf.size() + (k - pre.size() - 1)];
      }
      pv.axis.push_back(id);
      pv.repeats.push_back(gu.params_shape[k]);
      pv.strides.emplace_back(0);
    }
    set_view(gu.params, pv);
    ir::Tensor iv;
    const ir::Tensor& out = g_out_.nodes[static_cast<std::size_t>(gu.node)].outputs[0];
    for (std::size_t a = pre.size(); a < na - suf.size(); ++a) {
      iv.axis.push_back(axis_ids[a]);
      iv.repeats.push_back(out.repeats[a]);
      iv.strides.emplace_back(0);
    }
    set_view(gu.indices, iv);
  }
  for (auto& [data, v] : gather_views) {
    g_out_.nodes[static_cast<std::size_t>(data)].outputs[0] = v;
    g_out_.nodes[static_cast<std::size_t>(data)].sched.axis = v.axis;
  }
  // size symbols
  std::set<std::string> used;
  auto note = [&](const Expr& e) {
    for (const auto& s : e.FreeSymbols())
      used.insert(s);
  };
  for (const auto& a : g_out_.axes)
    note(a.size);
  for (const auto& n : g_out_.nodes) {
    for (const auto& t : n.outputs) {
      for (const auto& e : t.repeats)
        note(e);
      for (const auto& e : t.strides)
        note(e);
    }
    for (const auto& [key, v] : n.attrs)
      if (const auto* e = std::get_if<Expr>(&v)) note(*e);
  }
  for (const auto& s : g_.symbols)
    if (used.erase(s)) g_out_.AddSizeVar(s);
  for (const auto& s : used)
    g_out_.AddSizeVar(s);
  result->inputs = data_order_;
}

// The Split nodes of one gid (one per piece, as LowerSplit emits them) become one Split node with
// an output per piece, AutoFuse's merged form (docs/ir.md "Split"); their readers read output k.
void MergeSplits(ir::Graph& g) {
  std::map<std::int64_t, std::vector<std::size_t>> groups;  // gid -> nodes, in index order
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type != "Split") continue;
    if (auto gid = g.nodes[i].IntAttr("gid")) groups[*gid].push_back(i);
  }
  std::vector<ir::InputRef> moved(g.nodes.size(), ir::InputRef{-1, 0});  // piece -> (node, output)
  for (const auto& [gid, pieces] : groups) {
    ir::Node& first = g.nodes[pieces.front()];
    for (std::size_t k = 1; k < pieces.size(); ++k) {
      first.outputs.push_back(g.nodes[pieces[k]].outputs.at(0));
      moved[pieces[k]] = {static_cast<int>(pieces.front()), static_cast<int>(k)};
    }
  }
  std::vector<int> index(g.nodes.size(), -1);
  int next = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (moved[i].node < 0) index[i] = next++;
  for (auto& n : g.nodes) {
    for (auto& in : n.inputs) {
      const ir::InputRef m = moved[static_cast<std::size_t>(in.node)];
      in = m.node < 0 ? ir::InputRef{index[static_cast<std::size_t>(in.node)], in.output}
                      : ir::InputRef{index[static_cast<std::size_t>(m.node)], m.output};
    }
  }
  std::vector<ir::Node> kept;
  kept.reserve(static_cast<std::size_t>(next));
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (moved[i].node < 0) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

LoweredKernel Lowerer::Run(const std::vector<int>& nodes) {
  group_.insert(nodes.begin(), nodes.end());
  g_out_.name = o_.name;
  g_out_.type = ir::GraphType::kHint;
  std::vector<int> ordered(group_.begin(), group_.end());
  for (int id : ordered) {
    const auto& n = g_.node(id);
    for (int v : n.outputs) {
      const auto& t = TypeOf(v);
      if (t.IsTensor() && (t.dtype == DType::kUndefined || t.dtype == DType::kFloat64)) {
        throw LowerError("UNSUPPORTED_DTYPE",
                         n.name + ": dtype " + t.dtype_code + " is not computed in fused kernels");
      }
    }
    LowerNode(n);
  }
  // outputs: group values used outside the group or returned
  std::set<int> needed;
  std::function<void(const Arg&)> scan = [&](const Arg& a) {
    if (a.IsValue()) needed.insert(a.value);
    for (const auto& it : a.items)
      scan(it);
  };
  for (const auto& n : g_.nodes) {
    if (group_.count(n.id)) continue;
    bool tensor_out = false;  // size queries (sym_size, ...) read no data
    for (int v : n.outputs)
      tensor_out = tensor_out || TypeOf(v).IsTensor();
    if (!tensor_out) continue;
    for (const auto& a : n.args)
      scan(a);
    for (const auto& [key, a] : n.kwargs)
      scan(a);
  }
  for (const auto& a : g_.outputs)
    scan(a);
  LoweredKernel k;
  for (int id : ordered) {
    for (int v : g_.node(id).outputs) {
      if ((!needed.count(v) && !o_.all_outputs) || !values_.count(v)) continue;
      const auto& t = TypeOf(v);
      Emitted e = Get(v);
      e = Cast(e, t.dtype);
      // the stored tensor must span every non-1 dim of the value
      Info info;
      info.role = Role::kStore;
      info.layout = e.layout;
      info.phys = model::ContiguousStrides(t.shape);
      info.offset = Expr(0);
      if (info.layout.size() != t.shape.size())
        throw LowerError("AXIS_CONFLICT", "output " + g_.value(v).name + ": rank mismatch");
      for (std::size_t d = 0; d < t.shape.size(); ++d) {
        if (!IsOne(t.shape[d]) && !info.layout[d].full) {
          Emitted b = BroadcastTo(e, [&] {
            Layout l = e.layout;
            for (std::size_t j = 0; j < l.size(); ++j)
              if (!IsOne(t.shape[j]) && !l[j].full) l[j] = {NewClass(t.shape[j]), true};
            return l;
          }());
          e = b;
          info.layout = e.layout;
          break;
        }
      }
      const int st = Add("Store", {e.node}, t.dtype, info);
      Info oi;
      oi.role = Role::kOutput;
      oi.base = v;
      const int out = Add("Output", {st}, t.dtype, oi);
      g_out_.nodes[static_cast<std::size_t>(out)].attrs["index"] =
          static_cast<std::int64_t>(k.outputs.size());
      g_out_.nodes[static_cast<std::size_t>(out)].name = "out" + std::to_string(k.outputs.size());
      k.outputs.push_back(v);
    }
  }
  if (k.outputs.empty()) throw LowerError("NO_OUTPUT", "the group computes nothing used later");
  // dtype support of every AscIR node
  for (const auto& n : g_out_.nodes) {
    const ir::OpDef* def = ir::FindOp(n.type);
    if (def == nullptr || def->dtypes.empty() || n.inputs.empty()) continue;
    for (const auto& in : n.inputs) {
      const auto& p = g_out_.nodes[static_cast<std::size_t>(in.node)];
      const DType dt = p.outputs[static_cast<std::size_t>(in.output)].dtype;
      if (n.type == "Where" && &in == &n.inputs[0]) continue;
      if (std::find(def->dtypes.begin(), def->dtypes.end(), dt) == def->dtypes.end()) {
        throw LowerError("UNSUPPORTED_DTYPE",
                         "AscIR " + n.type + " does not take " + std::string(ir::DTypeName(dt)));
      }
    }
  }
  Finalize(&k);
  MergeSplits(g_out_);
  k.graph = std::move(g_out_);
  return k;
}

}  // namespace

OpSupport CheckOp(const model::Graph& g, const model::Node& n) {
  OpSupport s;
  s.kind = KindOf(n);
  if (s.kind == OpKind::kOther) {
    s.code = CubeOps().count(n.op.name) && n.op.ns == "aten" ? "CUBE_OP" : "UNSUPPORTED_OP";
    s.message = n.op.ToString() + (s.code == "CUBE_OP" ? " runs on the cube unit, outside fused "
                                                         "vector kernels"
                                                       : " has no AscIR lowering");
    return s;
  }
  try {
    LowerOptions o;
    o.all_outputs = true;
    (void)LowerGroup(g, {n.id}, o);
  } catch (const LowerError& e) {
    s.code = e.code();
    s.message = e.what();
  }
  return s;
}

LoweredKernel LowerGroup(const model::Graph& g, const std::vector<int>& nodes,
                         const LowerOptions& options) {
  Lowerer l(g, options);
  return l.Run(nodes);
}

}  // namespace af::frontend
