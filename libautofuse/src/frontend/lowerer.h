// Private to the lowering: the Lowerer, which turns a group of model nodes into one AscIR hint
// graph, and the types it works with. Its rules are split by op family the way model/infer_*.cc
// is (lower_pointwise.cc, lower_reduce.cc, lower_view.cc, lower_data.cc); lower.cc holds the
// driver (sources, outputs, dtype checks) and lower_finalize.cc turns axis classes into axes and
// views. Which rule lowers which op is in the op registry (op_rules.h).
//
// One pass over the group's nodes in graph order builds the AscIR nodes. Each tensor carries a
// layout: per model dim, an axis class (union-find over dims that broadcasting says are the same
// loop axis) and whether the tensor spans it (`full`) or has extent 1 there. Views of values that
// come from outside the group stay unmaterialised "chains" (offset, sizes, strides over the
// external buffer) until an op reads them; then they become a Load. After the pass the classes
// become the graph's axes, ordered like the widest tensor, and every node gets its view.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "autofuse/frontend/lower.h"
#include "autofuse/model/arg_reader.h"
#include "autofuse/model/shape.h"

namespace af::frontend::lower_detail {

using ir::DType;
using model::Arg;
using model::ArgAt;
using model::IntExprOf;
using model::NumberOf;
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

inline bool IsHalf(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16;
}

inline std::string Lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::string FormatDouble(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 6; prec <= 17; ++prec) {  // the shortest text that reads back exactly
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

inline bool IsOne(const Expr& e) {
  return e == Expr(1);
}

// Argument readers over model::ArgAt: an absent or None argument gives the default (or
// nullopt); one of another kind throws LowerError UNSUPPORTED_ARG.
double FloatArg(const Arg* a, double dflt);
std::optional<Expr> IntExprArg(const model::Graph& g, const Arg* a);
std::string StringArg(const Arg* a, const std::string& dflt);
// The `dim` argument at `i` normalised against `rank`; nullopt when it is not a known dim.
std::optional<std::size_t> DimArg(const model::Graph& g, const model::Node& n, std::size_t i,
                                  std::size_t rank);

class Lowerer {
 public:
  Lowerer(const model::Graph& g, const LowerOptions& o) : g_(g), o_(o) {}

  LoweredKernel Run(const std::vector<int>& nodes);

  // ---- the rules, one per op family (op_rules.h names the rule of each op)
  // pointwise (lower_pointwise.cc)
  void LowerUnary(const model::Node& n);
  void LowerBinary(const model::Node& n);
  void LowerPredicate(const model::Node& n);     // isfinite, isinf, isnan
  void LowerScalarTensor(const model::Node& n);  // a Scalar
  void LowerCompare(const model::Node& n);
  void LowerLogical(const model::Node& n);  // logical_not/and/or, bitwise_not of bools
  void LowerWhere(const model::Node& n);    // where, masked_fill
  void LowerClamp(const model::Node& n);
  void LowerActivation(const model::Node& n);  // square, silu, gelu
  void LowerPolynomial(const model::Node& n);  // torch.special's orthogonal polynomials
  const Arg* ConstantDegree(const model::Node& n) const;
  void LowerConvert(const model::Node& n);  // _to_copy, to, convert_element_type
  // reductions (lower_reduce.cc)
  void LowerReduce(const model::Node& n);
  void LowerArgMax(const model::Node& n, Emitted x, const Layout& red, DType out,
                   const std::vector<bool>& reduced, bool keepdim);
  // views (lower_view.cc)
  void LowerView(const model::Node& n);
  // data movement (lower_data.cc; docs/frontend.md, "Data movement")
  void LowerCat(const model::Node& n);
  void LowerSplit(const model::Node& n);
  void LowerGather(const model::Node& n);
  void LowerPad(const model::Node& n);
  // cube ops, the matmul pass (lower_cube.cc)
  void LowerMatMul(const model::Node& n);

 private:
  // A matmul operand the cube reads whole from a kernel input.
  struct CubeOperand {
    int data_value = -1;  // the model value of the kernel input
    std::vector<Expr> sizes;
    bool transposed = false;  // its last two dims swapped in memory
  };
  // A MatMul node and the axis classes of its operands' dims in memory order (-1: a batch dim of
  // 1 the operand broadcasts).
  struct CubeUse {
    int node = -1;
    bool batch = false;
    int data[2] = {-1, -1};
    std::vector<int> storage[2];
    bool transpose[2] = {false, false};
    int bias = -1;     // MatMulBias's bias Data, or -1
    int out_cls = -1;  // the N class (the bias's)
    int k_cls = -1;    // the contraction dim: an axis only the operands span
  };
  CubeOperand CubeOperandOf(const model::Node& n, int value, const char* what);
  // A reshape of a MatMul's product that splits its leading dim: the MatMul becomes a batched
  // one over the split dims (nullopt when the view is not such a split or the product is read).
  std::optional<Emitted> SplitCubeOutput(const model::Node& n, const Emitted& x);
  // The operands' Data layouts follow their storage classes (so their axes exist).
  void SyncCubeDataLayouts(const CubeUse& cu);
  // The MatMul nodes' views (the product's dims only) and their operands' Data views.
  void SetCubeViews(const std::vector<int>& order, const std::vector<std::int64_t>& ids);
  // A Gather and the classes of its params dims (docs/ir.md: output = params[:axis] + indices +
  // params[axis+1:]); its params and indices are read straight from Data nodes, or its indices
  // are a reduction's result (argmax's), which the partition into groups stores to a GM
  // workspace that the Gather's group reads as a Data node (GROUP_WORKSPACE).
  struct GatherUse {
    int node = -1;
    int params = -1;  // Data nodes
    int indices = -1;
    bool reduced_indices = false;  // `indices` is a reduction node
    std::vector<int> prefix;       // classes of params[:axis]
    std::vector<int> suffix;       // classes of params[axis+1:]
    Layout index_layout;           // the indices' dims
    Expr extent;                   // params extent along axis (an axis of its own, no loop)
    std::vector<Expr> params_shape;
  };

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
  int Add(const std::string& type, const std::vector<int>& inputs, DType dt, Info info) {
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
  Emitted Op(const std::string& type, const std::vector<Emitted>& in, DType dt, const Layout& l) {
    std::vector<int> ids;
    ids.reserve(in.size());
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

  // An operand of a pointwise op: argument `i` (or keyword `kw`) as a tensor or a number.
  Operand OperandAt(const model::Node& n, std::size_t i, std::string_view kw);
  // A tensor or number operand, cast to `dt`.
  Emitted EmitOperand(const Operand& op, DType dt);
  // Lowers one node by its op's rule; throws for ops without one.
  void LowerNode(const model::Node& n);
  // var / var_mean: Mean, the squared deviations, their Sum scaled by the correction.
  void LowerVariance(const model::Node& n, Emitted x, const Layout& red, const Expr& count,
                     DType out, const std::vector<bool>& reduced, bool keepdim);
  // The dims a permute / transpose / t puts in each place; nullopt for other views.
  std::optional<std::vector<int>> ViewPermutation(const model::Node& n, std::size_t rank);
  // A view of an external value: the chain it makes.
  Chain ViewOfChain(const model::Node& n, Chain c, const std::optional<std::vector<int>>& perm,
                    std::size_t rank);
  // A view of a value computed in the kernel: the same node with another layout.
  Emitted ViewOfComputed(const model::Node& n, const Emitted& x,
                         const std::optional<std::vector<int>>& perm);
  // data movement
  Emitted ConcatOf(const model::Node& n, std::vector<Emitted> in, std::size_t dim, const Expr& size,
                   DType dt);
  int GatherData(const model::Node& n, int value, const char* what);
  std::optional<Emitted> ReducedIndices(int value);
  // The group's values in `needed` (all when options ask) become Store + Output.
  void AddOutputs(const std::vector<int>& ordered, const std::set<int>& needed, LoweredKernel* k);
  // Every AscIR node's input dtypes are ones its op takes.
  void CheckDTypes() const;

  // ---- finish (lower_finalize.cc)
  void Finalize(LoweredKernel* result);
  // The loop axes (axis classes) in loop order.
  std::vector<int> AxisOrder();
  std::vector<int> AxesOf(const std::vector<int>& classes);
  std::vector<int> IndexAxes(const GatherUse& gu);
  // The view of node i's output over the loop axes.
  void ViewFor(std::size_t i, const std::vector<int>& order,
               const std::vector<std::int64_t>& axis_ids, ir::Tensor* t);
  // Data and Output views: the access view when it is the whole buffer, densely; else flat.
  void SetBufferViews(const std::vector<std::int64_t>& axis_ids);
  // Gather operands' Data views.
  void SetGatherViews(const std::vector<std::int64_t>& axis_ids);
  // The size symbols the graph uses, in the model graph's order.
  void AddSizeVars();

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
  std::vector<GatherUse> gathers_;
  std::set<int> gather_data_;  // Data nodes read by a Gather
  std::vector<CubeUse> cubes_;
  std::set<int> cube_data_;  // Data nodes read by a MatMul
  int split_gid_ = 0;
  ir::Graph g_out_;
  std::vector<Info> info_;
};

}  // namespace af::frontend::lower_detail
