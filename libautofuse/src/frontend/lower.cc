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
    return a;
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
  if (ViewOps().count(name)) return OpKind::kView;
  return OpKind::kOther;
}

void Lowerer::LowerNode(const model::Node& n) {
  const std::string& name = n.op.name;
  const OpKind kind = KindOf(n);
  if (kind == OpKind::kReduce) return LowerReduce(n);
  if (kind == OpKind::kView) return LowerView(n);
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

// ------------------------------------------------------------------ finish

void Lowerer::Finalize(LoweredKernel* result) {
  // axes: classes some node spans
  std::vector<int> roots;
  std::map<int, int> first_seen;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    for (auto& d : info_[i].layout) {
      if (d.cls < 0) continue;
      d.cls = Find(d.cls);
      if (d.full && !first_seen.count(d.cls)) {
        first_seen[d.cls] = static_cast<int>(roots.size());
        roots.push_back(d.cls);
      }
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
  if (best >= 0) {
    for (const auto& d : info_[static_cast<std::size_t>(best)].layout)
      if (d.full && std::find(order.begin(), order.end(), d.cls) == order.end())
        order.push_back(d.cls);
  }
  for (int r : roots)
    if (std::find(order.begin(), order.end(), r) == order.end()) order.push_back(r);
  std::map<int, std::int64_t> axis_of;
  std::vector<std::int64_t> axis_ids;
  for (std::size_t a = 0; a < order.size(); ++a) {
    const auto id =
        g_out_.AddAxis("z" + std::to_string(a), size_[static_cast<std::size_t>(order[a])]);
    axis_of[order[a]] = id;
    axis_ids.push_back(id);
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
      const auto pos =
          static_cast<std::size_t>(std::find(order.begin(), order.end(), d.cls) - order.begin());
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
