// Three-valued comparison provers for expressions over integer symbols >= 0.
//
// a <= b is kTrue when d = b - a >= 0 can be shown, kFalse when a - b - 1 >= 0 can be shown
// (a > b everywhere), else kUnknown. "d >= 0" is shown by:
//  1. the cached interval of d (this covers constant differences and sums whose terms have
//     non-negative coefficients on monomials of non-negative atoms), or
//  2. relaxing one atom of d and recursing: in a term c * M * f, with M >= 0, f is replaced by a
//     lower bound of f when c > 0 or an upper bound when c < 0, e.g. FloorDiv(u, k) <= u / k,
//     FloorDiv(u, k) >= (u - k + 1) / k, CeilDiv likewise, Mod(u, b) <= b - 1, Mod(u, b) <= u,
//     Mod(u, b) = u - b * FloorDiv(u, b), Align(u, k) in [u, u + k - 1], Min(args) <= any arg,
//     Max(args) >= any arg; Min from below / Max from above need every argument to work.
// When the difference is integral, a relaxed difference > -1 already suffices.
// A work budget bounds the search, so every call is cheap and terminates; running out of budget
// only ever yields kUnknown. Every step is a valid inequality wherever the expressions are
// defined, so kTrue / kFalse are never wrong.
#include "node.h"

namespace af::sym {
namespace detail {
namespace {

constexpr int kBudget = 200;
constexpr int kMaxDepth = 6;

struct Candidates {
  bool all = false;  // every candidate must succeed (else: any one suffices)
  std::vector<Expr> exprs;
};

bool PositiveConst(const Expr& e) {
  return e.IsConst() && RSign(e.value()) > 0;
}

bool AtLeastOne(const Expr& e) {
  auto lo = DivisorLo(e);
  return IsIntegral(e) && lo && RCmp(*lo, Rational{1, 1}) >= 0;
}

// Bounds of the atom f from below (need_lower) or above.
Candidates Relax(const Expr& f, bool need_lower) {
  Candidates c;
  const std::vector<Expr>& args = f.args();
  switch (f.kind()) {
    case Kind::kFloorDiv: {
      const Expr& u = args[0];
      const Expr& v = args[1];
      if (PositiveConst(v)) {
        if (need_lower) {
          c.exprs.push_back(IsIntegral(u) && IsIntegral(v) ? Div(u - v + Expr(1), v)
                                                           : Div(u, v) - Expr(1));
        } else {
          c.exprs.push_back(Div(u, v));
        }
      } else if (AtLeastOne(v) && KnownNonNeg(u)) {
        if (need_lower) {
          c.exprs.push_back(Div(u, v) - Expr(1));
        } else {
          c.exprs.push_back(u);
          c.exprs.push_back(Div(u, v));
        }
      }
      break;
    }
    case Kind::kCeilDiv: {
      const Expr& u = args[0];
      const Expr& v = args[1];
      if (PositiveConst(v)) {
        if (need_lower) {
          c.exprs.push_back(Div(u, v));
        } else {
          c.exprs.push_back(IsIntegral(u) && IsIntegral(v) ? Div(u + v - Expr(1), v)
                                                           : Div(u, v) + Expr(1));
          if (IsIntegral(u) && KnownNonNeg(u) && RCmp(v.value(), Rational{1, 1}) >= 0) {
            c.exprs.push_back(u);  // ceil(u / k) <= u for integers u >= 0, k >= 1
          }
        }
      } else if (AtLeastOne(v) && KnownNonNeg(u)) {
        if (need_lower) {
          c.exprs.push_back(Div(u, v));
        } else {
          if (IsIntegral(u)) c.exprs.push_back(u);
          c.exprs.push_back(Div(u, v) + Expr(1));
        }
      }
      break;
    }
    case Kind::kMod: {
      const Expr& u = args[0];
      const Expr& v = args[1];
      bool positive = PositiveConst(v) || AtLeastOne(v);
      if (!need_lower && positive) {
        if (KnownNonNeg(u)) c.exprs.push_back(u);
        if (IsIntegral(u) && IsIntegral(v)) c.exprs.push_back(v - Expr(1));
      }
      c.exprs.push_back(u - v * FloorDiv(u, v));  // exact
      break;
    }
    case Kind::kAlign: {
      const Expr& u = args[0];
      const Expr& v = args[1];
      bool integral = IsIntegral(u) && IsIntegral(v);
      if (PositiveConst(v) || (AtLeastOne(v) && KnownNonNeg(u))) {
        if (need_lower) {
          c.exprs.push_back(u);
        } else {
          c.exprs.push_back(integral ? u + v - Expr(1) : u + v);
        }
      }
      if (PositiveConst(v)) c.exprs.push_back(v * CeilDiv(u, v));  // exact
      break;
    }
    case Kind::kMin:
      c.all = need_lower;
      c.exprs = args;
      break;
    case Kind::kMax:
      c.all = !need_lower;
      c.exprs = args;
      break;
    default:
      break;
  }
  return c;
}

class Prover {
 public:
  // `integral`: the root difference only takes integer values, so any relaxation d' <= d with
  // d' > -1 everywhere already shows d >= 0.
  explicit Prover(bool integral) : integral_(integral) {}

  // Whether d >= 0 wherever it is defined (false: not shown).
  bool NonNeg(const Expr& d, int depth) {
    if (budget_-- <= 0) return false;
    if (KnownNonNeg(d)) return true;
    const auto& lo = RangeOf(d).lo;
    if (integral_ && lo && RCmp(*lo, Rational{-1, 1}) > 0) return true;
    if (depth >= kMaxDepth) return false;
    for (const Expr& t : TermsOf(d)) {
      TermView v = SplitTerm(t);
      for (std::size_t j = 0; j < v.factors.size(); ++j) {
        if (TryRelax(d, t, v, j, depth)) return true;
        if (budget_ <= 0) return false;
      }
    }
    return false;
  }

 private:
  bool TryRelax(const Expr& d, const Expr& t, const TermView& v, std::size_t j, int depth) {
    const Expr& f = v.factors[j];
    switch (f.kind()) {
      case Kind::kFloorDiv:
      case Kind::kCeilDiv:
      case Kind::kMod:
      case Kind::kAlign:
      case Kind::kMin:
      case Kind::kMax:
        break;
      default:
        return false;
    }
    std::vector<Expr> others;
    for (std::size_t k = 0; k < v.factors.size(); ++k) {
      if (k == j) continue;
      if (!KnownNonNeg(v.factors[k])) return false;
      others.push_back(v.factors[k]);
    }
    try {
      Candidates c = Relax(f, RSign(v.coef) > 0);
      if (c.exprs.empty()) return false;
      Expr scale = Scale(MulN(others), v.coef);
      Expr rest = d - t;
      for (const Expr& r : c.exprs) {
        bool ok = NonNeg(rest + scale * r, depth + 1);
        if (c.all && !ok) return false;
        if (!c.all && ok) return true;
      }
      return c.all;
    } catch (const Error&) {
      return false;  // a relaxation overflowed: not shown
    }
  }

  bool integral_;
  int budget_ = kBudget;
};

bool ShowNonNeg(const Expr& d) {
  return Prover(IsIntegral(d)).NonNeg(d, 0);
}

}  // namespace
}  // namespace detail

Tri ProveLe(const Expr& a, const Expr& b) {
  if (a == b) return Tri::kTrue;
  try {
    if (detail::ShowNonNeg(b - a)) return Tri::kTrue;
    if (detail::ShowNonNeg(a - b - Expr(1))) return Tri::kFalse;
  } catch (const Error&) {
    // the difference overflowed: unknown
  }
  return Tri::kUnknown;
}

Tri ProveGe(const Expr& a, const Expr& b) {
  return ProveLe(b, a);
}

Tri ProveEq(const Expr& a, const Expr& b) {
  if (a == b) return Tri::kTrue;
  try {
    Expr d = a - b;
    if (d.IsConst()) return d.value().num == 0 ? Tri::kTrue : Tri::kFalse;
  } catch (const Error&) {
    return Tri::kUnknown;
  }
  Tri le = ProveLe(a, b);
  Tri ge = ProveLe(b, a);
  if (le == Tri::kFalse || ge == Tri::kFalse) return Tri::kFalse;
  if (le == Tri::kTrue && ge == Tri::kTrue) return Tri::kTrue;
  return Tri::kUnknown;
}

}  // namespace af::sym
