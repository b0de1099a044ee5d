// Private representation of expression nodes and the helpers the sym sources share.
//
// A Node is immutable and interned (hash-consed) for the process lifetime. Besides its structure
// it caches facts computed once from its children: a deterministic structural hash, whether its
// value is always an integer, and an interval enclosing every value it takes where it is defined
// (all symbols are integers >= 0).
//
// Canonical invariants (established by the constructors in arith.cc, divmod.cc, minmax.cc):
//  * kConst: `value` normalised; kSymbol: `name` an identifier.
//  * kAdd: >= 2 args; an optional non-zero constant first, then terms with distinct monomials in
//    monomial order (see CompareFactors). A term is a monomial or kMul(coefficient, factors...).
//  * kMul: an optional coefficient (!= 0, != 1) first, then >= 1 factors with distinct bases in
//    base order; a factor is a base or kPow(base, exponent); no factor is a constant or a kMul,
//    and a lone coefficient never multiplies a kAdd (it is distributed).
//  * kPow: [base, Const(exponent)] with exponent not in {0, 1}; the base is not a constant, kMul
//    or kPow. A negative exponent encodes exact division.
//  * kFloorDiv/kCeilDiv/kMod/kAlign: [a, b]; kMin/kMax: >= 2 distinct args in Compare order.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "autofuse/sym/expr.h"
#include "rational.h"

namespace af::sym {

namespace detail {

// A closed interval; a missing end is infinite.
struct Interval {
  std::optional<Rational> lo;
  std::optional<Rational> hi;
};

}  // namespace detail

class Node {
 public:
  Kind kind = Kind::kConst;
  bool integral = true;  // the value is an integer wherever it is defined
  Rational value;        // kConst only
  std::string name;      // kSymbol only
  std::vector<Expr> args;
  std::size_t hash = 0;  // deterministic across runs
  detail::Interval range;
};

namespace detail {

// Maximum number of terms a product of sums may expand to (see arith.cc).
inline constexpr std::size_t kMaxExpandTerms = 64;

// --- expr.cc: interning ---------------------------------------------------------------------
Expr MakeConst(Rational v);
// Interns a node whose args are already canonical for `kind` (no simplification is done).
Expr MakeRaw(Kind kind, std::vector<Expr> args);

inline const Interval& RangeOf(const Expr& e) {
  return e.node()->range;
}
inline bool IsIntegral(const Expr& e) {
  return e.node()->integral;
}
inline bool IsZero(const Expr& e) {
  return e.IsConst() && e.value().num == 0;
}
inline bool IsOne(const Expr& e) {
  return e.IsConst() && e.value() == Rational{1, 1};
}

// Throws Error("integer overflow in <what>") when `r` is empty.
Rational Checked(std::optional<Rational> r, const std::string& what);
// A ToString shortened for error messages.
std::string Brief(const Expr& e);

// --- order.cc ---------------------------------------------------------------------------------
// Deterministic total order: kind, then constant value / natural symbol name / args.
int Compare(const Expr& a, const Expr& b);
// Lexicographic order of factor lists (monomials); the empty list (a constant) comes first.
int CompareFactors(std::span<const Expr> a, std::span<const Expr> b);

// --- bounds.cc --------------------------------------------------------------------------------
bool ComputeIntegral(const Node& n);
Interval ComputeRange(const Node& n);
// The lower bound of a divisor where it is defined: an integral b >= 0 is >= 1 there.
std::optional<Rational> DivisorLo(const Expr& b);
bool KnownNonNeg(const Expr& e);

// --- arith.cc: sums and products --------------------------------------------------------------
// A term viewed as coefficient * factors. For a kMul the factors point into its args; otherwise
// they point at the expression itself, which must outlive the view.
struct TermView {
  Rational coef;
  std::span<const Expr> factors;
};
TermView SplitTerm(const Expr& t);
// The terms of a sum (its args) or the expression itself as a one-term span.
std::span<const Expr> TermsOf(const Expr& e);
// A factor as base ** exponent.
std::pair<Expr, std::int64_t> SplitFactor(const Expr& f);

struct Scaled {
  Expr e;
  Rational k;
};
// Sum of k * e over the inputs, canonical.
Expr SumOf(std::span<const Scaled> in);
Expr AddN(std::span<const Expr> in);
Expr MulN(std::span<const Expr> in);
Expr Scale(const Expr& e, Rational k);
// Least common multiple of the coefficient denominators of a sum of integral monomials with
// rational coefficients; nullopt when some term is not of that form or on overflow.
std::optional<std::int64_t> CoefDenLcm(const Expr& e);
// Writes e as numerator / denominator with both integral (for Ceiling / Floor of a quotient).
std::optional<std::pair<Expr, Expr>> AsFraction(const Expr& e);

// --- divmod.cc --------------------------------------------------------------------------------
// q with a == q * b (when b != 0) and q integral, if cheaply visible from the structure.
std::optional<Expr> ExactQuotient(const Expr& a, const Expr& b);

// --- minmax.cc --------------------------------------------------------------------------------
Expr MinMaxN(Kind kind, const std::vector<Expr>& in);

// --- subs.cc ----------------------------------------------------------------------------------
// Re-canonicalises a node of `kind` with new args.
Expr Rebuild(Kind kind, const std::vector<Expr>& args);

}  // namespace detail
}  // namespace af::sym
