// The 16-bit floating-point types of AscendC (`half` = IEEE binary16, `bfloat16_t` = bfloat16) as
// small value classes, and the exact rounding core shared with Cast: rounding a double or an
// integer to a binary floating-point format under every AscendC RoundMode.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "af_cpu/config.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// Rounding directions of AscendC's RoundMode (CAST_NONE maps to kRint where precision is lost).
enum class Rounding : uint8_t { kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

// What lies below the last kept bit: nothing, less than half an ulp, exactly half, more.
enum class Remainder : uint8_t { kZero, kBelowHalf, kHalf, kAboveHalf };

// Whether the kept magnitude (with last bit `odd`) must be incremented by one ulp.
inline bool RoundsUp(Rounding r, bool negative, bool odd, Remainder rem) {
  if (rem == Remainder::kZero) return false;
  switch (r) {
    case Rounding::kRint:
      return rem == Remainder::kAboveHalf || (rem == Remainder::kHalf && odd);
    case Rounding::kRound:
      return rem != Remainder::kBelowHalf;
    case Rounding::kFloor:
      return negative;
    case Rounding::kCeil:
      return !negative;
    case Rounding::kTrunc:
      return false;
    case Rounding::kOdd:
      return !odd;
  }
  return false;
}

// A binary floating-point format with `mant` stored mantissa bits and `exp` exponent bits.
struct FloatFormat {
  int mant;
  int exp;
  uint32_t ExpField() const { return (1u << exp) - 1u; }
  int Bias() const { return (1 << (exp - 1)) - 1; }
  int EMin() const { return 1 - Bias(); }
  uint32_t SignBit() const { return 1u << (mant + exp); }
  uint32_t Inf() const { return ExpField() << mant; }
  uint32_t MaxFinite() const { return Inf() - 1u; }
  uint32_t QuietNaN() const { return Inf() | (1u << (mant - 1)); }
};
inline constexpr FloatFormat kHalfFormat{10, 5};
inline constexpr FloatFormat kBf16Format{7, 8};
inline constexpr FloatFormat kFloatFormat{23, 8};

// Encodes magnitude m * 2^(e - mant) where m < 2^(mant+1) after rounding (e >= EMin), applying
// the overflow rule of the rounding direction. Returns the bits without sign.
inline uint32_t EncodeRounded(FloatFormat f, int e, uint64_t m, Rounding r, bool negative) {
  const uint64_t hidden = uint64_t{1} << f.mant;
  uint64_t bits = 0;
  if (m >= hidden) {
    bits = (static_cast<uint64_t>(e - f.EMin() + 1) << f.mant) + (m - hidden);
  } else {
    bits = m;  // subnormal (e == EMin); a carry into `hidden` yields the smallest normal
  }
  if (bits >= f.Inf()) {
    bool to_inf = false;
    switch (r) {
      case Rounding::kRint:
      case Rounding::kRound:
        to_inf = true;
        break;
      case Rounding::kFloor:
        to_inf = negative;
        break;
      case Rounding::kCeil:
        to_inf = !negative;
        break;
      case Rounding::kTrunc:
      case Rounding::kOdd:
        to_inf = false;
        break;
    }
    return to_inf ? f.Inf() : f.MaxFinite();
  }
  return static_cast<uint32_t>(bits);
}

// Rounds any double exactly (no double rounding) to format `f`; returns the bit pattern.
inline uint32_t RoundDoubleToFormat(double x, FloatFormat f, Rounding r) {
  const bool negative = std::signbit(x);
  const uint32_t sign = negative ? f.SignBit() : 0u;
  if (std::isnan(x)) return sign | f.QuietNaN();
  if (std::isinf(x)) return sign | f.Inf();
  const double a = std::fabs(x);
  if (a == 0.0) return sign;
  int e2 = 0;
  std::frexp(a, &e2);  // a = frac * 2^e2, frac in [0.5, 1)
  int e = e2 - 1;
  if (e < f.EMin()) e = f.EMin();
  const double q = std::ldexp(a, f.mant - e);  // exact: scaling by a power of two
  const double t = std::floor(q);
  const double frac = q - t;
  Remainder rem = Remainder::kZero;
  if (frac > 0.5) {
    rem = Remainder::kAboveHalf;
  } else if (frac == 0.5) {
    rem = Remainder::kHalf;
  } else if (frac > 0.0) {
    rem = Remainder::kBelowHalf;
  }
  auto m = static_cast<uint64_t>(t);
  if (RoundsUp(r, negative, (m & 1u) != 0, rem)) ++m;
  return sign | EncodeRounded(f, e, m, r, negative);
}

// Rounds a 64-bit integer exactly to format `f`; returns the bit pattern.
inline uint32_t RoundIntToFormat(int64_t v, FloatFormat f, Rounding r) {
  const bool negative = v < 0;
  const uint32_t sign = negative ? f.SignBit() : 0u;
  const uint64_t a = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (a == 0) return sign;
  int p = 63;
  while (((a >> p) & 1u) == 0)
    --p;
  if (p <= f.mant) return sign | EncodeRounded(f, p, a << (f.mant - p), r, negative);
  const int shift = p - f.mant;
  const uint64_t m = a >> shift;
  const uint64_t low = a & ((uint64_t{1} << shift) - 1u);
  const uint64_t halfway = uint64_t{1} << (shift - 1);
  Remainder rem = Remainder::kZero;
  if (low > halfway) {
    rem = Remainder::kAboveHalf;
  } else if (low == halfway) {
    rem = Remainder::kHalf;
  } else if (low > 0) {
    rem = Remainder::kBelowHalf;
  }
  const uint64_t rounded = m + (RoundsUp(r, negative, (m & 1u) != 0, rem) ? 1u : 0u);
  return sign | EncodeRounded(f, p, rounded, r, negative);
}

// Decodes bits of format `f` to a double (exact for every format narrower than double).
inline double DecodeFormat(uint32_t bits, FloatFormat f) {
  const bool negative = (bits & f.SignBit()) != 0;
  const uint32_t e = (bits >> f.mant) & f.ExpField();
  const uint32_t m = bits & ((1u << f.mant) - 1u);
  double v = 0.0;
  if (e == f.ExpField()) {
    v = m != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), f.EMin() - f.mant);
  } else {
    v = std::ldexp(static_cast<double>(m | (1u << f.mant)),
                   static_cast<int>(e) - f.Bias() - f.mant);
  }
  return negative ? -v : v;
}

inline uint32_t FloatBits(float x) {
  uint32_t u = 0;
  std::memcpy(&u, &x, sizeof(u));
  return u;
}
inline float BitsFloat(uint32_t u) {
  float x = 0;
  std::memcpy(&x, &u, sizeof(x));
  return x;
}

// float -> binary16, round to nearest even (fast path of the half constructor).
inline uint16_t FloatToHalfBits(float x) {
  const uint32_t u = FloatBits(x);
  const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) {  // inf or NaN (NaN keeps its top payload bits and stays quiet)
    const uint32_t payload = a > 0x7F800000u ? (0x200u | ((a >> 13) & 0x3FFu)) : 0u;
    return static_cast<uint16_t>(sign | 0x7C00u | payload);
  }
  if (a >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520 -> inf
  if (a >= 0x38800000u) {                                              // normal half range
    const uint32_t odd = (a >> 13) & 1u;
    const uint32_t r = a + 0xFFFu + odd;
    return static_cast<uint16_t>(sign | ((r - 0x38000000u) >> 13));
  }
  // Subnormal half (or zero): count units of 2^-24 exactly, then round half to even.
  const double q = std::ldexp(static_cast<double>(BitsFloat(a)), 24);
  const double t = std::floor(q);
  const double frac = q - t;
  auto m = static_cast<uint32_t>(t);
  if (frac > 0.5 || (frac == 0.5 && (m & 1u) != 0)) ++m;
  return static_cast<uint16_t>(sign | m);
}

inline float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu;
  const uint32_t m = h & 0x3FFu;
  if (e == 0x1Fu) return BitsFloat(sign | 0x7F800000u | (m << 13));
  if (e != 0) return BitsFloat(sign | ((e + 112u) << 23) | (m << 13));
  const auto v = static_cast<float>(std::ldexp(static_cast<double>(m), -24));
  return sign != 0 ? -v : v;
}

// float -> bfloat16, round to nearest even.
inline uint16_t FloatToBf16Bits(float x) {
  const uint32_t u = FloatBits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  const uint32_t r = u + 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(r >> 16);
}

inline float Bf16BitsToFloat(uint16_t b) {
  return BitsFloat(static_cast<uint32_t>(b) << 16);
}

// Shared shape of the two 16-bit float classes: storage, conversions through float.
template <typename Derived, uint16_t (*kFromFloat)(float), float (*kToFloat)(uint16_t),
          const FloatFormat& kFormat>
class Float16Base {
 public:
  Float16Base() = default;
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
  Float16Base(U v)
      : bits_(Encode(v)) {}  // NOLINT(google-explicit-constructor): implicit, as on device

  // Device code may convert a scalar half/bfloat16_t to float (a hardware conversion): __aicore__.
  __aicore__ operator float() const {  // NOLINT(google-explicit-constructor)
    return kToFloat(bits_);
  }

  uint16_t ToBits() const { return bits_; }
  static Derived FromBits(uint16_t b) {
    Derived d;
    d.bits_ = b;
    return d;
  }

  Derived& operator+=(float v) { return Assign(static_cast<float>(*this) + v); }
  Derived& operator-=(float v) { return Assign(static_cast<float>(*this) - v); }
  Derived& operator*=(float v) { return Assign(static_cast<float>(*this) * v); }
  Derived& operator/=(float v) { return Assign(static_cast<float>(*this) / v); }

 private:
  template <typename U>
  static uint16_t Encode(U v) {
    if constexpr (std::is_same_v<U, float>) {
      return kFromFloat(v);
    } else if constexpr (std::is_floating_point_v<U>) {
      return static_cast<uint16_t>(
          RoundDoubleToFormat(static_cast<double>(v), kFormat, Rounding::kRint));
    } else {
      return static_cast<uint16_t>(
          RoundIntToFormat(static_cast<int64_t>(v), kFormat, Rounding::kRint));
    }
  }
  Derived& Assign(float v) {
    bits_ = kFromFloat(v);
    return static_cast<Derived&>(*this);
  }
  uint16_t bits_;
};

// IEEE 754 binary16. Arithmetic happens in float (implicit conversion) and rounds back to nearest
// even on assignment, like the device's fp16 vector units with float accumulation.
class half : public Float16Base<half, FloatToHalfBits, HalfBitsToFloat, kHalfFormat> {
 public:
  using Float16Base::Float16Base;
};

// bfloat16: the top 16 bits of a float, rounded to nearest even.
class bfloat16_t : public Float16Base<bfloat16_t, FloatToBf16Bits, Bf16BitsToFloat, kBf16Format> {
 public:
  using Float16Base::Float16Base;
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>);
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t>);

// Floating types computed through float by the vector units.
template <typename T>
inline constexpr bool kIsFloatLike =
    std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
inline constexpr bool kIsIntLike = std::is_integral_v<T> && !std::is_same_v<T, bool>;

}  // namespace af_cpu

using af_cpu::bfloat16_t;
using af_cpu::half;

namespace AscendC {
using af_cpu::bfloat16_t;
using af_cpu::half;

// Scalar conversions documented for bfloat16_t.
inline bfloat16_t ToBfloat16(float v) {
  return bfloat16_t(v);
}
inline float ToFloat(bfloat16_t v) {
  return static_cast<float>(v);
}
}  // namespace AscendC

AF_CPU_HIDDEN_END
