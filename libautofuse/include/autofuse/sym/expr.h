// Symbolic integer expressions: the sizes, strides, offsets and tile sizes of every graph.
//
// Why our own: SymEngine (what AutoFuse uses) is not packaged in Debian 12, and sympy-style
// engines are the known compile-time bottleneck of Inductor. Like Halide and TVM we keep a small
// engine of our own: hash-consed immutable nodes in a canonical form, so structural equality is a
// pointer comparison, plus checked int64 evaluation, substitution and a three-valued comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace af::sym {

class Node;

// Node kinds. Add and Mul are n-ary and kept sorted; the rest keep their argument order.
enum class Kind : std::uint8_t {
  kConst,     // a rational constant (integers have denominator 1)
  kSymbol,    // a named non-negative integer symbol (s0, z0t_size, ...)
  kAdd,       // sum of terms
  kMul,       // product of factors; a rational coefficient comes first when not 1
  kPow,       // base ** integer exponent (exponent is a constant)
  kFloorDiv,  // floor(a / b)
  kCeilDiv,   // ceil(a / b), AutoFuse's Ceiling(a / b)
  kMod,       // a mod b (result has the sign of b, as Python / sympy Mod)
  kMin,       // n-ary minimum
  kMax,       // n-ary maximum
  kAlign,     // Align(a, b): a rounded up to a multiple of b
};

// A rational number num/den with den > 0 and gcd(num, den) == 1.
struct Rational {
  std::int64_t num = 0;
  std::int64_t den = 1;
  bool IsInteger() const { return den == 1; }
  friend bool operator==(const Rational&, const Rational&) = default;
};

// Errors raised by this library. Evaluation errors (overflow, division by zero, unbound symbol,
// non-integer result) and parse errors share this type; ParseError adds the position.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ParseError : public Error {
 public:
  ParseError(const std::string& what, std::size_t pos) : Error(what), pos_(pos) {}
  // 0-based character offset in the parsed text where the problem was found.
  std::size_t pos() const { return pos_; }

 private:
  std::size_t pos_;
};

// Symbol name -> value.
using Bindings = std::map<std::string, std::int64_t, std::less<>>;

// Three-valued answer of the provers.
enum class Tri : std::uint8_t { kFalse, kTrue, kUnknown };

// An immutable, canonical, hash-consed expression. Copying is a pointer copy. Two Exprs are
// structurally equal exactly when their node pointers are equal (after canonicalisation, which
// every constructor performs).
class Expr {
 public:
  Expr();                    // the constant 0
  Expr(std::int64_t value);  // NOLINT(google-explicit-constructor): integer constants read well
  // Any other integer type (int literals included: without this, Expr(0) would be ambiguous
  // with the node-pointer constructor).
  template <typename T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, std::int64_t> && !std::is_same_v<T, bool>)
      Expr(T value)  // NOLINT(google-explicit-constructor)
      : Expr(static_cast<std::int64_t>(value)) {}
  explicit Expr(const Node* node) : node_(node) {}

  static Expr Const(std::int64_t value);
  static Expr Rat(std::int64_t num, std::int64_t den);  // throws Error when den == 0
  static Expr Sym(std::string_view name);

  // Structure.
  Kind kind() const;
  const std::vector<Expr>& args() const;  // empty for constants and symbols
  const std::string& name() const;        // symbol name; empty otherwise
  Rational value() const;                 // constant value; {0,1} otherwise
  bool IsConst() const { return kind() == Kind::kConst; }
  bool IsSymbol() const { return kind() == Kind::kSymbol; }
  // The integer value when this is an integer constant.
  std::optional<std::int64_t> AsInt() const;
  std::size_t hash() const;
  const Node* node() const { return node_; }

  friend bool operator==(const Expr& a, const Expr& b) { return a.node_ == b.node_; }
  // A total order that is stable across runs (used to sort sums/products and for printing).
  friend bool operator<(const Expr& a, const Expr& b);

  // Evaluation under bindings in checked int64: overflow, division by zero, an unbound symbol or a
  // non-integer result throw Error.
  std::int64_t Eval(const Bindings& b) const;
  // Exact rational evaluation (rational coefficients and exact division allowed).
  Rational EvalRational(const Bindings& b) const;
  // Substitute symbols by expressions, re-canonicalising the result.
  Expr Subs(const std::map<std::string, Expr, std::less<>>& m) const;
  // Distinct free symbol names, sorted.
  std::vector<std::string> FreeSymbols() const;

  // Readable text that Parse reads back to the same Expr: "s0 * s1 + 3", "CeilDiv(s0, z0t_size)",
  // "FloorDiv(a, b)", "Mod(a, b)", "Min(a, b)", "Max(a, b)", "Align(a, b)", "Pow(a, 3)",
  // "Rational(1, 8)". Deterministic (terms in the stable order).
  std::string ToString() const;
  // A C++ expression over int64_t variables named like the symbols, using helper functions the
  // generated tiling code defines (af_floordiv, af_ceildiv, af_mod, af_min, af_max, af_align,
  // af_pow, all on int64_t). A sum with rational coefficients is printed over a common
  // denominator as one exact af_floordiv, so integral expressions stay exact in integer C++.
  std::string ToCpp() const;

 private:
  const Node* node_;
};

// Arithmetic. Division is exact rational division ("/" in AutoFuse strings on constants).
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
Expr operator*(const Expr& a, const Expr& b);
Expr Div(const Expr& a, const Expr& b);  // exact division a * b^-1 (b must be nonzero when const)
Expr FloorDiv(const Expr& a, const Expr& b);
Expr CeilDiv(const Expr& a, const Expr& b);
Expr Mod(const Expr& a, const Expr& b);
Expr Min(const Expr& a, const Expr& b);
Expr Max(const Expr& a, const Expr& b);
Expr Align(const Expr& a, const Expr& b);
Expr Pow(const Expr& base, std::int64_t exponent);  // exponent >= 0

// Provers for expressions over non-negative integer symbols: kTrue when a <= b (a >= b, a == b)
// holds for every binding, kFalse when it fails for every binding, kUnknown otherwise.
Tri ProveLe(const Expr& a, const Expr& b);
Tri ProveGe(const Expr& a, const Expr& b);
Tri ProveEq(const Expr& a, const Expr& b);

// Parses AutoFuse strings ("Ceiling((s0 / (z0t_size)))", "Rational(1 , 8)", "Max(a, b)",
// "Mod(a, b)", "(s1 * s2)", "Floor(a / b)", "Align(a, b)") and Inductor / sympy index
// expressions ("784*p0 + p1", "ModularIndexing(p0, 1, 64)", "FloorDiv(a, b)", "a//b",
// "CeilDiv(a, b)", "Min", "Max", "a**2", "CleanDiv(a, b)"). Throws ParseError with the offset.
// In AutoFuse strings "/" between integers means exact (rational) division; Ceiling/Floor of a
// quotient become CeilDiv/FloorDiv.
Expr Parse(std::string_view text);

}  // namespace af::sym

template <>
struct std::hash<af::sym::Expr> {
  std::size_t operator()(const af::sym::Expr& e) const noexcept { return e.hash(); }
};
