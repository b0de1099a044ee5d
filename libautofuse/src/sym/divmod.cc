// Canonical FloorDiv, CeilDiv, Mod and Align (Python / sympy semantics: floor(a / b),
// ceil(a / b), a - b * floor(a / b), ceil(a / b) * b).
//
// Rules, for a constant divisor k (made a positive integer first: a negative k flips the sign
// of a, a rational k or rational coefficients in a are cleared by scaling both sides):
//   FloorDiv/CeilDiv(a, 1) = a for integral a; common factors of k and all coefficients cancel;
//   terms whose coefficient is a multiple of k move out: FloorDiv(k*q + r, k) = q + FloorDiv(r, k)
//   (so FloorDiv(a*k, k) = CeilDiv(a*k, k) = a); FloorDiv(FloorDiv(x, m), k) = FloorDiv(x, m*k).
//   Mod(a, k): coefficients reduce modulo k (Mod(a*k, k) = 0, Mod(x + 5, 4) = Mod(x + 1, 4)),
//   Mod(g*x, g*m) = g*Mod(x, m), Mod(Mod(x, m), k) = Mod(x, k) when k | m.
//   Align(a, 1) = a; Align(k*q + r, k) = k*q + Align(r, k); Align(g*x, g*m) = g*Align(x, m);
//   nested Aligns with dividing steps collapse.
// For a symbolic divisor b: a structurally visible exact quotient q = a / b gives
// FloorDiv = CeilDiv = q, Mod = 0, Align = a; a repeated Mod / Align by the same b collapses.
// Any result whose cached interval is a single point becomes that constant (e.g.
// Mod(x, k) = x when 0 <= x < k is known). Division by a constant 0 throws Error.
//
// Soundness: every rule preserves the value wherever the original is defined; a few (like
// x / x = 1 underlying exact quotients) may make an undefined expression defined.
#include <algorithm>

#include "node.h"

namespace af::sym {
namespace detail {
namespace {

const char* OpName(Kind k) {
  switch (k) {
    case Kind::kFloorDiv:
      return "FloorDiv";
    case Kind::kCeilDiv:
      return "CeilDiv";
    case Kind::kMod:
      return "Mod";
    case Kind::kAlign:
      return "Align";
    default:
      return "?";
  }
}

[[noreturn]] void ThrowDivZero(Kind k, const Expr& a) {
  throw Error(std::string("division by zero in ") + OpName(k) + "(" + Brief(a) + ", 0)");
}

// Interns kind(a, b); a result whose interval is one point becomes that constant.
Expr Finish(Kind kind, const Expr& a, const Expr& b) {
  Expr e = MakeRaw(kind, {a, b});
  const Interval& r = RangeOf(e);
  if (r.lo && r.hi && *r.lo == *r.hi && IsIntegral(e)) return MakeConst(*r.lo);
  return e;
}

std::int64_t GcdCoefs(const Expr& a, std::int64_t k) {
  auto g = static_cast<UInt128>(k);
  for (const Expr& t : TermsOf(a)) {
    g = Gcd(g, AbsU(SplitTerm(t).coef.num));
    if (g == 1) break;
  }
  return static_cast<std::int64_t>(g);
}

Rational Inv(std::int64_t k) {
  return Rational{1, k};
}  // k >= 1

std::int64_t MulK(std::int64_t a, std::int64_t b, Kind kind) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) {
    throw Error(std::string("integer overflow in the divisor of ") + OpName(kind));
  }
  return r;
}

// Splits a (integral, integer coefficients) into q * k + r where q collects the terms whose
// coefficient is a multiple of k. Returns false when nothing moves.
bool SplitMultiples(const Expr& a, std::int64_t k, Expr& q, Expr& r) {
  std::vector<Scaled> qs;
  std::vector<Scaled> rs;
  for (const Expr& t : TermsOf(a)) {
    if (SplitTerm(t).coef.num % k == 0) {
      qs.push_back({t, Inv(k)});
    } else {
      rs.push_back({t, Rational{1, 1}});
    }
  }
  if (qs.empty()) return false;
  q = SumOf(qs);
  r = SumOf(rs);
  return true;
}

bool IsPositiveIntConst(const Expr& e) {
  auto v = e.AsInt();
  return v && *v > 0;
}

bool IsPositiveIntegral(const Expr& e) {
  auto lo = DivisorLo(e);
  return IsIntegral(e) && lo && RCmp(*lo, Rational{1, 1}) >= 0;
}

Expr DivImpl(Kind kind, const Expr& a, const Expr& b);

// FloorDiv / CeilDiv of an integral a by an integer k >= 1.
Expr DivByInt(Kind kind, Expr a, std::int64_t k) {
  bool ceil = kind == Kind::kCeilDiv;
  if (k == 1) return a;
  std::int64_t g = GcdCoefs(a, k);
  if (g > 1) {
    a = Scale(a, Inv(g));
    k /= g;
    if (k == 1) return a;
  }
  Expr q(0);
  Expr r = a;
  SplitMultiples(a, k, q, r);
  auto qdiv = [ceil, k](Rational v) -> std::optional<Rational> {
    auto d = RDiv(v, RInt(k));
    if (!d) return std::nullopt;
    return ceil ? RCeil(*d) : RFloor(*d);
  };
  if (r.IsConst()) return q + MakeConst(Checked(qdiv(r.value()), OpName(kind)));
  const Interval& range = RangeOf(r);
  if (range.lo && range.hi) {
    auto lo = qdiv(*range.lo);
    auto hi = qdiv(*range.hi);
    if (lo && hi && *lo == *hi) return q + MakeConst(*lo);
  }
  if (r.kind() == kind && IsPositiveIntConst(r.args()[1])) {
    std::int64_t m = *r.args()[1].AsInt();
    std::int64_t mk = 0;
    if (!__builtin_mul_overflow(m, k, &mk)) return q + DivImpl(kind, r.args()[0], Expr(mk));
  }
  return q + Finish(kind, r, Expr(k));
}

Expr DivImpl(Kind kind, const Expr& a, const Expr& b) {
  bool ceil = kind == Kind::kCeilDiv;
  if (IsZero(b)) ThrowDivZero(kind, a);
  if (b.IsConst()) {
    Rational k = b.value();
    if (a.IsConst()) {
      Rational q = Checked(RDiv(a.value(), k), OpName(kind));
      return MakeConst(ceil ? RCeil(q) : RFloor(q));
    }
    if (RSign(k) < 0) return DivImpl(kind, -a, MakeConst(Checked(RNeg(k), OpName(kind))));
    if (k.den != 1) return DivImpl(kind, Scale(a, RInt(k.den)), Expr(k.num));
    if (!IsIntegral(a)) {
      auto l = CoefDenLcm(a);
      if (l && *l > 1) return DivImpl(kind, Scale(a, RInt(*l)), Expr(MulK(k.num, *l, kind)));
      return Finish(kind, a, b);
    }
    return DivByInt(kind, a, k.num);
  }
  if (IsZero(a)) return a;
  if (auto q = ExactQuotient(a, b)) return *q;
  // floor(floor(x / m) / b) == floor(x / (m * b)) for positive integers m, b (same for ceil).
  if (a.kind() == kind && IsPositiveIntegral(a.args()[1]) && IsPositiveIntegral(b)) {
    return DivImpl(kind, a.args()[0], a.args()[1] * b);
  }
  return Finish(kind, a, b);
}

Expr ModImpl(const Expr& a, const Expr& b) {
  constexpr Kind kKind = Kind::kMod;
  if (IsZero(b)) ThrowDivZero(kKind, a);
  if (!b.IsConst()) {
    if (IsZero(a)) return a;
    if (ExactQuotient(a, b)) return {0};
    if (a.kind() == kKind && a.args()[1] == b) return a;
    const Interval& ra = RangeOf(a);
    auto blo = DivisorLo(b);
    if (IsIntegral(a) && IsIntegral(b) && KnownNonNeg(a) && ra.hi && blo &&
        RCmp(*ra.hi, *blo) < 0) {
      return a;
    }
    return Finish(kKind, a, b);
  }
  Rational k = b.value();
  if (a.IsConst() && a.value().IsInteger() && k.IsInteger()) {
    std::int64_t x = a.value().num;
    std::int64_t r = k.num == -1 ? 0 : x % k.num;
    if (r != 0 && ((r < 0) != (k.num < 0))) r += k.num;
    return {r};
  }
  if (a.IsConst()) {
    Rational q = RFloor(Checked(RDiv(a.value(), k), "Mod"));
    return MakeConst(Checked(RSub(a.value(), Checked(RMul(k, q), "Mod")), "Mod"));
  }
  if (RSign(k) < 0) return -ModImpl(-a, MakeConst(Checked(RNeg(k), "Mod")));
  if (k.den != 1 || !IsIntegral(a)) {
    auto l = CoefDenLcm(a);
    if (!l) return Finish(kKind, a, b);
    UInt128 big = static_cast<UInt128>(*l) /
                  Gcd(static_cast<UInt128>(*l), static_cast<UInt128>(k.den)) *
                  static_cast<UInt128>(k.den);
    if (big > static_cast<UInt128>(kI64Max)) throw Error("integer overflow in Mod");
    auto lcm = static_cast<std::int64_t>(big);
    Rational scaled_k = Checked(RMul(k, RInt(lcm)), "Mod");
    return Scale(ModImpl(Scale(a, RInt(lcm)), MakeConst(scaled_k)), Inv(lcm));
  }
  std::int64_t m = k.num;
  if (m == 1) return {0};
  // Reduce every coefficient into [0, m).
  std::vector<Scaled> terms;
  bool changed = false;
  for (const Expr& t : TermsOf(a)) {
    std::int64_t c = SplitTerm(t).coef.num;
    std::int64_t red = c % m;
    if (red < 0) red += m;
    if (red == 0) {
      changed = true;
      continue;
    }
    if (red != c) changed = true;
    terms.push_back({t, red == c ? Rational{1, 1} : *MakeRat(red, c)});
  }
  Expr r = changed ? SumOf(terms) : a;
  if (r.IsConst()) return r;
  std::int64_t g = GcdCoefs(r, m);
  if (g > 1) return Scale(ModImpl(Scale(r, Inv(g)), Expr(m / g)), RInt(g));
  if (r.kind() == kKind && IsPositiveIntConst(r.args()[1]) && *r.args()[1].AsInt() % m == 0) {
    return ModImpl(r.args()[0], b);
  }
  const Interval& range = RangeOf(r);
  if (KnownNonNeg(r) && range.hi && RCmp(*range.hi, RInt(m)) < 0) return r;
  return Finish(kKind, r, b);
}

Expr AlignImpl(const Expr& a, const Expr& b) {
  constexpr Kind kKind = Kind::kAlign;
  if (IsZero(b)) ThrowDivZero(kKind, a);
  if (!b.IsConst()) {
    if (IsZero(a)) return a;
    if (ExactQuotient(a, b)) return a;
    if (a.kind() == kKind && a.args()[1] == b) return a;
    return Finish(kKind, a, b);
  }
  Rational k = b.value();
  if (a.IsConst()) {
    Rational q = RCeil(Checked(RDiv(a.value(), k), "Align"));
    return MakeConst(Checked(RMul(q, k), "Align"));
  }
  if (k == Rational{1, 1} && IsIntegral(a)) return a;
  if (RSign(k) < 0 || k.den != 1 || !IsIntegral(a)) return Finish(kKind, a, b);
  std::int64_t m = k.num;
  std::int64_t g = GcdCoefs(a, m);
  if (g > 1) return Scale(AlignImpl(Scale(a, Inv(g)), Expr(m / g)), RInt(g));
  Expr q(0);
  Expr r = a;
  if (SplitMultiples(a, m, q, r)) q = Scale(q, RInt(m));
  if (IsZero(r)) return a;
  auto up = [m](Rational v) -> std::optional<Rational> {
    auto d = RDiv(v, RInt(m));
    if (!d) return std::nullopt;
    return RMul(RCeil(*d), RInt(m));
  };
  if (r.IsConst()) return q + MakeConst(Checked(up(r.value()), "Align"));
  const Interval& range = RangeOf(r);
  if (range.lo && range.hi) {
    auto lo = up(*range.lo);
    auto hi = up(*range.hi);
    if (lo && hi && *lo == *hi) return q + MakeConst(*lo);
  }
  if (r.kind() == kKind && IsPositiveIntConst(r.args()[1])) {
    std::int64_t inner = *r.args()[1].AsInt();
    if (inner % m == 0) return q + r;
    if (m % inner == 0) return q + AlignImpl(r.args()[0], b);
  }
  return q + Finish(kKind, r, b);
}

// Monomial factors as (base, exponent), sorted by base.
std::vector<std::pair<Expr, std::int64_t>> FactorsOf(std::span<const Expr> fs) {
  std::vector<std::pair<Expr, std::int64_t>> out;
  out.reserve(fs.size());
  for (const Expr& f : fs) {
    out.push_back(SplitFactor(f));
  }
  return out;
}

}  // namespace

std::optional<Expr> ExactQuotient(const Expr& a, const Expr& b) {
  if (a == b) return Expr(1);
  if (IsZero(b)) return std::nullopt;
  if (b.IsConst()) {
    Expr q = Scale(a, Checked(RDiv(Rational{1, 1}, b.value()), "a quotient"));
    if (IsIntegral(q)) return q;
    return std::nullopt;
  }
  // The divisor as coefficient * base ** exponent...; a sum is one opaque base.
  Rational bcoef{1, 1};
  std::vector<std::pair<Expr, std::int64_t>> bf;
  if (b.kind() == Kind::kAdd) {
    if (a.kind() == Kind::kAdd && a.args().size() == b.args().size()) {
      // Proportional sums: a == r * b for a constant r.
      std::optional<Rational> ratio;
      bool ok = true;
      for (std::size_t i = 0; ok && i < a.args().size(); ++i) {
        TermView ta = SplitTerm(a.args()[i]);
        TermView tb = SplitTerm(b.args()[i]);
        if (ta.factors.size() != tb.factors.size() ||
            !std::equal(ta.factors.begin(), ta.factors.end(), tb.factors.begin())) {
          ok = false;
          break;
        }
        auto r = RDiv(ta.coef, tb.coef);
        if (!r || (ratio && *ratio != *r)) ok = false;
        ratio = r;
      }
      if (ok && ratio && ratio->IsInteger()) return MakeConst(*ratio);
    }
    bf.emplace_back(b, 1);
  } else {
    TermView tb = SplitTerm(b);
    bcoef = tb.coef;
    bf = FactorsOf(tb.factors);
  }
  for (const auto& f : bf) {
    if (f.second <= 0) return std::nullopt;
  }
  // First check every term (building nothing), then build the quotient.
  struct QuotientTerm {
    Rational coef;
    std::vector<std::pair<Expr, std::int64_t>> factors;
  };
  std::vector<QuotientTerm> terms;
  for (const Expr& t : TermsOf(a)) {
    TermView ta = SplitTerm(t);
    auto af = FactorsOf(ta.factors);
    for (const auto& [base, exp] : bf) {
      auto it = std::find_if(af.begin(), af.end(),
                             [&key = base](const auto& x) { return x.first == key; });
      if (it == af.end() || it->second < exp) return std::nullopt;
      it->second -= exp;
    }
    auto c = RDiv(ta.coef, bcoef);
    if (!c || !c->IsInteger()) return std::nullopt;  // quotient terms cannot combine
    terms.push_back({*c, std::move(af)});
  }
  std::vector<Expr> quotient_terms;
  for (const QuotientTerm& qt : terms) {
    std::vector<Expr> factors{MakeConst(qt.coef)};
    for (const auto& [base, exp] : qt.factors) {
      if (exp != 0) factors.push_back(Pow(base, exp));
    }
    quotient_terms.push_back(MulN(factors));
  }
  Expr q = AddN(quotient_terms);
  if (!IsIntegral(q)) return std::nullopt;
  return q;
}

}  // namespace detail

Expr FloorDiv(const Expr& a, const Expr& b) {
  return detail::DivImpl(Kind::kFloorDiv, a, b);
}
Expr CeilDiv(const Expr& a, const Expr& b) {
  return detail::DivImpl(Kind::kCeilDiv, a, b);
}
Expr Mod(const Expr& a, const Expr& b) {
  return detail::ModImpl(a, b);
}
Expr Align(const Expr& a, const Expr& b) {
  return detail::AlignImpl(a, b);
}

}  // namespace af::sym
