// Canonical n-ary Min and Max.
//
// Rules: nested Min in Min (Max in Max) flattens; constants fold into one; arguments are sorted
// (stable structural order) and deduplicated; of two arguments differing only by a constant
// (x + 2 vs x + 5) only the winner stays; an argument dominated by another according to the
// cached intervals is dropped (Max(s0, 0) = s0, Min(s0, 0) = 0); one argument left is the result;
// a result with a one-point interval becomes that constant. All rules are exact.
#include <algorithm>

#include "node.h"

namespace af::sym {
namespace detail {
namespace {

// e as offset + rest, where rest is the non-constant part.
struct Offset {
  Rational offset;
  std::span<const Expr> rest;
};

Offset SplitOffset(const Expr& e) {
  if (e.kind() == Kind::kAdd && e.args()[0].IsConst()) {
    return {e.args()[0].value(), std::span<const Expr>(e.args()).subspan(1)};
  }
  return {Rational{}, std::span<const Expr>(&e, 1)};
}

bool Dominates(bool is_max, const Expr& y, const Expr& x) {
  const Interval& ry = RangeOf(y);
  const Interval& rx = RangeOf(x);
  if (is_max) return ry.lo && rx.hi && RCmp(*ry.lo, *rx.hi) >= 0;
  return ry.hi && rx.lo && RCmp(*ry.hi, *rx.lo) <= 0;
}

}  // namespace

Expr MinMaxN(Kind kind, const std::vector<Expr>& in) {
  bool is_max = kind == Kind::kMax;
  std::vector<Expr> args;
  std::optional<Rational> constant;
  auto add = [&](const Expr& e) {
    if (!e.IsConst()) {
      args.push_back(e);
    } else if (!constant || (RCmp(e.value(), *constant) > 0) == is_max) {
      constant = e.value();
    }
  };
  for (const Expr& e : in) {
    if (e.kind() == kind) {
      for (const Expr& a : e.args()) {
        add(a);
      }
    } else {
      add(e);
    }
  }
  std::sort(args.begin(), args.end(), [](const Expr& a, const Expr& b) { return a < b; });
  args.erase(std::unique(args.begin(), args.end()), args.end());
  if (constant) args.insert(args.begin(), MakeConst(*constant));

  std::vector<bool> dropped(args.size(), false);
  // Arguments that differ by a constant.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (dropped[i] || args[i].IsConst()) continue;
    Offset oi = SplitOffset(args[i]);
    for (std::size_t j = i + 1; j < args.size(); ++j) {
      if (dropped[j]) continue;
      Offset oj = SplitOffset(args[j]);
      if (oi.rest.size() != oj.rest.size() ||
          !std::equal(oi.rest.begin(), oi.rest.end(), oj.rest.begin())) {
        continue;
      }
      bool j_wins = (RCmp(oj.offset, oi.offset) > 0) == is_max;
      if (j_wins) {
        dropped[i] = true;
        break;
      }
      dropped[j] = true;
    }
  }
  // Arguments dominated according to their intervals.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (dropped[i]) continue;
    for (std::size_t j = 0; j < args.size(); ++j) {
      if (j != i && !dropped[j] && Dominates(is_max, args[j], args[i])) {
        dropped[i] = true;
        break;
      }
    }
  }
  std::vector<Expr> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!dropped[i]) kept.push_back(args[i]);
  }
  if (kept.size() == 1) return kept[0];
  Expr e = MakeRaw(kind, std::move(kept));
  const Interval& r = RangeOf(e);
  if (r.lo && r.hi && *r.lo == *r.hi) return MakeConst(*r.lo);
  return e;
}

}  // namespace detail

Expr Min(const Expr& a, const Expr& b) {
  if (a == b) return a;
  return detail::MinMaxN(Kind::kMin, {a, b});
}

Expr Max(const Expr& a, const Expr& b) {
  if (a == b) return a;
  return detail::MinMaxN(Kind::kMax, {a, b});
}

}  // namespace af::sym
