// Facts cached on every node when it is interned: integrality and an enclosing interval.
//
// Intervals are computed bottom-up from the children's cached intervals in O(args); they are
// sound but not tight (correlations between terms are ignored). Symbols range over [0, inf).
// Values are only described where the expression is defined: an integral divisor b >= 0 is
// treated as b >= 1, since b == 0 makes the expression undefined. Any overflow widens the
// affected end to infinity. Nothing here may intern nodes (this runs under the table lock).
#include <algorithm>

#include "node.h"

namespace af::sym::detail {
namespace {

using ORat = std::optional<Rational>;

// An interval end: inf is -1 (minus infinity), +1 (plus infinity) or 0 (the finite value v).
struct End {
  int inf = 0;
  Rational v;
};

End LoEnd(const Interval& i) {
  return i.lo ? End{0, *i.lo} : End{-1, {}};
}
End HiEnd(const Interval& i) {
  return i.hi ? End{0, *i.hi} : End{1, {}};
}
int SignOf(const End& e) {
  return e.inf != 0 ? e.inf : RSign(e.v);
}

int CmpEnd(const End& a, const End& b) {
  if (a.inf != 0 || b.inf != 0) return a.inf < b.inf ? -1 : (a.inf > b.inf ? 1 : 0);
  return RCmp(a.v, b.v);
}

std::optional<End> MulEnd(const End& a, const End& b) {
  if ((a.inf == 0 && a.v.num == 0) || (b.inf == 0 && b.v.num == 0)) return End{0, Rational{}};
  if (a.inf != 0 || b.inf != 0) return End{SignOf(a) * SignOf(b), {}};
  auto r = RMul(a.v, b.v);
  if (!r) return std::nullopt;
  return End{0, *r};
}

bool NonNeg(const ORat& v) {
  return v && RSign(*v) >= 0;
}
bool Ge(const ORat& v, Rational x) {
  return v && RCmp(*v, x) >= 0;
}
bool Lt(const ORat& v, Rational x) {
  return v && RCmp(*v, x) < 0;
}

Interval AddI(const Interval& x, const Interval& y) {
  Interval r;
  if (x.lo && y.lo) r.lo = RAdd(*x.lo, *y.lo);
  if (x.hi && y.hi) r.hi = RAdd(*x.hi, *y.hi);
  return r;
}

Interval MulI(const Interval& x, const Interval& y) {
  const End xs[2] = {LoEnd(x), HiEnd(x)};
  const End ys[2] = {LoEnd(y), HiEnd(y)};
  std::optional<End> lo;
  std::optional<End> hi;
  for (const End& a : xs) {
    for (const End& b : ys) {
      auto p = MulEnd(a, b);
      if (!p) return Interval{};  // overflow: know nothing
      if (!lo || CmpEnd(*p, *lo) < 0) lo = *p;
      if (!hi || CmpEnd(*p, *hi) > 0) hi = *p;
    }
  }
  Interval r;
  if (lo->inf == 0) r.lo = lo->v;
  if (hi->inf == 0) r.hi = hi->v;
  return r;
}

ORat Apply(const ORat& a, const ORat& b, std::optional<Rational> (*op)(Rational, Rational)) {
  if (!a || !b) return std::nullopt;
  return op(*a, *b);
}

ORat Round(const ORat& v, bool ceil) {
  if (!v) return std::nullopt;
  return ceil ? RCeil(*v) : RFloor(*v);
}

Interval PowRange(const Node& n) {
  const Interval& b = RangeOf(n.args[0]);
  std::int64_t e = n.args[1].value().num;
  Interval r;
  if (e > 0) {
    if (NonNeg(b.lo)) {
      auto lo = RPow(*b.lo, e);
      r.lo = lo ? *lo : Rational{};
      if (b.hi) r.hi = RPow(*b.hi, e);
    } else if (e % 2 == 0) {
      r.lo = Rational{};
      if (b.hi && RSign(*b.hi) < 0) {
        auto lo = RPow(*b.hi, e);
        if (lo) r.lo = *lo;
      }
      if (b.lo && b.hi) {
        auto p = RPow(*b.lo, e);
        auto q = RPow(*b.hi, e);
        if (p && q) r.hi = RCmp(*p, *q) >= 0 ? *p : *q;
      }
    } else {
      if (b.lo) r.lo = RPow(*b.lo, e);
      if (b.hi) r.hi = RPow(*b.hi, e);
    }
    return r;
  }
  if (e == kI64Min) return r;
  ORat lo = DivisorLo(n.args[0]);
  if (!lo || RSign(*lo) <= 0) return r;
  // base in [lo, hi] with lo > 0: base ** e in [1 / hi**-e, 1 / lo**-e].
  r.lo = Rational{};
  if (b.hi) {
    auto p = RPow(*b.hi, -e);
    if (p) r.lo = RDiv(Rational{1, 1}, *p);
    if (!r.lo) r.lo = Rational{};
  }
  auto q = RPow(*lo, -e);
  if (q) r.hi = RDiv(Rational{1, 1}, *q);
  if (!r.hi && Ge(lo, Rational{1, 1})) r.hi = Rational{1, 1};
  return r;
}

// floor(a / b) or ceil(a / b).
Interval DivRange(const Node& n, bool ceil) {
  const Interval& a = RangeOf(n.args[0]);
  const Interval& b = RangeOf(n.args[1]);
  Interval r;
  if (b.lo && b.hi && *b.lo == *b.hi && b.lo->num != 0) {
    ORat k = *b.lo;
    ORat x = Round(Apply(a.lo, k, RDiv), ceil);
    ORat y = Round(Apply(a.hi, k, RDiv), ceil);
    if (RSign(*k) > 0) {
      r.lo = x;
      r.hi = y;
    } else {
      r.lo = y;
      r.hi = x;
    }
    return r;
  }
  ORat blo = DivisorLo(n.args[1]);
  if (Ge(blo, Rational{1, 1}) && NonNeg(a.lo)) {
    if (b.hi) {
      r.lo = Round(Apply(a.lo, b.hi, RDiv), ceil);
    } else {
      r.lo = Rational{ceil && RSign(*a.lo) > 0 ? 1 : 0, 1};
    }
    r.hi = Round(Apply(a.hi, blo, RDiv), ceil);
  }
  return r;
}

Interval ModRange(const Node& n) {
  const Interval& a = RangeOf(n.args[0]);
  const Interval& b = RangeOf(n.args[1]);
  bool ints = n.args[0].node()->integral && n.args[1].node()->integral;
  Interval r;
  if (b.lo && b.hi && *b.lo == *b.hi && b.lo->num != 0) {
    Rational k = *b.lo;
    if (RSign(k) > 0) {
      if (NonNeg(a.lo) && Lt(a.hi, k)) return a;
      r.lo = Rational{};
      r.hi = ints ? RSub(k, Rational{1, 1}) : ORat(k);
      if (NonNeg(a.lo) && a.hi && r.hi && RCmp(*a.hi, *r.hi) < 0) r.hi = a.hi;
    } else {
      r.lo = ints ? RAdd(k, Rational{1, 1}) : ORat(k);
      r.hi = Rational{};
    }
    return r;
  }
  ORat blo = DivisorLo(n.args[1]);
  if (Ge(blo, Rational{1, 1}) && ints) {
    if (NonNeg(a.lo) && a.hi && RCmp(*a.hi, *blo) < 0) return a;
    r.lo = Rational{};
    if (b.hi) r.hi = RSub(*b.hi, Rational{1, 1});
    if (NonNeg(a.lo) && a.hi && (!r.hi || RCmp(*a.hi, *r.hi) < 0)) r.hi = a.hi;
  }
  return r;
}

Interval AlignRange(const Node& n) {
  const Interval& a = RangeOf(n.args[0]);
  const Interval& b = RangeOf(n.args[1]);
  Interval r;
  if (b.lo && b.hi && *b.lo == *b.hi && RSign(*b.lo) > 0) {
    ORat k = *b.lo;
    r.lo = Apply(Round(Apply(a.lo, k, RDiv), true), k, RMul);
    r.hi = Apply(Round(Apply(a.hi, k, RDiv), true), k, RMul);
    return r;
  }
  ORat blo = DivisorLo(n.args[1]);
  if (Ge(blo, Rational{1, 1}) && n.args[1].node()->integral && NonNeg(a.lo)) {
    r.lo = a.lo;
    ORat sum = Apply(a.hi, b.hi, RAdd);
    if (sum && n.args[0].node()->integral) sum = RSub(*sum, Rational{1, 1});
    r.hi = sum;
  }
  return r;
}

Interval MinMaxRange(const Node& n, bool is_max) {
  Interval r = RangeOf(n.args[0]);
  for (std::size_t i = 1; i < n.args.size(); ++i) {
    const Interval& x = RangeOf(n.args[i]);
    // The "unbounded" side propagates for min of lo (Min) / max of hi (Max); the other side
    // takes the tighter finite end.
    auto pick = [](const ORat& p, const ORat& q, bool want_max, bool missing_wins) -> ORat {
      if (!p || !q) return missing_wins ? ORat{} : (p ? p : q);
      return (RCmp(*p, *q) >= 0) == want_max ? p : q;
    };
    if (is_max) {
      r.lo = pick(r.lo, x.lo, true, false);
      r.hi = pick(r.hi, x.hi, true, true);
    } else {
      r.lo = pick(r.lo, x.lo, false, true);
      r.hi = pick(r.hi, x.hi, false, false);
    }
  }
  return r;
}

}  // namespace

std::optional<Rational> DivisorLo(const Expr& b) {
  const Interval& r = RangeOf(b);
  if (b.node()->integral && NonNeg(r.lo) && RSign(*r.lo) == 0) return Rational{1, 1};
  return r.lo;
}

bool KnownNonNeg(const Expr& e) {
  return NonNeg(RangeOf(e).lo);
}

bool ComputeIntegral(const Node& n) {
  auto all = [&n] {
    return std::all_of(n.args.begin(), n.args.end(),
                       [](const Expr& a) { return a.node()->integral; });
  };
  switch (n.kind) {
    case Kind::kConst:
      return n.value.den == 1;
    case Kind::kSymbol:
    case Kind::kFloorDiv:
    case Kind::kCeilDiv:
      return true;
    case Kind::kAdd:
    case Kind::kMul:
    case Kind::kMod:
    case Kind::kMin:
    case Kind::kMax:
      return all();
    case Kind::kPow:
      return n.args[0].node()->integral && n.args[1].value().num >= 0;
    case Kind::kAlign:
      return n.args[1].node()->integral;
  }
  return false;
}

Interval ComputeRange(const Node& n) {
  switch (n.kind) {
    case Kind::kConst:
      return Interval{n.value, n.value};
    case Kind::kSymbol:
      return Interval{Rational{}, std::nullopt};
    case Kind::kAdd: {
      Interval r = RangeOf(n.args[0]);
      for (std::size_t i = 1; i < n.args.size(); ++i) {
        r = AddI(r, RangeOf(n.args[i]));
      }
      return r;
    }
    case Kind::kMul: {
      Interval r = RangeOf(n.args[0]);
      for (std::size_t i = 1; i < n.args.size(); ++i) {
        r = MulI(r, RangeOf(n.args[i]));
      }
      return r;
    }
    case Kind::kPow:
      return PowRange(n);
    case Kind::kFloorDiv:
      return DivRange(n, false);
    case Kind::kCeilDiv:
      return DivRange(n, true);
    case Kind::kMod:
      return ModRange(n);
    case Kind::kMin:
      return MinMaxRange(n, false);
    case Kind::kMax:
      return MinMaxRange(n, true);
    case Kind::kAlign:
      return AlignRange(n);
  }
  return Interval{};
}

}  // namespace af::sym::detail
