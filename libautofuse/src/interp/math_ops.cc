// The math op set: float ops computed in double and rounded once into the output dtype, integer
// (bitwise) ops in int64 and wrapped, predicates as 0/1. The semantics each op follows are the
// PyTorch / C ones named in docs/ir.md ("The math op set").
#include "math_ops.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "af_cpu/special_math.h"
#include "strided_counter.h"

namespace af::interp::detail {
namespace {

using ir::OpCode;

// The digamma function: reflection for x < 0.5, recurrence up to 6, then the asymptotic series.
double Digamma(double x) {
  if (std::isnan(x)) return x;
  if (x <= 0 && std::floor(x) == x) return std::numeric_limits<double>::quiet_NaN();
  if (x < 0.5) return Digamma(1.0 - x) - std::numbers::pi / std::tan(std::numbers::pi * x);
  double r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

// erf^-1 by Newton's method on erf from a logarithmic first guess.
double Erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1 || y == -1) return std::copysign(HUGE_VAL, y);
  const double w = -std::log((1 - y) * (1 + y));
  double x = std::copysign(std::sqrt(std::max(w - std::log(w) / 2, 0.0) * 0.5), y);
  if (std::fabs(y) < 0.5) x = y * std::sqrt(std::numbers::pi) / 2;
  for (int k = 0; k < 60; ++k) {
    const double step = (std::erf(x) - y) / (2 / std::sqrt(std::numbers::pi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::max(1.0, std::fabs(x))) break;
  }
  return x;
}

// Bessel-family values by libstdc++'s special functions, extended to negative x by parity.
double Special(OpCode c, double x) {
  const double a = std::fabs(x);
  const double sign = x < 0 ? -1.0 : 1.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (c) {
    case OpCode::kBesselJ0:
      return std::cyl_bessel_j(0.0, a);
    case OpCode::kBesselJ1:
      return sign * std::cyl_bessel_j(1.0, a);
    case OpCode::kBesselY0:
      return x < 0 ? nan : x == 0 ? -HUGE_VAL : std::cyl_neumann(0.0, x);
    case OpCode::kBesselY1:
      return x < 0 ? nan : x == 0 ? -HUGE_VAL : std::cyl_neumann(1.0, x);
    case OpCode::kModifiedBesselI0:
      return std::cyl_bessel_i(0.0, a);
    case OpCode::kModifiedBesselI1:
      return sign * std::cyl_bessel_i(1.0, a);
    case OpCode::kModifiedBesselK0:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::cyl_bessel_k(0.0, x);
    case OpCode::kModifiedBesselK1:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::cyl_bessel_k(1.0, x);
    case OpCode::kScaledModifiedBesselK0:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::exp(x) * std::cyl_bessel_k(0.0, x);
    case OpCode::kScaledModifiedBesselK1:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::exp(x) * std::cyl_bessel_k(1.0, x);
    case OpCode::kSphericalBesselJ0:
      return x == 0 ? 1.0 : std::sin(x) / x;
    case OpCode::kNdtr:
      return 0.5 * std::erfc(-x / std::numbers::sqrt2);
    case OpCode::kNdtri:
      return std::numbers::sqrt2 * Erfinv(2 * x - 1);
    case OpCode::kErfinv:
      return Erfinv(x);
    case OpCode::kErfcx:
      return std::exp(x * x) * std::erfc(x);
    default:
      return nan;
  }
}

double FloorMod(double a, double b) {
  const double r = std::fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

std::optional<double> Unary(OpCode c, double x) {
  switch (c) {
    case OpCode::kSin:
      return std::sin(x);
    case OpCode::kCos:
      return std::cos(x);
    case OpCode::kTan:
      return std::tan(x);
    case OpCode::kAsin:
      return std::asin(x);
    case OpCode::kAcos:
      return std::acos(x);
    case OpCode::kAtan:
      return std::atan(x);
    case OpCode::kSinh:
      return std::sinh(x);
    case OpCode::kCosh:
      return std::cosh(x);
    case OpCode::kAsinh:
      return std::asinh(x);
    case OpCode::kAcosh:
      return std::acosh(x);
    case OpCode::kAtanh:
      return std::atanh(x);
    case OpCode::kErfc:
      return std::erfc(x);
    case OpCode::kLgamma:
      return std::lgamma(x);
    case OpCode::kDigamma:
      return Digamma(x);
    case OpCode::kFloor:
    case OpCode::kFloorToInt:
      return std::floor(x);
    case OpCode::kCeil:
    case OpCode::kCeil2Int:
      return std::ceil(x);
    case OpCode::kRound:
    case OpCode::kRoundToInt:
      return std::nearbyint(x);  // ties to even
    case OpCode::kTrunc:
    case OpCode::kTruncToInt:
      return std::trunc(x);
    case OpCode::kLog2:
      return std::log2(x);
    case OpCode::kLog10:
      return std::log10(x);
    case OpCode::kSquare:
      return x * x;
    case OpCode::kExp2:
      return std::exp2(x);
    case OpCode::kExpm:
      return std::expm1(x);
    case OpCode::kLog1p:
      return std::log1p(x);
    case OpCode::kGelu: {
      const double k = std::sqrt(2.0 / std::numbers::pi);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    case OpCode::kNop:
    case OpCode::kUb2ub:
      return x;
    case OpCode::kAiryAi:
      return af_cpu::special::AiryAi(x);
    default:
      if (c >= OpCode::kBesselJ0 && c <= OpCode::kErfcx) return Special(c, x);
      return std::nullopt;
  }
}

std::optional<double> Binary(OpCode c, double a, double b, double attr) {
  switch (c) {
    case OpCode::kFmod:
      return std::fmod(a, b);
    case OpCode::kHypot:
      return std::hypot(a, b);
    case OpCode::kAtan2:  // x1 is the abscissa (AutoFuse's order)
      return std::atan2(b, a);
    case OpCode::kCopySign:
      return std::copysign(a, b);
    // The incomplete gamma and Hurwitz zeta functions: af_cpu/special_math.h, shared with the CPU
    // runtime's IgammaExtend / IgammacExtend / ZetaExtend.
    case OpCode::kIgamma:
      return af_cpu::special::Igamma(a, b);
    case OpCode::kIgammac:
      return af_cpu::special::Igammac(a, b);
    case OpCode::kZeta:
      return af_cpu::special::Zeta(a, b);
    case OpCode::kTruncDiv:
      return std::trunc(a / b);
    case OpCode::kFloorDiv:
      return std::floor(a / b);
    case OpCode::kMod:
    case OpCode::kRemainder:
      return FloorMod(a, b);
    case OpCode::kAxpy:
      return attr * a + b;
    default:
      return std::nullopt;
  }
}

// LShift / RShift as PyTorch (>= 2.1) defines them for a `dtype` of `bits` bits: a count below 0
// or at least the width gives 0 (left), the sign fill (right, signed) or 0 (right, unsigned);
// otherwise a logical left shift (wrapped into the dtype by the caller) or an arithmetic
// (signed) / logical (unsigned, a >= 0 here) right shift.
std::int64_t Shift(OpCode c, std::int64_t a, std::int64_t b, ir::DType dtype) {
  const std::int64_t bits = 8LL * ir::DTypeBytes(dtype);
  if (bits < 64) {  // the count as a signed number of the dtype's width (PyTorch's static_cast)
    const std::int64_t m = std::int64_t{1} << bits;
    b &= m - 1;
    if (b >= m / 2) b -= m;
  }
  const bool out_of_range = b < 0 || b >= bits;
  if (c == OpCode::kLShift) {
    return out_of_range ? 0 : static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
  }
  if (out_of_range) return a < 0 ? -1 : 0;
  return a >> b;
}

std::optional<std::int64_t> BinaryInt(OpCode c, std::int64_t a, std::int64_t b) {
  switch (c) {
    case OpCode::kBitwiseAnd:
      return a & b;
    case OpCode::kBitwiseOr:
      return a | b;
    case OpCode::kBitwiseXor:
    case OpCode::kXor:
      return a ^ b;
    case OpCode::kRemainder: {
      if (b == 0) throw EvalError("integer remainder by zero");
      if (b == -1) return 0;
      const std::int64_t r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    default:
      return std::nullopt;
  }
}

std::optional<bool> Predicate(OpCode c, double x) {
  switch (c) {
    case OpCode::kIsFinite:
      return std::isfinite(x);
    case OpCode::kIsInf:
      return std::isinf(x);
    case OpCode::kIsnan:
      return std::isnan(x);
    case OpCode::kSignBit:
      return std::signbit(x);
    default:
      return std::nullopt;
  }
}

double NanMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}
double NanMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a < b ? a : b;
}

template <std::size_t N, typename F>
void Each(const std::vector<std::int64_t>& shape, const std::vector<std::vector<std::int64_t>>& st,
          F&& f) {
  std::array<const std::vector<std::int64_t>*, N> p{};
  for (std::size_t k = 0; k < N; ++k)
    p[k] = &st[k];
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;
  StridedCounter<N> c(shape, p, {});
  for (std::int64_t k = 0; k < n; ++k) {
    f(k, c.offsets());
    c.Next();
  }
}

Value Ternary(OpCode code, const std::vector<const Value*>& ins, Value out,
              const std::vector<std::vector<std::int64_t>>& st) {
  const Value& a = *ins[0];
  const Value& b = *ins[1];
  const Value& c = *ins[2];
  Each<3>(out.shape, st, [&](std::int64_t k, const auto& o) {
    if (code == OpCode::kMaskedFill) {
      const Value& src = b.Nonzero(o[1]) ? c : a;
      const std::int64_t at = b.Nonzero(o[1]) ? o[2] : o[0];
      if (src.is_float) {
        out.PutDouble(k, src.f[static_cast<std::size_t>(at)]);
      } else {
        out.PutInt(k, src.i[static_cast<std::size_t>(at)]);
      }
    } else if (code == OpCode::kClipByValue) {
      out.PutDouble(k, NanMin(NanMax(a.F(o[0]), b.F(o[1])), c.F(o[2])));
    } else {  // Fma
      out.PutDouble(k, std::fma(a.F(o[0]), b.F(o[1]), c.F(o[2])));
    }
  });
  return out;
}

// The orthogonal polynomials of degree n (an integer; af_cpu/special_math.h, shared with the CPU
// runtime's ShiftedChebyshevPolynomialTExtend, ..., LegendrePolynomialPExtend).
double Polynomial(OpCode c, double x, double n) {
  namespace sp = af_cpu::special;
  switch (c) {
    case OpCode::kShiftedChebyshevPolynomialT:
      return sp::ShiftedChebyshev('T', x, n);
    case OpCode::kShiftedChebyshevPolynomialU:
      return sp::ShiftedChebyshev('U', x, n);
    case OpCode::kShiftedChebyshevPolynomialV:
      return sp::ShiftedChebyshev('V', x, n);
    case OpCode::kShiftedChebyshevPolynomialW:
      return sp::ShiftedChebyshev('W', x, n);
    case OpCode::kLaguerrePolynomialL:
      return sp::Laguerre(x, n);
    default:
      return sp::Legendre(x, n);
  }
}

}  // namespace

bool IsMathOp(ir::OpCode code) {
  // The issue-22 block of OpCode, less the markers, containers and reductions in it.
  if (code < OpCode::kAxpy || code > OpCode::kLegendrePolynomialP) return false;
  switch (code) {
    case OpCode::kScalarData:
    case OpCode::kIndexExpr:
    case OpCode::kFlashSoftmax:
    case OpCode::kVectorFunc:
    case OpCode::kArgMax:
    case OpCode::kArgMaxMultiRPhase1:
    case OpCode::kArgMaxMultiRPhase2:
      return false;
    default:
      return true;
  }
}

Value EvalMath(ir::OpCode code, const std::vector<const Value*>& ins, ir::DType out_dtype,
               const std::vector<std::int64_t>& out_shape, double attr) {
  Value out = MakeValue(out_dtype, out_shape);
  std::vector<std::vector<std::int64_t>> st;
  for (std::size_t j = 0; j < ins.size(); ++j)
    st.push_back(BroadcastStrides(ins[j]->shape, out_shape, "input " + std::to_string(j)));
  const std::size_t arity = ir::GetOp(code).inputs.size();
  if (ins.size() != arity) {
    throw EvalError("expects " + std::to_string(arity) + " inputs, has " +
                    std::to_string(ins.size()));
  }
  if (arity == 3) return Ternary(code, ins, std::move(out), st);
  if (arity == 1) {
    const Value& x = *ins[0];
    Each<1>(out_shape, st, [&](std::int64_t k, const auto& o) {
      if (code == OpCode::kLeakyRelu) {
        const double v = x.F(o[0]);
        out.PutDouble(k, v < 0 ? v * attr : v);
      } else if (ir::IsPolynomialOp(code)) {
        out.PutDouble(k, Polynomial(code, x.F(o[0]), attr));
      } else if (code == OpCode::kBitwiseNot) {
        out.PutInt(k, ~x.i[static_cast<std::size_t>(o[0])]);
      } else if ((code == OpCode::kNop || code == OpCode::kUb2ub) && !x.is_float) {
        out.PutInt(k, x.i[static_cast<std::size_t>(o[0])]);
      } else if (const auto p = Predicate(code, x.F(o[0]))) {
        out.PutInt(k, *p ? 1 : 0);
      } else if (const auto v = Unary(code, x.F(o[0]))) {
        out.PutDouble(k, *v);
      } else {
        throw EvalError("not a unary math op");
      }
    });
    return out;
  }
  const Value& a = *ins[0];
  const Value& b = *ins[1];
  Each<2>(out_shape, st, [&](std::int64_t k, const auto& o) {
    if (code == OpCode::kLogicalXor) {
      out.PutInt(k, a.Nonzero(o[0]) != b.Nonzero(o[1]) ? 1 : 0);
    } else if ((code == OpCode::kLShift || code == OpCode::kRShift) && !a.is_float && !b.is_float) {
      // The count reads as a signed number of x1's width (PyTorch's static_cast).
      out.PutInt(k, Shift(code, a.i[static_cast<std::size_t>(o[0])],
                          b.i[static_cast<std::size_t>(o[1])], a.dtype));
    } else if (!a.is_float && !b.is_float) {
      const auto v =
          BinaryInt(code, a.i[static_cast<std::size_t>(o[0])], b.i[static_cast<std::size_t>(o[1])]);
      if (!v) throw EvalError("not an integer math op");
      out.PutInt(k, *v);
    } else if (const auto v = Binary(code, a.F(o[0]), b.F(o[1]), attr)) {
      out.PutDouble(k, *v);
    } else {
      throw EvalError("not a binary math op on floats");
    }
  });
  return out;
}

Value EvalArgMax(const Value& in, const std::vector<bool>& reduced, ir::DType out_dtype,
                 const std::vector<std::int64_t>& out_shape) {
  Value out = MakeValue(out_dtype, out_shape);
  std::vector<std::int64_t> out_st = DenseStrides(out_shape);
  // Position within the reduced dims: C order over them.
  std::vector<std::int64_t> pos_st(in.shape.size(), 0);
  std::int64_t span = 1;
  for (std::size_t k = in.shape.size(); k-- > 0;) {
    if (reduced[k]) {
      out_st[k] = 0;
      pos_st[k] = span;
      span *= in.shape[k];
    }
  }
  const std::vector<std::int64_t> in_st = DenseStrides(in.shape);
  const auto nout = static_cast<std::size_t>(out.numel());
  std::vector<double> best(nout, -HUGE_VAL);
  std::vector<std::int64_t> idx(nout, -1);
  StridedCounter<3> c(in.shape, {&in_st, &out_st, &pos_st}, {});
  for (std::int64_t k = 0; k < in.numel(); ++k) {
    const auto& o = c.offsets();
    const double v = in.F(o[0]);
    const auto j = static_cast<std::size_t>(o[1]);
    const bool take = idx[j] < 0 || (!std::isnan(best[j]) && (std::isnan(v) || v > best[j]));
    if (take) {
      best[j] = v;
      idx[j] = o[2];
    }
    c.Next();
  }
  for (std::size_t j = 0; j < nout; ++j)
    out.PutInt(static_cast<std::int64_t>(j), idx[j]);
  return out;
}

}  // namespace af::interp::detail
