// Checked arithmetic on af::sym::Rational: exact num/den over int64 with 128-bit intermediates.
// Every operation returns std::nullopt instead of overflowing; callers decide whether that is an
// error (constant folding, evaluation) or just an unknown bound (interval analysis).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "autofuse/sym/expr.h"

namespace af::sym::detail {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

inline constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

inline UInt128 AbsU(Int128 v) {
  return v < 0 ? UInt128{0} - static_cast<UInt128>(v) : static_cast<UInt128>(v);
}

inline UInt128 Gcd(UInt128 a, UInt128 b) {
  while (b != 0) {
    UInt128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

inline bool FitsI64(Int128 v) {
  return v >= kI64Min && v <= kI64Max;
}

// num/den reduced to lowest terms with den > 0; nullopt when den == 0 or the result does not fit.
// |num| and |den| must be below 2^127 (true for sums and products of two int64 values).
inline std::optional<Rational> MakeRat(Int128 num, Int128 den) {
  if (den == 0) return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  UInt128 g = Gcd(AbsU(num), static_cast<UInt128>(den));
  if (g > 1) {
    num /= static_cast<Int128>(g);
    den /= static_cast<Int128>(g);
  }
  if (!FitsI64(num) || !FitsI64(den)) return std::nullopt;
  return Rational{static_cast<std::int64_t>(num), static_cast<std::int64_t>(den)};
}

inline Rational RInt(std::int64_t v) {
  return Rational{v, 1};
}

inline std::optional<Rational> RAdd(Rational a, Rational b) {
  if (a.den == 1 && b.den == 1) {
    std::int64_t r = 0;
    if (__builtin_add_overflow(a.num, b.num, &r)) return std::nullopt;
    return Rational{r, 1};
  }
  return MakeRat(Int128{a.num} * b.den + Int128{b.num} * a.den, Int128{a.den} * b.den);
}

inline std::optional<Rational> RSub(Rational a, Rational b) {
  if (a.den == 1 && b.den == 1) {
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a.num, b.num, &r)) return std::nullopt;
    return Rational{r, 1};
  }
  return MakeRat(Int128{a.num} * b.den - Int128{b.num} * a.den, Int128{a.den} * b.den);
}

inline std::optional<Rational> RMul(Rational a, Rational b) {
  if (a.den == 1 && b.den == 1) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a.num, b.num, &r)) return std::nullopt;
    return Rational{r, 1};
  }
  return MakeRat(Int128{a.num} * b.num, Int128{a.den} * b.den);
}

// a / b; nullopt when b == 0 or on overflow (check b == 0 first to report division by zero).
inline std::optional<Rational> RDiv(Rational a, Rational b) {
  if (b.num == 0) return std::nullopt;
  return MakeRat(Int128{a.num} * b.den, Int128{a.den} * b.num);
}

inline std::optional<Rational> RNeg(Rational a) {
  return RSub(Rational{}, a);
}

// Three-way comparison.
inline int RCmp(Rational a, Rational b) {
  Int128 l = Int128{a.num} * b.den;
  Int128 r = Int128{b.num} * a.den;
  return l < r ? -1 : (l > r ? 1 : 0);
}

inline int RSign(Rational a) {
  return a.num < 0 ? -1 : (a.num > 0 ? 1 : 0);
}

// floor(a) and ceil(a); never overflow because den >= 2 whenever rounding happens.
inline Rational RFloor(Rational a) {
  std::int64_t q = a.num / a.den;
  if (a.num % a.den != 0 && a.num < 0) --q;
  return RInt(q);
}
inline Rational RCeil(Rational a) {
  std::int64_t q = a.num / a.den;
  if (a.num % a.den != 0 && a.num > 0) ++q;
  return RInt(q);
}

// a ** n for any integer n (negative: reciprocal). nullopt on overflow or 0 ** negative.
inline std::optional<Rational> RPow(Rational a, std::int64_t n) {
  if (n < 0) {
    if (a.num == 0) return std::nullopt;
    if (n == kI64Min) {  // |a| must be 1 to fit
      if (a.num == 1 && a.den == 1) return a;
      if (a.num == -1 && a.den == 1) return RInt(1);
      return std::nullopt;
    }
    auto p = RPow(a, -n);
    if (!p) return std::nullopt;
    return RDiv(RInt(1), *p);
  }
  Rational result = RInt(1);
  Rational base = a;
  auto e = static_cast<std::uint64_t>(n);
  while (e != 0) {
    if ((e & 1U) != 0u) {
      auto r = RMul(result, base);
      if (!r) return std::nullopt;
      result = *r;
    }
    e >>= 1U;
    if (e != 0) {
      auto b = RMul(base, base);
      if (!b) return std::nullopt;
      base = *b;
    }
  }
  return result;
}

inline std::string RToString(Rational a) {
  std::string s = std::to_string(a.num);
  if (a.den != 1) s += "/" + std::to_string(a.den);
  return s;
}

}  // namespace af::sym::detail
