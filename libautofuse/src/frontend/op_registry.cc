// The op registry (see op_registry.h and op_rules.h): one entry per op name, grouped by family.
#include "autofuse/frontend/op_registry.h"

#include <initializer_list>
#include <map>
#include <string>

#include "eval_rules.h"
#include "lowerer.h"
#include "op_rules.h"

namespace af::frontend {
namespace {

using L = lower_detail::Lowerer;
namespace ev = eval_detail;

using Table = std::map<std::string, OpRule, std::less<>>;

void Add(Table& t, OpKind kind, std::initializer_list<const char*> names, LowerRule lower,
         EvalRule eval, bool aten_only = false) {
  for (const char* name : names)
    t[name] = OpRule{kind, aten_only, false, false, lower, eval};
}

// Sets `flag` in the entries of `names`.
void Mark(Table& t, std::initializer_list<const char*> names, bool OpRule::*flag) {
  for (const char* name : names)
    t[name].*flag = true;
}

void AddPointwise(Table& t) {
  constexpr OpKind k = OpKind::kPointwise;
  Add(t, k,
      {"abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "relu", "sigmoid", "tanh", "erf",
       "sign"},
      &L::LowerUnary, ev::EvalUnary);
  Add(t, k, {"add", "sub", "mul", "div", "true_divide", "maximum", "minimum", "pow", "rsub"},
      &L::LowerBinary, ev::EvalBinary);
  // the math set (issue 22)
  Add(t, k, {"sin",   "cos",   "tan",   "asin", "acos",   "atan",  "sinh", "cosh",
             "asinh", "acosh", "atanh", "erfc", "lgamma", "floor", "ceil", "round",
             "trunc", "log2",  "log10", "exp2", "expm1",  "log1p"},
      &L::LowerUnary, ev::EvalUnary);
  Add(t, k, {"special_airy_ai"}, &L::LowerUnary, ev::EvalUnary);
  Add(t, k,
      {"special_shifted_chebyshev_polynomial_t", "special_shifted_chebyshev_polynomial_u",
       "special_shifted_chebyshev_polynomial_v", "special_shifted_chebyshev_polynomial_w",
       "special_laguerre_polynomial_l", "special_legendre_polynomial_p"},
      &L::LowerPolynomial, ev::EvalPolynomial);
  Add(t, k,
      {"remainder", "fmod", "floor_divide", "hypot", "bitwise_and", "bitwise_or", "bitwise_xor",
       "atan2", "copysign", "bitwise_left_shift", "bitwise_right_shift", "__lshift__",
       "__rshift__"},
      &L::LowerBinary, ev::EvalBinary);
  Add(t, k, {"igamma", "igammac", "special_zeta"}, &L::LowerBinary, ev::EvalBinary);
  Add(t, k, {"isfinite", "isinf", "isnan", "signbit"}, &L::LowerPredicate, ev::EvalPredicate);
  Add(t, k, {"leaky_relu"}, &L::LowerActivation, ev::EvalLeakyRelu);
  Add(t, k, {"scalar_tensor"}, &L::LowerScalarTensor, ev::EvalScalarTensor);
  Add(t, k, {"eq", "ne", "gt", "ge", "lt", "le"}, &L::LowerCompare, ev::EvalCompare);
  Add(t, k, {"logical_not", "bitwise_not"}, &L::LowerLogical, ev::EvalLogicalNot);
  Add(t, k, {"logical_and", "logical_or"}, &L::LowerLogical, ev::EvalLogicalAndOr);
  Add(t, k, {"where"}, &L::LowerWhere, ev::EvalWhere);
  Add(t, k, {"masked_fill"}, &L::LowerWhere, ev::EvalMaskedFill);
  Add(t, k, {"clamp", "clamp_min", "clamp_max"}, &L::LowerClamp, ev::EvalClamp);
  Add(t, k, {"square", "silu"}, &L::LowerActivation, ev::EvalUnary);
  Add(t, k, {"gelu"}, &L::LowerActivation, ev::EvalGelu);
  Add(t, k, {"_to_copy", "to", "convert_element_type"}, &L::LowerConvert, ev::EvalCopy);
}

void AddReduce(Table& t) {
  const std::initializer_list<const char*> reductions = {
      "sum", "mean", "amax", "amin", "prod", "any", "all", "var", "var_mean", "argmax"};
  Add(t, OpKind::kReduce, reductions, &L::LowerReduce, ev::EvalReduce);
  Mark(t, reductions, &OpRule::accumulates);
  // softmax is neither lowered nor evaluated (importers decompose it), but it accumulates
  Add(t, OpKind::kOther, {"_softmax", "_log_softmax"}, nullptr, nullptr);
  Mark(t, {"_softmax", "_log_softmax"}, &OpRule::accumulates);
}

void AddView(Table& t) {
  constexpr OpKind k = OpKind::kView;
  Add(t, k, {"view", "_unsafe_view", "reshape", "unsqueeze", "squeeze", "view_copy"}, &L::LowerView,
      ev::EvalReshape);
  Add(t, k, {"expand", "expand_copy"}, &L::LowerView, ev::EvalExpand);
  Add(t, k, {"permute", "transpose", "t", "permute_copy"}, &L::LowerView, ev::EvalPermute);
  Add(t, k, {"slice", "select"}, &L::LowerView, ev::EvalSlice);
  Add(t, k, {"alias", "clone", "lift_fresh_copy", "contiguous"}, &L::LowerView, ev::EvalCopy);
  // the split family: views of their input (Load offsets), or a Split of a value computed in the
  // kernel
  Add(t, k,
      {"split", "split_with_sizes", "split_copy", "chunk", "split_with_sizes_copy", "unbind",
       "unbind_copy"},
      &L::LowerSplit, ev::EvalSplit, /*aten_only=*/true);
}

// data movement that copies: Concat (cat, constant_pad_nd) and Gather; prims spells only cat
void AddData(Table& t) {
  constexpr OpKind k = OpKind::kData;
  Add(t, k, {"cat"}, &L::LowerCat, ev::EvalCat);
  Add(t, k, {"constant_pad_nd"}, &L::LowerPad, ev::EvalPad);
  Add(t, k, {"index_select", "embedding", "index", "_unsafe_index"}, &L::LowerGather, ev::EvalIndex,
      /*aten_only=*/true);
  Add(t, k, {"gather"}, &L::LowerGather, ev::EvalGather, /*aten_only=*/true);
}

// The cube ops: evaluated (the matmul family); mm, bmm and addmm lowered for the matmul pass.
void AddCube(Table& t) {
  // mm, bmm and addmm lower to MatMul / BatchMatMul / MatMulBias for cube + vector kernels (the
  // matmul pass); matmul and linear reach the graphs decomposed into them.
  Add(t, OpKind::kCube, {"mm", "bmm", "addmm"}, &L::LowerMatMul, ev::EvalMatmul,
      /*aten_only=*/true);
  Add(t, OpKind::kOther, {"matmul", "linear"}, nullptr, ev::EvalMatmul);
  Add(t, OpKind::kOther, {"baddbmm", "convolution", "conv2d", "_scaled_mm", "addmv", "mv"}, nullptr,
      nullptr);
  const std::initializer_list<const char*> cube = {"mm",         "bmm",    "addmm",       "baddbmm",
                                                   "matmul",     "linear", "convolution", "conv2d",
                                                   "_scaled_mm", "addmv",  "mv"};
  Mark(t, cube, &OpRule::cube);
  Mark(t, cube, &OpRule::accumulates);
}

const Table& Rules() {
  static const Table table = [] {
    Table t;
    AddPointwise(t);
    AddReduce(t);
    AddView(t);
    AddData(t);
    AddCube(t);
    return t;
  }();
  return table;
}

}  // namespace

const OpRule* FindOpRule(std::string_view name) {
  const Table& t = Rules();
  auto it = t.find(name);
  return it == t.end() ? nullptr : &it->second;
}

OpKind KindOfOp(const model::OpName& op) {
  if (op.ns != "aten" && op.ns != "prims") return OpKind::kOther;
  const OpRule* r = FindOpRule(op.name);
  if (r == nullptr || (r->aten_only && op.ns != "aten")) return OpKind::kOther;
  return r->kind;
}

OpKind KindOfNode(const model::Node& n) {
  return n.kind == model::NodeKind::kOp ? KindOfOp(n.op) : OpKind::kOther;
}

bool IsReduction(const model::OpName& op) {
  return KindOfOp(op) == OpKind::kReduce;
}

bool IsCubeOp(const model::OpName& op) {
  const OpRule* r = FindOpRule(op.name);
  return r != nullptr && r->cube;
}

bool Accumulates(const model::OpName& op) {
  const OpRule* r = FindOpRule(op.name);
  return r != nullptr && r->accumulates;
}

}  // namespace af::frontend
