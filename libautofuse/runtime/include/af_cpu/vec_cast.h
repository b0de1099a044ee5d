// Cast between element types with every RoundMode, restricted to the type pairs and modes that
// AscendC documents for Atlas A2/A3 (anything else is a violation). Floating results are rounded
// exactly (no double rounding); integer results saturate, NaN converts to 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

enum class RoundMode : uint8_t {
  CAST_NONE = 0,  // CAST_RINT where precision is lost, exact otherwise
  CAST_RINT,      // to nearest, ties to even
  CAST_FLOOR,     // toward -inf
  CAST_CEIL,      // toward +inf
  CAST_ROUND,     // to nearest, ties away from zero
  CAST_TRUNC,     // toward zero
  CAST_ODD,       // to odd (von Neumann)
  CAST_HYBRID,    // hifloat8 only; not modelled
};

}  // namespace AscendC

namespace af_cpu {

template <typename T>
inline const char* TypeName() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
  if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
  return "?";
}

inline const char* RoundModeName(AscendC::RoundMode m) {
  switch (m) {
    case AscendC::RoundMode::CAST_NONE:
      return "CAST_NONE";
    case AscendC::RoundMode::CAST_RINT:
      return "CAST_RINT";
    case AscendC::RoundMode::CAST_FLOOR:
      return "CAST_FLOOR";
    case AscendC::RoundMode::CAST_CEIL:
      return "CAST_CEIL";
    case AscendC::RoundMode::CAST_ROUND:
      return "CAST_ROUND";
    case AscendC::RoundMode::CAST_TRUNC:
      return "CAST_TRUNC";
    case AscendC::RoundMode::CAST_ODD:
      return "CAST_ODD";
    case AscendC::RoundMode::CAST_HYBRID:
      return "CAST_HYBRID";
  }
  return "?";
}

inline constexpr uint32_t ModeBit(AscendC::RoundMode m) {
  return 1u << static_cast<uint32_t>(m);
}
inline constexpr uint32_t kModeNone = ModeBit(AscendC::RoundMode::CAST_NONE);
inline constexpr uint32_t kModesRound =
    ModeBit(AscendC::RoundMode::CAST_RINT) | ModeBit(AscendC::RoundMode::CAST_FLOOR) |
    ModeBit(AscendC::RoundMode::CAST_CEIL) | ModeBit(AscendC::RoundMode::CAST_ROUND) |
    ModeBit(AscendC::RoundMode::CAST_TRUNC);
inline constexpr uint32_t kModeOdd = ModeBit(AscendC::RoundMode::CAST_ODD);

// Round modes documented for Cast<D <- S> on Atlas A2/A3 (0: the pair is not documented).
template <typename D, typename S>
constexpr uint32_t CastModes() {
  using std::is_same_v;
  if constexpr (is_same_v<S, int8_t> && is_same_v<D, half>) return kModeNone;
  if constexpr (is_same_v<S, uint8_t> && is_same_v<D, half>) return kModeNone;
  if constexpr (is_same_v<S, int16_t> && is_same_v<D, half>) return kModesRound | kModeNone;
  if constexpr (is_same_v<S, int16_t> && is_same_v<D, float>) return kModeNone;
  if constexpr (is_same_v<S, half> && is_same_v<D, int8_t>) return kModesRound | kModeNone;
  if constexpr (is_same_v<S, half> && is_same_v<D, uint8_t>) return kModesRound | kModeNone;
  if constexpr (is_same_v<S, half> && is_same_v<D, int16_t>) return kModesRound;
  if constexpr (is_same_v<S, half> && is_same_v<D, int32_t>) return kModesRound;
  if constexpr (is_same_v<S, half> && is_same_v<D, float>) return kModeNone;
  if constexpr (is_same_v<S, bfloat16_t> && is_same_v<D, int32_t>) return kModesRound;
  if constexpr (is_same_v<S, bfloat16_t> && is_same_v<D, float>) return kModeNone;
  if constexpr (is_same_v<S, int32_t> && is_same_v<D, int16_t>) return kModeNone;
  if constexpr (is_same_v<S, int32_t> && is_same_v<D, float>) return kModesRound | kModeNone;
  if constexpr (is_same_v<S, int32_t> && is_same_v<D, int64_t>) return kModeNone;
  if constexpr (is_same_v<S, float> && is_same_v<D, int16_t>) return kModesRound;
  if constexpr (is_same_v<S, float> && is_same_v<D, half>)
    return kModesRound | kModeOdd | kModeNone;
  if constexpr (is_same_v<S, float> && is_same_v<D, bfloat16_t>) return kModesRound;
  if constexpr (is_same_v<S, float> && is_same_v<D, int32_t>) return kModesRound;
  if constexpr (is_same_v<S, float> && is_same_v<D, float>) return kModesRound;
  if constexpr (is_same_v<S, float> && is_same_v<D, int64_t>) return kModesRound;
  if constexpr (is_same_v<S, int64_t> && is_same_v<D, int32_t>) return kModeNone;
  if constexpr (is_same_v<S, int64_t> && is_same_v<D, float>) return kModesRound;
  return 0;
}

inline Rounding ToRounding(AscendC::RoundMode m) {
  switch (m) {
    case AscendC::RoundMode::CAST_FLOOR:
      return Rounding::kFloor;
    case AscendC::RoundMode::CAST_CEIL:
      return Rounding::kCeil;
    case AscendC::RoundMode::CAST_ROUND:
      return Rounding::kRound;
    case AscendC::RoundMode::CAST_TRUNC:
      return Rounding::kTrunc;
    case AscendC::RoundMode::CAST_ODD:
      return Rounding::kOdd;
    default:
      return Rounding::kRint;
  }
}

// Rounds to an integral value (keeps the sign of zero, passes NaN/inf through).
inline double RoundIntegral(double x, Rounding r) {
  if (!std::isfinite(x)) return x;
  double t = 0.0;
  switch (r) {
    case Rounding::kRint: {
      t = std::floor(x);
      const double d = x - t;
      if (d > 0.5 || (d == 0.5 && std::fmod(t, 2.0) != 0.0)) t += 1.0;
      break;
    }
    case Rounding::kFloor:
      t = std::floor(x);
      break;
    case Rounding::kCeil:
      t = std::ceil(x);
      break;
    case Rounding::kRound:
      t = std::round(x);
      break;
    case Rounding::kTrunc:
      t = std::trunc(x);
      break;
    case Rounding::kOdd:
      t = std::floor(x);
      if (t != x && std::fmod(t, 2.0) == 0.0) t += 1.0;
      break;
  }
  return t == 0.0 ? std::copysign(0.0, x) : t;
}

// Saturating conversion of an integral double to an integer type; NaN converts to 0.
template <typename D>
inline D SaturateToInt(double v) {
  if (std::isnan(v)) return D(0);
  const auto lo = static_cast<double>(std::numeric_limits<D>::min());
  const double hi_excl = std::ldexp(1.0, std::numeric_limits<D>::digits);  // max + 1
  if (v <= lo) return std::numeric_limits<D>::min();
  if (v >= hi_excl) return std::numeric_limits<D>::max();
  return static_cast<D>(v);
}

template <typename D>
inline D SaturateIntToInt(int64_t v) {
  if constexpr (sizeof(D) < sizeof(int64_t) || std::is_unsigned_v<D>) {
    if (v < static_cast<int64_t>(std::numeric_limits<D>::min()))
      return std::numeric_limits<D>::min();
    if constexpr (sizeof(D) < sizeof(int64_t)) {
      if (v > static_cast<int64_t>(std::numeric_limits<D>::max())) {
        return std::numeric_limits<D>::max();
      }
    }
  }
  return static_cast<D>(v);
}

// Converts one value from S to D under rounding r (the pair's validity is checked by Cast).
template <typename D, typename S>
inline D CastValue(S v, Rounding r) {
  if constexpr (kIsFloatLike<S>) {
    const double x = static_cast<double>(static_cast<float>(v));  // exact: S is at most float
    if constexpr (std::is_same_v<D, float>) {
      if constexpr (std::is_same_v<S, float>) {
        return static_cast<float>(RoundIntegral(x, r));
      } else {
        return static_cast<float>(x);
      }
    } else if constexpr (std::is_same_v<D, half>) {
      return half::FromBits(static_cast<uint16_t>(RoundDoubleToFormat(x, kHalfFormat, r)));
    } else if constexpr (std::is_same_v<D, bfloat16_t>) {
      return bfloat16_t::FromBits(static_cast<uint16_t>(RoundDoubleToFormat(x, kBf16Format, r)));
    } else {
      return SaturateToInt<D>(RoundIntegral(x, r));
    }
  } else {
    const auto iv = static_cast<int64_t>(v);
    if constexpr (std::is_same_v<D, float>) {
      return BitsFloat(RoundIntToFormat(iv, kFloatFormat, r));
    } else if constexpr (std::is_same_v<D, half>) {
      return half::FromBits(static_cast<uint16_t>(RoundIntToFormat(iv, kHalfFormat, r)));
    } else if constexpr (std::is_same_v<D, bfloat16_t>) {
      return bfloat16_t::FromBits(static_cast<uint16_t>(RoundIntToFormat(iv, kBf16Format, r)));
    } else {
      return SaturateIntToInt<D>(iv);
    }
  }
}

}  // namespace af_cpu

namespace AscendC {

// dst[i] = convert(src[i]) for the first count elements.
template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const RoundMode& roundMode, const uint32_t count) {
  const char* api = "Cast";
  af_cpu::BlockCtx& c = af_cpu::Enter(api);
  constexpr uint32_t modes = af_cpu::CastModes<T, U>();
  if (modes == 0) {
    af_cpu::Fail(api, std::string("no documented conversion from ") + af_cpu::TypeName<U>() +
                          " to " + af_cpu::TypeName<T>());
  }
  if ((modes & af_cpu::ModeBit(roundMode)) == 0) {
    af_cpu::Fail(api, std::string(af_cpu::RoundModeName(roundMode)) +
                          " is not a documented mode for " + af_cpu::TypeName<U>() + " -> " +
                          af_cpu::TypeName<T>());
  }
  const uint64_t dbytes = uint64_t{count} * sizeof(T);
  const uint64_t sbytes = uint64_t{count} * sizeof(U);
  af_cpu::CheckVecOperand(api, "dst", dst, dbytes);
  af_cpu::CheckVecOperand(api, "src", src, sbytes);
  // In place is allowed when the destination elements are not wider than the source ones.
  if (!(sizeof(T) <= sizeof(U) && dst.AfUb() == src.AfUb() && dst.AfAddr() == src.AfAddr())) {
    af_cpu::CheckOverlap(api, "dst", dst, dbytes, "src", src, sbytes, false);
  }
  af_cpu::AddRepeats(c, api, uint64_t{count} * (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)));
  const af_cpu::Rounding r = af_cpu::ToRounding(roundMode);
  for (uint64_t i = 0; i < count; ++i) {
    const U v = af_cpu::Load<U>(src.AfBytes() + i * sizeof(U));
    af_cpu::Store<T>(dst.AfBytes() + i * sizeof(T), af_cpu::CastValue<T, U>(v, r));
  }
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
