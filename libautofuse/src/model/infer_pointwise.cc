// Inference rules for pointwise ops: unary and binary arithmetic with broadcasting and type
// promotion, comparisons and logical ops (bool results), where, clamp, casts.
#include <initializer_list>

#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using ir::DType;

// How a pointwise op's result dtype follows from the promoted operand dtype.
enum class Out {
  kSame,      // the promoted dtype
  kFloating,  // integers and bool become float32 (true division, exp, ...)
  kBool,      // comparisons and logical ops
};

DType Apply(Out o, DType t) {
  switch (o) {
    case Out::kSame:
      return t;
    case Out::kFloating:
      return ToFloating(t);
    case Out::kBool:
      return DType::kBool;
  }
  return t;
}

// Elementwise over the given argument positions (missing or None arguments are skipped).
RuleFn Elementwise(std::vector<int> positions, Out out) {
  return [positions = std::move(positions), out](const Ctx& c) {
    std::vector<const Arg*> args;
    for (int p : positions)
      args.push_back(c.Get(p));
    bool any_tensor = false;
    for (const Arg* a : args) {
      if (a != nullptr && c.TensorOrNull(*a) != nullptr) any_tensor = true;
    }
    if (!any_tensor) Fail("no tensor operand");
    const DType t = Apply(out, Promote(c, args));
    return std::vector<ValueType>{MakeTensor(t, BroadcastArgs(c, args))};
  };
}

// Unary on argument 0.
RuleFn Unary(Out out) {
  return [out](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "self");
    if (x.dtype == DType::kUndefined) {
      if (out == Out::kSame) return std::vector<ValueType>{WithShape(x, x.shape)};
      Fail("dtype " + x.dtype_code + " is not supported");
    }
    ValueType r = WithShape(x, x.shape);
    const DType t = Apply(out, x.dtype);
    if (t != x.dtype) r = MakeTensor(t, x.shape);
    return std::vector<ValueType>{r};
  };
}

// Division: true division unless a rounding mode is given.
std::vector<ValueType> Div(const Ctx& c) {
  const Arg* mode = c.Get(2, "rounding_mode");
  const bool rounding = mode != nullptr && !mode->IsNone();
  return Elementwise({0, 1}, rounding ? Out::kSame : Out::kFloating)(c);
}

// Casts: the dtype argument at `pos`/`name`, or the input's dtype when absent.
RuleFn Cast(int pos, std::string_view name) {
  return [pos, name](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "self");
    ValueType r = WithShape(x, x.shape);
    if (auto t = c.DTypeArg(pos, name)) {
      r = MakeTensor(*t, x.shape);
      r.device = x.device;
    }
    if (std::string d = c.DeviceArg(-1, "device"); !d.empty()) r.device = d;
    return std::vector<ValueType>{r};
  };
}

// The type of argument `pos` (in-place style ops and ops that keep their input's type).
RuleFn SameAs(int pos) {
  return [pos](const Ctx& c) {
    const ValueType& x = c.Tensor(pos);
    return std::vector<ValueType>{WithShape(x, x.shape)};
  };
}

void Add(RuleTable& t, std::initializer_list<std::string_view> names, const RuleFn& fn) {
  for (auto n : names)
    t[std::string(n)] = Rule{fn, false};
}

// Binary arithmetic, comparisons and binary logical ops.
void AddBinaryRules(RuleTable& t) {
  // Binary arithmetic (aten promotes; prims operands already agree, so the same rule holds).
  Add(t,
      {"aten.add",
       "aten.sub",
       "aten.mul",
       "aten.rsub",
       "aten.maximum",
       "aten.minimum",
       "aten.fmod",
       "aten.remainder",
       "aten.floor_divide",
       "aten.bitwise_and",
       "aten.bitwise_or",
       "aten.bitwise_xor",
       "aten.bitwise_left_shift",
       "aten.bitwise_right_shift",
       "aten.__lshift__",
       "aten.__rshift__",
       "aten.fmax",
       "aten.fmin",
       "aten.hypot",
       "aten.pow",
       "aten.xlogy",
       "prims.add",
       "prims.sub",
       "prims.mul",
       "prims.div",
       "prims.maximum",
       "prims.minimum",
       "prims.fmod",
       "prims.remainder",
       "prims.pow",
       "prims.bitwise_and",
       "prims.bitwise_or",
       "prims.bitwise_xor",
       "prims.atan2"},
      Elementwise({0, 1}, Out::kSame));
  Add(t, {"aten.div"}, Div);
  // copysign promotes integer operands to the default float as atan2 does (PyTorch).
  Add(t, {"aten.true_divide", "aten.atan2", "aten.copysign"}, Elementwise({0, 1}, Out::kFloating));
  // max/min with a second tensor are elementwise; their reduction overloads are elsewhere.
  Add(t, {"aten.max.other", "aten.min.other"}, Elementwise({0, 1}, Out::kSame));
  // Comparisons and logical ops.
  Add(t,
      {"aten.eq", "aten.ne", "aten.lt", "aten.le", "aten.gt", "aten.ge", "aten.logical_and",
       "aten.logical_or", "aten.logical_xor", "prims.eq", "prims.ne", "prims.lt", "prims.le",
       "prims.gt", "prims.ge"},
      Elementwise({0, 1}, Out::kBool));
}

// Unary ops, by what their result's dtype is.
void AddUnaryRules(RuleTable& t) {
  Add(t,
      {"aten.logical_not", "aten.isnan", "aten.isinf", "aten.isfinite", "aten.signbit",
       "aten.isneginf", "aten.isposinf", "prims.isnan", "prims.isinf"},
      Unary(Out::kBool));
  // Unary ops whose integer inputs give float results.
  Add(t,
      {"aten.exp",
       "aten.exp2",
       "aten.expm1",
       "aten.log",
       "aten.log2",
       "aten.log10",
       "aten.log1p",
       "aten.sqrt",
       "aten.rsqrt",
       "aten.sin",
       "aten.cos",
       "aten.tan",
       "aten.asin",
       "aten.acos",
       "aten.atan",
       "aten.sinh",
       "aten.cosh",
       "aten.tanh",
       "aten.asinh",
       "aten.acosh",
       "aten.atanh",
       "aten.sigmoid",
       "aten.erf",
       "aten.erfc",
       "aten.erfinv",
       "aten.reciprocal",
       "aten.gelu",
       "aten.silu",
       "aten.mish",
       "aten.softplus",
       "aten.hardsigmoid",
       "aten.hardswish",
       "aten.elu",
       "aten.selu",
       "aten.celu",
       "aten.logit",
       "aten.lgamma",
       "aten.digamma",
       "aten.i0",
       "aten.sinc",
       "aten.log_sigmoid_forward",
       "prims.exp",
       "prims.exp2",
       "prims.expm1",
       "prims.log",
       "prims.log2",
       "prims.log10",
       "prims.log1p",
       "prims.sqrt",
       "prims.rsqrt",
       "prims.sin",
       "prims.cos",
       "prims.tan",
       "prims.tanh",
       "prims.erf",
       "prims.erfc",
       "prims.reciprocal",
       "prims.sigmoid",
       "prims.atan",
       "prims.asin",
       "prims.acos",
       "prims.sinh",
       "prims.cosh",
       "prims.lgamma",
       "prims.digamma"},
      Unary(Out::kFloating));
  // Unary ops that keep the dtype.
  Add(t, {"aten.neg",        "aten.abs",        "aten.relu",        "aten.floor",
          "aten.ceil",       "aten.round",      "aten.trunc",       "aten.frac",
          "aten.sign",       "aten.sgn",        "aten.bitwise_not", "aten.positive",
          "aten.square",     "aten.leaky_relu", "aten.hardtanh",    "aten.relu6",
          "aten.threshold",  "aten.clone",      "aten.alias",       "aten.lift_fresh_copy",
          "aten.lift_fresh", "aten.detach",     "aten.contiguous",  "aten.fill",
          "aten.zero",       "aten.flip",       "aten.roll",        "aten.nan_to_num",
          "prims.neg",       "prims.abs",       "prims.floor",      "prims.ceil",
          "prims.round",     "prims.trunc",     "prims.sign",       "prims.bitwise_not",
          "prims.clone",     "prims.view_of",   "prims.alias"},
      Unary(Out::kSame));
}

}  // namespace

void AddPointwiseRules(RuleTable& t) {
  AddBinaryRules(t);
  AddUnaryRules(t);
  // Ops that keep the type of argument 0 whatever the others are.
  Add(t,
      {"aten.masked_fill", "aten.copy", "aten.copy_", "aten.threshold_backward",
       "aten.gelu_backward", "aten.sigmoid_backward", "aten.tanh_backward", "aten.index_put",
       "aten._unsafe_index_put", "aten.scatter", "aten.scatter_add", "aten.index_add",
       "aten.masked_scatter", "aten.fill_", "aten.silu_backward"},
      SameAs(0));
  // where(cond, a, b): the promoted dtype of a and b, broadcast over all three.
  Add(t, {"aten.where", "prims.where"}, [](const Ctx& c) {
    const Arg* cond = c.Get(0, "condition");
    const Arg* a = c.Get(1, "self");
    const Arg* b = c.Get(2, "other");
    if (a == nullptr || b == nullptr) Fail("where needs three arguments");
    const DType dt = Promote(c, {a, b});
    return std::vector<ValueType>{MakeTensor(dt, BroadcastArgs(c, {cond, a, b}))};
  });
  // clamp(self, min, max) and its one-sided forms promote with their bounds.
  Add(t, {"aten.clamp"}, Elementwise({0, 1, 2}, Out::kSame));
  Add(t, {"aten.clamp_min", "aten.clamp_max"}, Elementwise({0, 1}, Out::kSame));
  Add(t, {"aten.addcmul", "aten.addcdiv", "aten.lerp"}, Elementwise({0, 1, 2}, Out::kSame));
  // Casts.
  Add(t, {"prims.convert_element_type"}, Cast(1, "dtype"));
  Add(t, {"aten._to_copy", "aten.to"}, Cast(-1, "dtype"));
  Add(t, {"aten.to.dtype"}, Cast(1, "dtype"));
  Add(t, {"aten.to.dtype_layout"}, Cast(-1, "dtype"));
  Add(t, {"aten.type_as"}, [](const Ctx& c) {
    const ValueType& x = c.Tensor(0);
    const ValueType& o = c.Tensor(1);
    ValueType r = WithShape(o, x.shape);
    r.device = x.device;
    return std::vector<ValueType>{r};
  });
}

}  // namespace af::model::infer_detail
