// Evaluation rules for pointwise ops: unary math, gelu, comparisons, binary arithmetic, logical
// ops, where, masked_fill, clamp and copies.
#include <cmath>
#include <map>
#include <numbers>

#include "af_cpu/special_math.h"
#include "eval_rules.h"

namespace af::frontend::eval_detail {
namespace {

double Gelu(double x, bool tanh_approx) {
  if (tanh_approx) {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
}

using Fn = std::function<double(double)>;

const std::map<std::string, Fn>& UnaryFns() {
  static const std::map<std::string, Fn> unary = {
      {"abs", [](double x) { return std::fabs(x); }},
      {"neg", [](double x) { return -x; }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"reciprocal", [](double x) { return 1.0 / x; }},
      {"relu", [](double x) { return std::isnan(x) ? x : std::max(x, 0.0); }},
      {"sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"sign",
       [](double x) {
         return std::isnan(x)
                    ? x
                    : static_cast<double>(static_cast<int>(x > 0) - static_cast<int>(x < 0));
       }},
      {"silu", [](double x) { return x / (1.0 + std::exp(-x)); }},
      {"square", [](double x) { return x * x; }},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"asinh", [](double x) { return std::asinh(x); }},
      {"acosh", [](double x) { return std::acosh(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
      {"erfc", [](double x) { return std::erfc(x); }},
      {"lgamma", [](double x) { return std::lgamma(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"round", [](double x) { return std::nearbyint(x); }},
      {"trunc", [](double x) { return std::trunc(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"special_airy_ai", [](double x) { return af_cpu::special::AiryAi(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"exp2", [](double x) { return std::exp2(x); }},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
  };
  return unary;
}

}  // namespace

void EvalUnary(const Ctx& c) {
  const Fn f = UnaryFns().at(c.name());
  const DType out_dt = c.out_dt();
  c.Set(0, c.Map({c.Operand(0, "self")}, out_dt, out_dt, [&](const auto& a) { return f(a[0]); }));
}

void EvalGelu(const Ctx& c) {
  const Arg* ap = ArgAt(c.node(), 1, "approximate");
  const bool th = ap != nullptr && ap->kind == Arg::Kind::kString && ap->text == "tanh";
  const DType out_dt = c.out_dt();
  c.Set(0, c.Map({c.Operand(0, "self")}, out_dt, out_dt,
                 [&](const auto& a) { return Gelu(a[0], th); }));
}

void EvalCompare(const Ctx& c) {
  const std::string& name = c.name();
  T a = c.Operand(0, "self");
  T b = c.Operand(1, "other");
  c.Set(0, c.Map({a, b}, DType::kFloat64, DType::kBool, [&](const auto& x) -> double {
    if (name == "eq") return x[0] == x[1];
    if (name == "ne") return x[0] != x[1];
    if (name == "gt") return x[0] > x[1];
    if (name == "ge") return x[0] >= x[1];
    if (name == "lt") return x[0] < x[1];
    return x[0] <= x[1];
  }));
}

namespace {

// PyTorch's bitwise shifts of an integer dtype `dt`: the count read as a signed number of dt's
// width; a count outside [0, width) gives 0 (left, unsigned right) or the sign fill (signed right).
double Shift(bool left, double a, double b, DType dt) {
  const int bits = 8 * ir::DTypeBytes(dt);
  auto n = static_cast<std::int64_t>(b);
  if (bits < 64) {
    const std::int64_t m = std::int64_t{1} << bits;
    n &= m - 1;
    if (n >= m / 2) n -= m;
  }
  const auto v = static_cast<std::int64_t>(a);
  if (n < 0 || n >= bits) return left || v >= 0 ? 0.0 : -1.0;
  if (left)
    return static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << n));
  return static_cast<double>(v >> n);
}

}  // namespace

void EvalBinary(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T a = c.Operand(0, "self");
  T b = c.Operand(1, "other");
  double alpha = 1.0;
  if (const Arg* al = n.Kwarg("alpha"); al != nullptr) alpha = NumberOf(*al).value_or(1.0);
  std::string mode;
  if (const Arg* rm = n.Kwarg("rounding_mode"); rm != nullptr && rm->kind == Arg::Kind::kString)
    mode = rm->text;
  c.Set(0, c.Map({a, b}, c.out_dt(), c.out_dt(), [&](const auto& x) -> double {
    if (name == "add") return x[0] + alpha * x[1];
    if (name == "sub") return x[0] - alpha * x[1];
    if (name == "rsub") return x[1] - alpha * x[0];
    if (name == "mul") return x[0] * x[1];
    if (name == "div" || name == "true_divide") {
      const double q = x[0] / x[1];
      if (mode == "floor") return std::floor(q);
      if (mode == "trunc") return std::trunc(q);
      return q;
    }
    if (name == "remainder") {
      const double r = std::fmod(x[0], x[1]);
      return (r != 0 && ((r < 0) != (x[1] < 0))) ? r + x[1] : r;
    }
    if (name == "fmod") return std::fmod(x[0], x[1]);
    if (name == "atan2") return std::atan2(x[0], x[1]);
    if (name == "copysign") return std::copysign(x[0], x[1]);
    if (name == "igamma") return af_cpu::special::Igamma(x[0], x[1]);
    if (name == "igammac") return af_cpu::special::Igammac(x[0], x[1]);
    if (name == "special_zeta") return af_cpu::special::Zeta(x[0], x[1]);
    if (name == "floor_divide") return std::floor(x[0] / x[1]);
    if (name == "hypot") return std::hypot(x[0], x[1]);
    if (name == "bitwise_left_shift" || name == "__lshift__" || name == "bitwise_right_shift" ||
        name == "__rshift__") {
      return Shift(name == "bitwise_left_shift" || name == "__lshift__", x[0], x[1], c.out_dt());
    }
    if (name.rfind("bitwise_", 0) == 0) {
      const auto p = static_cast<std::int64_t>(x[0]);
      const auto q = static_cast<std::int64_t>(x[1]);
      return static_cast<double>(name == "bitwise_and"  ? (p & q)
                                 : name == "bitwise_or" ? (p | q)
                                                        : (p ^ q));
    }
    if (name == "maximum") return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::max(x[0], x[1]);
    if (name == "minimum") return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::min(x[0], x[1]);
    return std::pow(x[0], x[1]);
  }));
}

void EvalLeakyRelu(const Ctx& c) {
  double slope = 0.01;
  if (const Arg* a = ArgAt(c.node(), 1, "negative_slope"); a != nullptr)
    slope = NumberOf(*a).value_or(0.01);
  const DType out_dt = c.out_dt();
  c.Set(0, c.Map({c.Operand(0, "self")}, out_dt, out_dt,
                 [&](const auto& a) { return a[0] < 0 ? a[0] * slope : a[0]; }));
}

// torch.special's orthogonal polynomials of x and n (a number or a tensor here; the lowering
// takes only a number): af_cpu/special_math.h with PyTorch's rules for n.
void EvalPolynomial(const Ctx& c) {
  namespace sp = af_cpu::special;
  const std::string& name = c.name();
  const char kind = name.back();  // ..._t, _u, _v, _w; laguerre_polynomial_l; legendre_..._p
  const bool chebyshev = name.find("chebyshev") != std::string::npos;
  const DType out_dt = c.out_dt();
  c.Set(0, c.Map({c.Operand(0, "x"), c.Operand(1, "n")}, out_dt, out_dt, [&](const auto& a) {
    if (chebyshev) return sp::ShiftedChebyshev(static_cast<char>(kind - 'a' + 'A'), a[0], a[1]);
    return kind == 'l' ? sp::Laguerre(a[0], a[1]) : sp::Legendre(a[0], a[1]);
  }));
}

void EvalScalarTensor(const Ctx& c) {
  T t = c.Operand(0, "s");
  t.dt = c.out_dt();
  for (double& x : t.v)
    x = RoundTo(x, t.dt);
  c.Set(0, t);
}

void EvalPredicate(const Ctx& c) {
  const std::string& name = c.name();
  c.Set(0,
        c.Map({c.Operand(0, "self")}, DType::kFloat64, DType::kBool, [&](const auto& x) -> double {
          if (name == "isnan") return std::isnan(x[0]);
          if (name == "isinf") return std::isinf(x[0]);
          if (name == "signbit") return std::signbit(x[0]);
          return std::isfinite(x[0]);
        }));
}

void EvalLogicalNot(const Ctx& c) {
  const DType out_dt = c.out_dt();
  c.Set(0, c.Map({c.Operand(0, "self")}, DType::kFloat64, out_dt, [&](const auto& x) -> double {
    if (out_dt == DType::kBool) return x[0] == 0;
    return static_cast<double>(~static_cast<std::int64_t>(x[0]));
  }));
}

void EvalLogicalAndOr(const Ctx& c) {
  const bool is_and = c.name() == "logical_and";
  c.Set(0, c.Map({c.Operand(0, "self"), c.Operand(1, "other")}, DType::kFloat64, DType::kBool,
                 [&](const auto& x) -> double {
                   return is_and ? (x[0] != 0 && x[1] != 0) : (x[0] != 0 || x[1] != 0);
                 }));
}

void EvalWhere(const Ctx& c) {
  // operands round into the result dtype through FromDoubles
  c.Set(0,
        c.Map({c.Operand(0, "condition"), c.Operand(1, "self"), c.Operand(2, "other")},
              DType::kFloat64, c.out_dt(), [&](const auto& x) { return x[0] != 0 ? x[1] : x[2]; }));
}

void EvalMaskedFill(const Ctx& c) {
  c.Set(0,
        c.Map({c.Operand(0, "self"), c.Operand(1, "mask"), c.Operand(2, "value")}, DType::kFloat64,
              c.out_dt(), [&](const auto& x) { return x[1] != 0 ? x[2] : x[0]; }));
}

void EvalClamp(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T x = c.Operand(0, "self");
  std::vector<T> in = {x};
  const Arg* lo = name == "clamp_max" ? nullptr : ArgAt(n, 1, "min");
  const Arg* hi =
      name == "clamp" ? ArgAt(n, 2, "max") : (name == "clamp_max" ? ArgAt(n, 1, "max") : nullptr);
  const bool has_lo = lo != nullptr && !lo->IsNone();
  const bool has_hi = hi != nullptr && !hi->IsNone();
  if (has_lo) in.push_back(c.FromArg(lo));
  if (has_hi) in.push_back(c.FromArg(hi));
  c.Set(0, c.Map(in, c.out_dt(), c.out_dt(), [&](const auto& a) {
    double r = a[0];
    std::size_t k = 1;
    if (has_lo) r = std::isnan(r) ? r : std::max(r, a[k++]);
    if (has_hi) r = std::isnan(r) ? r : std::min(r, a[k]);
    return r;
  }));
}

void EvalCopy(const Ctx& c) {
  T x = c.Tensor(0, "self");
  x.dt = c.out_dt();
  c.Set(0, x);
}

}  // namespace af::frontend::eval_detail
