// Lowering rules for pointwise ops: unary math, binary arithmetic (pow by small constants as
// Mul / Sqrt / Rsqrt / Reciprocal), comparisons in the promoted dtype, logical ops, where and
// masked_fill, clamp, activations built from AscIR ops (square, silu, gelu) and casts.
#include <cmath>
#include <numbers>

#include "autofuse/model/promotion.h"
#include "lowerer.h"

namespace af::frontend::lower_detail {
namespace {

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
      // the math set (issue 22)
      {"sin", "Sin"},
      {"cos", "Cos"},
      {"tan", "Tan"},
      {"asin", "Asin"},
      {"acos", "Acos"},
      {"atan", "Atan"},
      {"sinh", "Sinh"},
      {"cosh", "Cosh"},
      {"asinh", "Asinh"},
      {"acosh", "Acosh"},
      {"atanh", "Atanh"},
      {"erfc", "Erfc"},
      {"lgamma", "Lgamma"},
      {"digamma", "Digamma"},
      {"floor", "Floor"},
      {"ceil", "Ceil"},
      {"round", "Round"},
      {"trunc", "Trunc"},
      {"log2", "Log2"},
      {"log10", "Log10"},
      {"exp2", "Exp2"},
      {"expm1", "Expm"},
      {"log1p", "Log1p"},
      {"special_airy_ai", "AiryAi"},
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
// The math set's binary ops (issue 22).
const std::map<std::string, std::string>& MathBinaryOps() {
  static const std::map<std::string, std::string> m = {
      {"remainder", "Remainder"},
      {"fmod", "Fmod"},
      {"floor_divide", "FloorDiv"},
      {"hypot", "Hypot"},
      {"bitwise_and", "BitwiseAnd"},
      {"bitwise_or", "BitwiseOr"},
      {"bitwise_xor", "BitwiseXor"},
      {"atan2", "Atan2"},
      {"copysign", "CopySign"},
      {"igamma", "Igamma"},
      {"igammac", "Igammac"},
      {"special_zeta", "Zeta"},
      {"bitwise_left_shift", "LShift"},
      {"__lshift__", "LShift"},
      {"bitwise_right_shift", "RShift"},
      {"__rshift__", "RShift"},
  };
  return m;
}
// The 950 special functions AutoFuse defines for float only (api_regbase's static_asserts):
// computed in float32, with a Cast back for half outputs.
bool Float32Only(const std::string& type) {
  return type == "Igamma" || type == "Igammac" || type == "Zeta" || type == "AiryAi";
}
const std::map<std::string, std::string>& CompareOps() {
  static const std::map<std::string, std::string> m = {
      {"eq", "Eq"}, {"ne", "Ne"}, {"gt", "Gt"}, {"ge", "Ge"}, {"lt", "Lt"}, {"le", "Le"},
  };
  return m;
}

}  // namespace

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

Lowerer::Operand Lowerer::OperandAt(const model::Node& n, std::size_t i, std::string_view kw) {
  const Arg* a = ArgAt(n, i, kw);
  if (a == nullptr) throw LowerError("UNSUPPORTED_ARG", n.name + ": missing operand");
  return ArgOperand(n, *a);
}

Emitted Lowerer::EmitOperand(const Operand& op, DType dt) {
  return op.scalar ? Scalar(op.v, dt) : Cast(Get(op.value), dt);
}

void Lowerer::LowerUnary(const model::Node& n) {
  const auto& ot = OutType(n);
  const std::string& type = UnaryOps().at(n.op.name);
  if (Float32Only(type)) {
    values_[n.outputs[0]] = Cast(
        Pointwise(n, type, {OperandAt(n, 0, "self")}, DType::kFloat32, DType::kFloat32, ot.shape),
        Compute(ot.dtype));
    return;
  }
  const DType cd = Compute(ot.dtype);
  values_[n.outputs[0]] = Pointwise(n, type, {OperandAt(n, 0, "self")}, cd, cd, ot.shape);
}

// torch.special's orthogonal polynomials of x and a degree n: AutoFuse's kernels take the degree
// as a constant (a template argument or a scalar), so n must be a number (ConstantDegree): a
// tensor n computed or passed in is refused with UNSUPPORTED_ARG. The degree is recorded as the
// node's int64 attr `n` (PyTorch truncates a float n to int64; NaN and +-inf give 0 everywhere,
// as degree -1 does). fp32 only as AutoFuse's kernels, with a Cast back for half outputs.
const std::map<std::string, std::string>& PolynomialOps() {
  static const std::map<std::string, std::string> m = {
      {"special_shifted_chebyshev_polynomial_t", "ShiftedChebyshevPolynomialT"},
      {"special_shifted_chebyshev_polynomial_u", "ShiftedChebyshevPolynomialU"},
      {"special_shifted_chebyshev_polynomial_v", "ShiftedChebyshevPolynomialV"},
      {"special_shifted_chebyshev_polynomial_w", "ShiftedChebyshevPolynomialW"},
      {"special_laguerre_polynomial_l", "LaguerrePolynomialL"},
      {"special_legendre_polynomial_p", "LegendrePolynomialP"},
  };
  return m;
}

// The degree argument as a number: a Python number, or a value made by aten.scalar_tensor of one
// (how samples/torch/make_case.py traces a number degree under torch 1.13); nullptr otherwise.
const Arg* Lowerer::ConstantDegree(const model::Node& n) const {
  const Arg* na = ArgAt(n, 1, "n");
  if (na == nullptr || na->kind != Arg::Kind::kValue) return na;
  const model::Value& v = g_.values.at(static_cast<std::size_t>(na->value));
  if (v.origin != model::ValueOrigin::kNodeOutput) return nullptr;
  for (const model::Node& p : g_.nodes) {
    if (p.id == v.node && p.op.name == "scalar_tensor") return ArgAt(p, 0, "s");
  }
  return nullptr;
}

void Lowerer::LowerPolynomial(const model::Node& n) {
  const auto& ot = OutType(n);
  const std::string& type = PolynomialOps().at(n.op.name);
  const Arg* na = ConstantDegree(n);
  std::int64_t degree = 0;
  if (na != nullptr && na->kind == Arg::Kind::kInt) {
    degree = na->i;
  } else if (na != nullptr && na->kind == Arg::Kind::kFloat) {
    const bool in_range = std::isfinite(na->f) && std::fabs(na->f) < 9.2233720368547758e18;
    degree = in_range ? static_cast<std::int64_t>(na->f) : -1;
  } else {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": " + n.op.name +
                                            " with a tensor degree n: AutoFuse takes the degree "
                                            "as a constant (pass n as a Python number)");
  }
  const Operand x = OperandAt(n, 0, "x");
  if (x.scalar) {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": " + n.op.name + " of a number x");
  }
  Emitted xe = Cast(Get(x.value), DType::kFloat32);
  Emitted e = Op(type, {xe}, DType::kFloat32, xe.layout);
  auto& attrs = g_out_.nodes[static_cast<std::size_t>(e.node)].attrs;
  if (const auto it = attrs.find("n");
      it != attrs.end() && std::get<std::int64_t>(it->second) != degree) {
    Info info;  // the same input with another degree: a node of its own
    info.layout = xe.layout;
    e = Emitted{Add(type, {xe.node}, DType::kFloat32, info), DType::kFloat32, xe.layout};
  }
  g_out_.nodes[static_cast<std::size_t>(e.node)].attrs["n"] = degree;
  values_[n.outputs[0]] = Cast(e, Compute(ot.dtype));
}

void Lowerer::LowerBinary(const model::Node& n) {
  const std::string& name = n.op.name;
  const auto& ot = OutType(n);
  const DType out = ot.dtype;
  const DType cd = Compute(out);
  const auto& shape = ot.shape;
  std::string type = BinaryOps().contains(name) ? BinaryOps().at(name) : MathBinaryOps().at(name);
  if (n.Kwarg("rounding_mode") != nullptr && !n.Kwarg("rounding_mode")->IsNone()) {
    const std::string mode = StringArg(n.Kwarg("rounding_mode"), "");
    if (mode != "floor" && mode != "trunc")
      throw LowerError("UNSUPPORTED_ARG", n.name + ": div rounding_mode '" + mode + "'");
    type = mode == "floor" ? "FloorDiv" : "TruncDiv";
    if (!ir::IsFloat(out))
      throw LowerError("UNSUPPORTED_DTYPE", n.name + ": integer division is not lowered");
  }
  const bool logical_form = name == "bitwise_and" || name == "bitwise_or" || name == "bitwise_xor";
  if (logical_form && out == DType::kBool) {
    if (name == "bitwise_xor") {
      type = "LogicalXor";
    } else {
      type = name == "bitwise_and" ? "LogicalAnd" : "LogicalOr";
    }
    values_[n.outputs[0]] = Pointwise(n, type, {OperandAt(n, 0, "self"), OperandAt(n, 1, "other")},
                                      DType::kBool, DType::kBool, shape);
    return;
  }
  if (name == "div" && !ir::IsFloat(out))
    throw LowerError("UNSUPPORTED_DTYPE", n.name + ": integer division is not lowered");
  if (Float32Only(type)) {
    values_[n.outputs[0]] =
        Cast(Pointwise(n, type, {OperandAt(n, 0, "self"), OperandAt(n, 1, "other")},
                       DType::kFloat32, DType::kFloat32, shape),
             cd);
    return;
  }
  Operand a = OperandAt(n, 0, "self");
  Operand b = OperandAt(n, 1, "other");
  Emitted r;
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
    values_[n.outputs[0]] = r;
    return;
  }
  const double al = FloatArg(n.Kwarg("alpha"), 1.0);
  const bool rsub = name == "rsub";
  Operand& scaled = rsub ? a : b;
  Emitted ea = EmitOperand(a, cd);
  Emitted eb = EmitOperand(b, cd);
  if (al != 1.0) {
    Emitted& s = rsub ? ea : eb;
    if (scaled.scalar) {
      s = Scalar(scaled.v * al, cd);
    } else {
      s = Op("Mul", {s, Scalar(al, cd)}, cd, s.layout);
    }
  }
  // rsub swaps; AutoFuse's Atan2 takes the abscissa first: atan2(self, other) = Atan2(other, self).
  if (rsub || name == "atan2") std::swap(ea, eb);
  values_[n.outputs[0]] = Elementwise(n, type, {ea, eb}, cd, shape);
}

void Lowerer::LowerScalarTensor(const model::Node& n) {
  const Arg* a = ArgAt(n, 0, "s");
  const auto v = a == nullptr ? std::nullopt : model::NumberOf(*a);
  if (!v) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar_tensor of a non-number");
  values_[n.outputs[0]] = Scalar(*v, Compute(OutType(n).dtype));
}

void Lowerer::LowerPredicate(const model::Node& n) {
  static const std::map<std::string, std::string> m = {
      {"isfinite", "IsFinite"}, {"isinf", "IsInf"}, {"isnan", "Isnan"}, {"signbit", "SignBit"}};
  const auto& ot = OutType(n);
  const Operand x = OperandAt(n, 0, "self");
  if (x.scalar) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar operand");
  const DType in = TypeOf(x.value).dtype;
  DType cd = Compute(in);
  if (!ir::IsFloat(in)) {
    // signbit of an integer: SignBit takes int32 (AutoFuse's SignBitExtend); the narrower
    // integers widen to it exactly.
    const bool widens = in == DType::kInt8 || in == DType::kInt16 || in == DType::kInt32 ||
                        in == DType::kUInt8 || in == DType::kUInt16;
    if (n.op.name != "signbit" || !widens)
      throw LowerError("UNSUPPORTED_DTYPE",
                       n.name + ": " + std::string(ir::DTypeName(in)) + " operand");
    cd = DType::kInt32;
  }
  values_[n.outputs[0]] = Pointwise(n, m.at(n.op.name), {x}, cd, DType::kBool, ot.shape);
}

void Lowerer::LowerCompare(const model::Node& n) {
  const auto& ot = OutType(n);
  Operand a = OperandAt(n, 0, "self");
  Operand b = OperandAt(n, 1, "other");
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
  values_[n.outputs[0]] =
      Pointwise(n, CompareOps().at(n.op.name), {a, b}, Compute(*common), DType::kBool, ot.shape);
}

void Lowerer::LowerLogical(const model::Node& n) {
  const std::string& name = n.op.name;
  const auto& ot = OutType(n);
  const auto& shape = ot.shape;
  Emitted r;
  if (name == "logical_not" || (name == "bitwise_not" && ot.dtype == DType::kBool)) {
    r = Pointwise(n, "LogicalNot", {OperandAt(n, 0, "self")}, DType::kBool, DType::kBool, shape);
  } else if (name == "logical_and" || name == "logical_or") {
    r = Pointwise(n, name == "logical_and" ? "LogicalAnd" : "LogicalOr",
                  {OperandAt(n, 0, "self"), OperandAt(n, 1, "other")}, DType::kBool, DType::kBool,
                  shape);
  } else {
    throw LowerError("UNSUPPORTED_OP", n.op.ToString() + " is not lowered to AscIR");
  }
  values_[n.outputs[0]] = r;
}

void Lowerer::LowerWhere(const model::Node& n) {
  const auto& ot = OutType(n);
  const DType cd = Compute(ot.dtype);
  Emitted r;
  if (n.op.name == "where") {
    Operand c = OperandAt(n, 0, "condition");
    if (c.scalar) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar condition");
    Emitted ec = Cast(Get(c.value), DType::kBool);
    r = Elementwise(
        n, "Where",
        {ec, EmitOperand(OperandAt(n, 1, "self"), cd), EmitOperand(OperandAt(n, 2, "other"), cd)},
        cd, ot.shape);
  } else {  // masked_fill
    Operand m = OperandAt(n, 1, "mask");
    if (m.scalar) throw LowerError("UNSUPPORTED_ARG", n.name + ": scalar mask");
    Operand v = OperandAt(n, 2, "value");
    Emitted ev = v.scalar ? Scalar(v.v, cd) : Cast(Get(v.value), cd);
    r = Elementwise(
        n, "Where",
        {Cast(Get(m.value), DType::kBool), ev, Cast(Get(OperandAt(n, 0, "self").value), cd)}, cd,
        ot.shape);
  }
  values_[n.outputs[0]] = r;
}

void Lowerer::LowerClamp(const model::Node& n) {
  const std::string& name = n.op.name;
  const auto& ot = OutType(n);
  const DType cd = Compute(ot.dtype);
  Emitted x = Cast(Get(OperandAt(n, 0, "self").value), cd);
  const Arg* lo = name == "clamp_max" ? nullptr : ArgAt(n, 1, "min");
  const Arg* hi =
      name == "clamp" ? ArgAt(n, 2, "max") : (name == "clamp_max" ? ArgAt(n, 1, "max") : nullptr);
  Emitted r = x;
  auto bound = [&](const Arg* a, const char* type) {
    if (a == nullptr || a->IsNone()) return;
    Operand b = ArgOperand(n, *a);
    Emitted eb = b.scalar ? Scalar(b.v, cd) : Cast(Get(b.value), cd);
    r = Elementwise(n, type, {r, eb}, cd, ot.shape);
  };
  bound(lo, "Maximum");
  bound(hi, "Minimum");
  values_[n.outputs[0]] = r;
}

void Lowerer::LowerActivation(const model::Node& n) {
  const std::string& name = n.op.name;
  const auto& ot = OutType(n);
  const DType cd = Compute(ot.dtype);
  Emitted x = Cast(Get(OperandAt(n, 0, "self").value), cd);
  const Layout& l = x.layout;
  if (name == "square") {
    values_[n.outputs[0]] = Op("Mul", {x, x}, cd, l);
    return;
  }
  if (name == "leaky_relu") {
    const double slope = FloatArg(ArgAt(n, 1, "negative_slope"), 0.01);
    Emitted e = Op("LeakyRelu", {x}, cd, l);
    auto& attrs = g_out_.nodes[static_cast<std::size_t>(e.node)].attrs;
    if (const auto it = attrs.find("negative_slope");
        it != attrs.end() && std::get<double>(it->second) != slope) {
      Info info;  // the same input with another slope: a node of its own
      info.layout = l;
      e = Emitted{Add("LeakyRelu", {x.node}, cd, info), cd, l};
    }
    g_out_.nodes[static_cast<std::size_t>(e.node)].attrs["negative_slope"] = slope;
    values_[n.outputs[0]] = e;
    return;
  }
  if (name == "silu") {
    values_[n.outputs[0]] = Op("Mul", {x, Op("Sigmoid", {x}, cd, l)}, cd, l);
    return;
  }
  const std::string approx = StringArg(ArgAt(n, 1, "approximate"), "none");  // gelu
  if (approx == "tanh") {  // AscendC's Gelu is the tanh approximation
    values_[n.outputs[0]] = Op("Gelu", {x}, cd, l);
    return;
  }
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
  values_[n.outputs[0]] = Op("Mul", {half_x, Op("Add", {inner, Scalar(1.0, cd)}, cd, l)}, cd, l);
}

void Lowerer::LowerConvert(const model::Node& n) {
  const DType out = OutType(n).dtype;
  Emitted x = Get(OperandAt(n, 0, "self").value);
  Emitted r;
  if (out == x.dtype) {
    r = x;
  } else if (IsHalf(out) && o_.upcast_half) {
    // round through the narrow type, as the cast asks, then keep computing in fp32
    r = Cast(Cast(x, out), DType::kFloat32);
  } else {
    r = Cast(x, out);
  }
  values_[n.outputs[0]] = r;
}

}  // namespace af::frontend::lower_detail
