// Printing: ToString (readable, re-parseable to the identical Expr) and ToCpp (int64 C++).
//
// ToString prints sums in canonical term order with the constant last ("s0 * s1 + 3"), negative
// coefficients as subtraction, rational constants as Rational(p, q), negative powers as a
// quotient ("s0 / (s1 * s2)") and everything else as a function call. INT64_MIN, whose magnitude
// has no int64 literal, is always printed parenthesised as "(-9223372036854775808)" so that the
// parser reads it as one negative literal.
//
// ToCpp uses af_floordiv / af_ceildiv / af_mod / af_min / af_max / af_align / af_pow. A sum with
// rational coefficients is printed over the common denominator L as af_floordiv(L * sum, L),
// exact whenever the sum is an integer. Terms with symbolic denominators (exact division by a
// symbol) print as af_floordiv(numerator, denominator) each, exact when each term is integral.
// A non-integral value has no exact C++ form; it is floored.
#include "node.h"

namespace af::sym {
namespace detail {
namespace {

std::string MinLiteral() {
  return "(-9223372036854775808)";
}

std::string IntText(std::int64_t v) {
  return v == kI64Min ? MinLiteral() : std::to_string(v);
}

std::string CoefText(Rational c) {
  if (c.IsInteger()) return IntText(c.num);
  return "Rational(" + std::to_string(c.num) + ", " + std::to_string(c.den) + ")";
}

// Whether a coefficient is printed as a subtraction (its magnitude is printable).
bool PrintNegated(Rational c) {
  return c.num < 0 && c.num != kI64Min;
}
Rational Negate(Rational c) {
  return Rational{-c.num, c.den};
}

class TextPrinter {
 public:
  std::string Print(const Expr& e) {
    switch (e.kind()) {
      case Kind::kConst:
        return CoefText(e.value());
      case Kind::kSymbol:
        return e.name();
      case Kind::kAdd:
        return Sum(e);
      case Kind::kMul: {
        TermView v = SplitTerm(e);
        return SignedTerm(v.coef, v.factors);
      }
      case Kind::kPow:
        return "Pow(" + Print(e.args()[0]) + ", " + std::to_string(e.args()[1].value().num) + ")";
      case Kind::kFloorDiv:
        return Call("FloorDiv", e);
      case Kind::kCeilDiv:
        return Call("CeilDiv", e);
      case Kind::kMod:
        return Call("Mod", e);
      case Kind::kMin:
        return Call("Min", e);
      case Kind::kMax:
        return Call("Max", e);
      case Kind::kAlign:
        return Call("Align", e);
    }
    return "?";
  }

 private:
  std::string Call(const char* name, const Expr& e) {
    std::string s = std::string(name) + "(";
    for (std::size_t i = 0; i < e.args().size(); ++i) {
      if (i != 0) s += ", ";
      s += Print(e.args()[i]);
    }
    return s + ")";
  }

  std::string Factor(const Expr& base, std::int64_t exp) {
    if (exp == 1) return base.kind() == Kind::kAdd ? "(" + Print(base) + ")" : Print(base);
    return "Pow(" + Print(base) + ", " + std::to_string(exp) + ")";
  }

  // c * factors for c > 0 or c printed as a literal; no leading sign handling.
  std::string Term(Rational c, std::span<const Expr> factors) {
    // Factors with exponent -1 print as divisors: the others grouped as "/ (s1 * s2)", each sum
    // on its own ("/ (s0 + 1)") because a product of sums would be expanded when parsed back.
    // Other negative powers stay Pow(b, -n) for the same reason.
    std::vector<std::string> num;
    std::vector<std::string> den;
    std::vector<std::string> den_sums;
    for (const Expr& f : factors) {
      auto [base, exp] = SplitFactor(f);
      if (exp == -1) {
        (base.kind() == Kind::kAdd ? den_sums : den).push_back(Factor(base, 1));
      } else {
        num.push_back(Factor(base, exp));
      }
    }
    if (c != Rational{1, 1} || num.empty()) num.insert(num.begin(), CoefText(c));
    std::string s = Join(num);
    if (!den.empty()) s += " / " + (den.size() == 1 ? den[0] : "(" + Join(den) + ")");
    for (const std::string& d : den_sums) {
      s += " / " + d;
    }
    return s;
  }

  std::string SignedTerm(Rational c, std::span<const Expr> factors) {
    if (PrintNegated(c)) {
      return "-" + Term(Negate(c), factors);  // "-s0 * s1", "-2 * s0", "-1 / s1"
    }
    return Term(c, factors);
  }

  std::string Sum(const Expr& e) {
    std::string s;
    std::optional<Rational> constant;
    for (const Expr& t : e.args()) {
      TermView v = SplitTerm(t);
      if (v.factors.empty()) {
        constant = v.coef;
        continue;
      }
      bool neg = PrintNegated(v.coef);
      std::string body = Term(neg ? Negate(v.coef) : v.coef, v.factors);
      if (s.empty()) {
        s = neg ? "-" + body : body;
      } else {
        s += (neg ? " - " : " + ") + body;
      }
    }
    if (constant) {
      bool neg = PrintNegated(*constant);
      s += (neg ? " - " : " + ") + CoefText(neg ? Negate(*constant) : *constant);
    }
    return s;
  }

  static std::string Join(const std::vector<std::string>& parts) {
    std::string s;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i != 0) s += " * ";
      s += parts[i];
    }
    return s;
  }
};

std::string CppInt(std::int64_t v) {
  return v == kI64Min ? "(-9223372036854775807 - 1)" : std::to_string(v);
}

std::int64_t CheckedCppMul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw Error("integer overflow in ToCpp");
  return r;
}

class CppPrinter {
 public:
  std::string Print(const Expr& e) {
    switch (e.kind()) {
      case Kind::kConst: {
        Rational v = e.value();
        if (v.IsInteger()) return CppInt(v.num);
        return "af_floordiv(" + CppInt(v.num) + ", " + CppInt(v.den) + ")";
      }
      case Kind::kSymbol:
        return e.name();
      case Kind::kAdd:
        return Sum(e);
      case Kind::kMul: {
        TermView v = SplitTerm(e);
        return Term(v.coef, v.factors);
      }
      case Kind::kPow:
        return Power(e.args()[0], e.args()[1].value().num);
      case Kind::kFloorDiv:
        return Call("af_floordiv", e.args()[0], e.args()[1]);
      case Kind::kCeilDiv:
        return Call("af_ceildiv", e.args()[0], e.args()[1]);
      case Kind::kMod:
        return Call("af_mod", e.args()[0], e.args()[1]);
      case Kind::kAlign:
        return Call("af_align", e.args()[0], e.args()[1]);
      case Kind::kMin:
      case Kind::kMax: {
        const char* fn = e.kind() == Kind::kMin ? "af_min" : "af_max";
        std::string s = Print(e.args()[0]);
        for (std::size_t i = 1; i < e.args().size(); ++i) {
          s = std::string(fn) + "(" + s + ", " + Print(e.args()[i]) + ")";
        }
        return s;
      }
    }
    return "?";
  }

 private:
  std::string Call(const char* fn, const Expr& a, const Expr& b) {
    return std::string(fn) + "(" + Print(a) + ", " + Print(b) + ")";
  }

  std::string Power(const Expr& base, std::int64_t exp) {
    if (exp > 0) return "af_pow(" + Print(base) + ", " + std::to_string(exp) + ")";
    if (exp == kI64Min) throw Error("ToCpp: exponent out of range");
    return "af_floordiv(1, af_pow(" + Print(base) + ", " + std::to_string(-exp) + "))";
  }

  std::string Factor(const Expr& base, std::int64_t exp) {
    if (exp == 1) return base.kind() == Kind::kAdd ? "(" + Print(base) + ")" : Print(base);
    return "af_pow(" + Print(base) + ", " + std::to_string(exp) + ")";
  }

  // c * factors; a denominator (of c or negative powers) becomes one af_floordiv.
  std::string Term(Rational c, std::span<const Expr> factors) {
    std::vector<std::string> num;
    std::vector<std::string> den;
    for (const Expr& f : factors) {
      auto [base, exp] = SplitFactor(f);
      if (exp > 0) {
        num.push_back(Factor(base, exp));
      } else {
        if (exp == kI64Min) throw Error("ToCpp: exponent out of range");
        den.push_back(Factor(base, -exp));
      }
    }
    if (c.num != 1 || num.empty()) num.insert(num.begin(), CppInt(c.num));
    if (c.den != 1) den.insert(den.begin(), CppInt(c.den));
    std::string s = Join(num);
    if (den.empty()) return s;
    return "af_floordiv(" + s + ", " + Join(den) + ")";
  }

  std::string Sum(const Expr& e) {
    UInt128 l = 1;
    for (const Expr& t : e.args()) {
      UInt128 d = static_cast<UInt128>(SplitTerm(t).coef.den);
      l = l / Gcd(l, d) * d;
      if (l > static_cast<UInt128>(kI64Max)) throw Error("integer overflow in ToCpp");
    }
    auto lcm = static_cast<std::int64_t>(l);
    std::string s;
    std::optional<std::int64_t> constant;
    for (const Expr& t : e.args()) {
      TermView v = SplitTerm(t);
      std::int64_t c = CheckedCppMul(v.coef.num, lcm / v.coef.den);
      if (v.factors.empty()) {
        constant = c;
        continue;
      }
      bool neg = c < 0 && c != kI64Min;
      std::string body = Term(Rational{neg ? -c : c, 1}, v.factors);
      if (s.empty()) {
        s = neg ? "-" + body : body;
      } else {
        s += (neg ? " - " : " + ") + body;
      }
    }
    if (constant) {
      bool neg = *constant < 0 && *constant != kI64Min;
      s += (neg ? " - " : " + ") + CppInt(neg ? -*constant : *constant);
    }
    if (lcm == 1) return s;
    return "af_floordiv(" + s + ", " + CppInt(lcm) + ")";
  }

  static std::string Join(const std::vector<std::string>& parts) {
    std::string s;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i != 0) s += " * ";
      s += parts[i];
    }
    return s;
  }
};

}  // namespace
}  // namespace detail

std::string Expr::ToString() const {
  return detail::TextPrinter().Print(*this);
}
std::string Expr::ToCpp() const {
  return detail::CppPrinter().Print(*this);
}

}  // namespace af::sym
