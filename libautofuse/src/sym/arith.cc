// Canonical sums and products: +, -, *, exact division and integer powers.
//
// A sum is a constant plus terms coefficient * monomial with like terms collected; a product is
// a coefficient times factors base ** exponent with equal bases merged (s0 * s0 = Pow(s0, 2),
// s0 * Pow(s0, -1) = 1). Exact division by b multiplies by b ** -1. Constants fold exactly; a
// coefficient that overflows int64 throws Error.
//
// Expansion policy (to keep constructors cheap): a product with exactly one sum factor of
// exponent 1 is always distributed (this never grows the number of terms). Otherwise products
// of sums and powers of sums are expanded only when the result has at most kMaxExpandTerms
// monomials and no sum is raised above kMaxExpandPow; larger ones stay factored, e.g.
// Pow(s0 + s1, 100). So equal polynomials get equal nodes as long as they are small.
#include <algorithm>

#include "node.h"

namespace af::sym {
namespace detail {
namespace {

constexpr std::int64_t kMaxExpandPow = 16;

struct Factor {
  Expr base;
  std::int64_t exp;
};

bool SameFactors(std::span<const Expr> a, std::span<const Expr> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

Expr MakeTerm(Rational coef, std::span<const Expr> factors) {
  if (factors.empty() || coef.num == 0) return MakeConst(coef);
  if (coef == Rational{1, 1} && factors.size() == 1) return factors[0];
  std::vector<Expr> args;
  args.reserve(factors.size() + 1);
  if (coef != Rational{1, 1}) args.push_back(MakeConst(coef));
  args.insert(args.end(), factors.begin(), factors.end());
  return MakeRaw(Kind::kMul, std::move(args));
}

std::int64_t CheckedExp(std::int64_t a, std::int64_t b, bool mul) {
  std::int64_t r = 0;
  bool overflow = mul ? __builtin_mul_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r);
  if (overflow) throw Error("integer overflow in an exponent");
  return r;
}

// Multiplies e ** p into coef / factors.
void Collect(const Expr& e, std::int64_t p, Rational& coef, std::vector<Factor>& fs) {
  switch (e.kind()) {
    case Kind::kConst: {
      if (e.value().num == 0 && p < 0) throw Error("division by zero");
      Rational v = Checked(RPow(e.value(), p),
                           "constant power " + RToString(e.value()) + " ** " + std::to_string(p));
      coef = Checked(RMul(coef, v), "constant product");
      return;
    }
    case Kind::kMul:
      for (const Expr& a : e.args()) {
        Collect(a, p, coef, fs);
      }
      return;
    case Kind::kPow:
      fs.push_back({e.args()[0], CheckedExp(e.args()[1].value().num, p, true)});
      return;
    default:
      fs.push_back({e, p});
      return;
  }
}

Expr MakeMonomial(Rational coef, const std::vector<Factor>& fs) {
  std::vector<Expr> factors;
  factors.reserve(fs.size());
  for (const Factor& f : fs) {
    factors.push_back(f.exp == 1 ? f.base : MakeRaw(Kind::kPow, {f.base, MakeConst(RInt(f.exp))}));
  }
  return MakeTerm(coef, factors);
}

// Number of monomials of (t terms) ** e, capped just above kMaxExpandTerms.
std::uint64_t MonomialCount(std::uint64_t t, std::int64_t e) {
  std::uint64_t c = 1;
  for (std::int64_t i = 1; i <= e; ++i) {
    c = c * (t + static_cast<std::uint64_t>(i) - 1) / static_cast<std::uint64_t>(i);
    if (c > kMaxExpandTerms) return kMaxExpandTerms + 1;
  }
  return c;
}

Expr BuildProduct(Rational coef, std::vector<Factor> fs);

// Whether the product of these sum factors is small enough to expand.
bool Expandable(const std::vector<Factor>& sums) {
  std::uint64_t count = 1;
  for (const Factor& s : sums) {
    if (s.exp > kMaxExpandPow) return false;
    count *= MonomialCount(s.base.args().size(), s.exp);
    if (count > kMaxExpandTerms) return false;
  }
  return true;
}

// (sum or term x) * (sum a), expanded.
Expr MulExpand(const Expr& x, const Expr& a) {
  std::vector<Expr> products;
  for (const Expr& u : TermsOf(x)) {
    for (const Expr& t : TermsOf(a)) {
      Rational coef{1, 1};
      std::vector<Factor> fs;
      Collect(u, 1, coef, fs);
      Collect(t, 1, coef, fs);
      products.push_back(BuildProduct(coef, std::move(fs)));
    }
  }
  return AddN(products);
}

Expr BuildProduct(Rational coef, std::vector<Factor> fs) {
  if (coef.num == 0) return MakeConst(Rational{});
  std::stable_sort(fs.begin(), fs.end(),
                   [](const Factor& a, const Factor& b) { return Compare(a.base, b.base) < 0; });
  std::vector<Factor> merged;
  merged.reserve(fs.size());
  for (const Factor& f : fs) {
    if (!merged.empty() && merged.back().base == f.base) {
      merged.back().exp = CheckedExp(merged.back().exp, f.exp, false);
    } else {
      merged.push_back(f);
    }
  }
  std::erase_if(merged, [](const Factor& f) { return f.exp == 0; });

  std::vector<Factor> rest;
  std::vector<Factor> sums;
  for (const Factor& f : merged) {
    (f.base.kind() == Kind::kAdd && f.exp > 0 ? sums : rest).push_back(f);
  }
  if (sums.empty()) return MakeMonomial(coef, merged);
  auto expand = [&] {
    Expr acc = MakeMonomial(coef, rest);
    for (const Factor& s : sums) {
      for (std::int64_t i = 0; i < s.exp; ++i) {
        acc = MulExpand(acc, s.base);
      }
    }
    return acc;
  };
  if (sums.size() == 1 && sums[0].exp == 1) return expand();  // linear: always distribute
  if (Expandable(sums)) {
    try {
      return expand();
    } catch (const Error&) {
      // an expanded coefficient overflowed: keep the product factored
    }
  }
  // The whole product stays factored, but a power of a sum that would expand on its own is
  // expanded anyway, so that printing the factors and parsing them back gives this same node.
  bool replaced = false;
  std::vector<Factor> next;
  for (const Factor& f : merged) {
    if (f.base.kind() == Kind::kAdd && f.exp >= 2 && Expandable({f})) {
      Expr s = BuildProduct(Rational{1, 1}, {f});
      if (s.kind() == Kind::kAdd) {
        next.push_back({s, 1});
        replaced = true;
        continue;
      }
    }
    next.push_back(f);
  }
  if (replaced) return BuildProduct(coef, std::move(next));
  return MakeMonomial(coef, merged);
}

}  // namespace

TermView SplitTerm(const Expr& t) {
  if (t.kind() == Kind::kConst) return {t.value(), {}};
  if (t.kind() == Kind::kMul) {
    std::span<const Expr> a(t.args());
    if (a[0].IsConst()) return {a[0].value(), a.subspan(1)};
    return {Rational{1, 1}, a};
  }
  return {Rational{1, 1}, std::span<const Expr>(&t, 1)};
}

std::span<const Expr> TermsOf(const Expr& e) {
  if (e.kind() == Kind::kAdd) return e.args();
  return {&e, 1};
}

std::pair<Expr, std::int64_t> SplitFactor(const Expr& f) {
  if (f.kind() == Kind::kPow) return {f.args()[0], f.args()[1].value().num};
  return {f, 1};
}

Expr SumOf(std::span<const Scaled> in) {
  struct T {
    Rational coef;
    std::span<const Expr> factors;
    const Expr* original;  // the input term itself when its coefficient is unchanged
  };
  std::vector<T> terms;
  Rational constant;
  for (const Scaled& s : in) {
    if (s.k.num == 0) continue;
    bool unit = s.k == Rational{1, 1};
    for (const Expr& t : TermsOf(s.e)) {
      TermView v = SplitTerm(t);
      Rational c = unit ? v.coef : Checked(RMul(v.coef, s.k), "a coefficient of a sum");
      if (v.factors.empty()) {
        constant = Checked(RAdd(constant, c), "the constant of a sum");
      } else {
        terms.push_back({c, v.factors, unit ? &t : nullptr});
      }
    }
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const T& a, const T& b) { return CompareFactors(a.factors, b.factors) < 0; });
  std::vector<Expr> out;
  out.reserve(terms.size() + 1);
  if (constant.num != 0) out.push_back(MakeConst(constant));
  for (std::size_t i = 0; i < terms.size();) {
    std::size_t j = i + 1;
    Rational c = terms[i].coef;
    while (j < terms.size() && SameFactors(terms[j].factors, terms[i].factors)) {
      c = Checked(RAdd(c, terms[j].coef), "a coefficient of a sum");
      ++j;
    }
    if (c.num != 0) {
      bool reuse = j == i + 1 && terms[i].original != nullptr;
      out.push_back(reuse ? *terms[i].original : MakeTerm(c, terms[i].factors));
    }
    i = j;
  }
  if (out.empty()) return MakeConst(Rational{});
  if (out.size() == 1) return out[0];
  return MakeRaw(Kind::kAdd, std::move(out));
}

Expr AddN(std::span<const Expr> in) {
  std::vector<Scaled> s;
  s.reserve(in.size());
  for (const Expr& e : in) {
    if (!IsZero(e)) s.push_back({e, Rational{1, 1}});
  }
  if (s.empty()) return MakeConst(Rational{});
  if (s.size() == 1) return s[0].e;
  return SumOf(s);
}

Expr MulN(std::span<const Expr> in) {
  Rational coef{1, 1};
  std::vector<Factor> fs;
  for (const Expr& e : in) {
    if (IsZero(e)) return MakeConst(Rational{});
  }
  for (const Expr& e : in) {
    Collect(e, 1, coef, fs);
  }
  return BuildProduct(coef, std::move(fs));
}

Expr Scale(const Expr& e, Rational k) {
  if (k.num == 0) return MakeConst(Rational{});
  if (k == Rational{1, 1}) return e;
  if (e.IsConst()) return MakeConst(Checked(RMul(e.value(), k), "constant product"));
  if (e.kind() == Kind::kAdd) {
    Scaled s{e, k};
    return SumOf(std::span<const Scaled>(&s, 1));
  }
  TermView v = SplitTerm(e);
  return MakeTerm(Checked(RMul(v.coef, k), "a coefficient"), v.factors);
}

std::optional<std::int64_t> CoefDenLcm(const Expr& e) {
  UInt128 l = 1;
  for (const Expr& t : TermsOf(e)) {
    TermView v = SplitTerm(t);
    for (const Expr& f : v.factors) {
      if (!IsIntegral(f)) return std::nullopt;
    }
    auto d = static_cast<UInt128>(v.coef.den);
    l = l / Gcd(l, d) * d;
    if (l > static_cast<UInt128>(kI64Max)) return std::nullopt;
  }
  return static_cast<std::int64_t>(l);
}

std::optional<std::pair<Expr, Expr>> AsFraction(const Expr& e) {
  if (IsIntegral(e)) return std::pair<Expr, Expr>{e, Expr(1)};
  UInt128 l = 1;
  std::vector<Factor> dens;
  for (const Expr& t : TermsOf(e)) {
    TermView v = SplitTerm(t);
    auto d = static_cast<UInt128>(v.coef.den);
    l = l / Gcd(l, d) * d;
    if (l > static_cast<UInt128>(kI64Max)) return std::nullopt;
    for (const Expr& f : v.factors) {
      auto [base, exp] = SplitFactor(f);
      if (exp > 0) continue;
      if (exp == kI64Min) return std::nullopt;
      auto it = std::find_if(dens.begin(), dens.end(),
                             [&key = base](const Factor& x) { return x.base == key; });
      if (it == dens.end()) {
        dens.push_back({base, -exp});
      } else {
        it->exp = std::max(it->exp, -exp);
      }
    }
  }
  Expr d = BuildProduct(RInt(static_cast<std::int64_t>(l)), dens);
  Expr n = e * d;
  if (!IsIntegral(n) || !IsIntegral(d)) return std::nullopt;
  return std::pair<Expr, Expr>{n, d};
}

}  // namespace detail

using detail::MakeConst;

Expr operator+(const Expr& a, const Expr& b) {
  if (detail::IsZero(a)) return b;
  if (detail::IsZero(b)) return a;
  if (a.IsConst() && b.IsConst()) {
    return MakeConst(detail::Checked(detail::RAdd(a.value(), b.value()), "'+'"));
  }
  const Expr in[2] = {a, b};
  return detail::AddN(in);
}

Expr operator-(const Expr& a, const Expr& b) {
  if (detail::IsZero(b)) return a;
  if (a == b) return {0};
  if (a.IsConst() && b.IsConst()) {
    return MakeConst(detail::Checked(detail::RSub(a.value(), b.value()), "'-'"));
  }
  const detail::Scaled in[2] = {{a, Rational{1, 1}}, {b, Rational{-1, 1}}};
  return detail::SumOf(in);
}

Expr operator-(const Expr& a) {
  return detail::Scale(a, Rational{-1, 1});
}

Expr operator*(const Expr& a, const Expr& b) {
  if (detail::IsOne(a)) return b;
  if (detail::IsOne(b)) return a;
  if (a.IsConst()) return detail::Scale(b, a.value());
  if (b.IsConst()) return detail::Scale(a, b.value());
  const Expr in[2] = {a, b};
  return detail::MulN(in);
}

Expr Div(const Expr& a, const Expr& b) {
  if (detail::IsZero(b)) throw Error("division by zero in Div(" + detail::Brief(a) + ", 0)");
  if (b.IsConst()) {
    return detail::Scale(a, detail::Checked(detail::RDiv(Rational{1, 1}, b.value()), "Div"));
  }
  Rational coef{1, 1};
  std::vector<detail::Factor> fs;
  detail::Collect(a, 1, coef, fs);
  detail::Collect(b, -1, coef, fs);
  return detail::BuildProduct(coef, std::move(fs));
}

Expr Pow(const Expr& base, std::int64_t exponent) {
  if (exponent == 0) return {1};
  if (exponent == 1) return base;
  if (detail::IsZero(base) && exponent < 0)
    throw Error("division by zero in Pow(0, " + std::to_string(exponent) + ")");
  Rational coef{1, 1};
  std::vector<detail::Factor> fs;
  detail::Collect(base, exponent, coef, fs);
  return detail::BuildProduct(coef, std::move(fs));
}

}  // namespace af::sym
