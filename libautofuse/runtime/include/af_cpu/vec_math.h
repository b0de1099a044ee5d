// The math APIs of CANN's adv_api/math and adv_api/activation that the issue-22 op set calls:
// trigonometric and hyperbolic functions, Erfc, Lgamma, Digamma, rounding (Floor Ceil Round
// Trunc), Log2/Log10, Gelu, the binary Fmod and Hypot, the bitwise family, IsNan/IsInf/IsFinite
// and LogicalXor. Signatures follow asc-devkit include/adv_api (math/*.h, activation/gelu.h);
// values are computed in float (reference libm) and rounded once, and every operand pair obeys
// the documented "no overlap between dst, src and sharedTmpBuffer" rule.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_advanced.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

inline float DigammaF(float xf) {
  double x = xf;
  if (std::isnan(x) || (x <= 0 && std::floor(x) == x)) return std::nanf("");
  double r = 0;
  if (x < 0.5) {
    r = -M_PI / std::tan(M_PI * x);
    x = 1.0 - x;
  }
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  return static_cast<float>(
      r + std::log(x) - 0.5 / x -
      f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132)))));
}

inline float GeluF(float x) {  // CANN's Gelu: x / (1 + exp(-sqrt(8/pi) * (x + 0.044715 x^3)))
  const double v = x;
  return static_cast<float>(v /
                            (1.0 + std::exp(-std::sqrt(8.0 / M_PI) * (v + 0.044715 * v * v * v))));
}

// dst[i] = fn(src0[i], src1[i]) for the binary advanced APIs: dst, src0, src1 (and the temporary)
// pairwise disjoint.
template <typename T, typename Tmp, typename Fn>
inline void AdvancedBinary(const char* api, const AscendC::LocalTensor<T>& dst,
                           const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                           const Tmp& tmp, int64_t count, Fn fn) {
  BlockCtx& c = Enter(api);
  CheckCount(api, count);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckVecOperand(api, "dst", dst, bytes);
  CheckVecOperand(api, "src0", src0, bytes);
  CheckVecOperand(api, "src1", src1, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src0", src0, bytes, false);
  CheckOverlap(api, "dst", dst, bytes, "src1", src1, bytes, false);
  CheckTmp(api, dst, bytes, tmp);
  AddRepeats(c, api, bytes);
  for (uint64_t off = 0; off < bytes; off += sizeof(T)) {
    Store<T>(dst.AfBytes() + off, fn(Load<T>(src0.AfBytes() + off), Load<T>(src1.AfBytes() + off)));
  }
}

template <typename T>
inline constexpr bool kIsBitwiseInt =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;

// dst[i] = pred(src[i]) for IsNan / IsInf / IsFinite: dst is bool (1/0), half or float (1.0/0.0).
template <typename D, typename S, typename Pred>
inline void Classify(const char* api, const AscendC::LocalTensor<D>& dst,
                     const AscendC::LocalTensor<S>& src, uint32_t count, Pred pred) {
  static_assert(
      std::is_same_v<S, half> || std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t> ||
          std::is_same_v<S, int32_t>,  // int32: SignBitExtend (exact through float's sign)
      "the source is half, bfloat16_t, float or int32_t");
  static_assert(std::is_same_v<D, bool> || kIsFloatLike<D>, "the result is bool, half or float");
  BlockCtx& c = Enter(api);
  const uint64_t n = count;
  CheckVecOperand(api, "dst", dst, n * sizeof(D));
  CheckVecOperand(api, "src", src, n * sizeof(S));
  CheckOverlap(api, "dst", dst, n * sizeof(D), "src", src, n * sizeof(S), false);
  AddRepeats(c, api, n * (sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D)));
  for (uint64_t i = 0; i < n; ++i) {
    const bool r = pred(F(Load<S>(src.AfBytes() + i * sizeof(S))));
    if constexpr (std::is_same_v<D, bool>) {
      Store<uint8_t>(dst.AfBytes() + i, r ? 1 : 0);
    } else {
      Store<D>(dst.AfBytes() + i * sizeof(D), FromF<D>(r ? 1.0f : 0.0f));
    }
  }
}

}  // namespace af_cpu

namespace AscendC {

inline float AfFnSin(float x) {
  return std::sin(x);
}
inline float AfFnCos(float x) {
  return std::cos(x);
}
inline float AfFnTan(float x) {
  return std::tan(x);
}
inline float AfFnAsin(float x) {
  return std::asin(x);
}
inline float AfFnAcos(float x) {
  return std::acos(x);
}
inline float AfFnAtan(float x) {
  return std::atan(x);
}
inline float AfFnSinh(float x) {
  return std::sinh(x);
}
inline float AfFnCosh(float x) {
  return std::cosh(x);
}
inline float AfFnAsinh(float x) {
  return std::asinh(x);
}
inline float AfFnAcosh(float x) {
  return std::acosh(x);
}
inline float AfFnAtanh(float x) {
  return std::atanh(x);
}
inline float AfFnErfc(float x) {
  return std::erfc(x);
}
inline float AfFnLgamma(float x) {
  return std::lgamma(x);
}
inline float AfFnDigamma(float x) {
  return af_cpu::DigammaF(x);
}
inline float AfFnFloor(float x) {
  return std::floor(x);
}
inline float AfFnCeil(float x) {
  return std::ceil(x);
}
inline float AfFnRound(float x) {
  return std::nearbyint(x);
}  // halfway cases to even
inline float AfFnTrunc(float x) {
  return std::trunc(x);
}
inline float AfFnLog2(float x) {
  return std::log2(x);
}
inline float AfFnLog10(float x) {
  return std::log10(x);
}
inline float AfFnGelu(float x) {
  return af_cpu::GeluF(x);
}

AF_CPU_ADVANCED_UNARY_PLAIN(Sin)
AF_CPU_ADVANCED_UNARY_PLAIN(Cos)
AF_CPU_ADVANCED_UNARY_PLAIN(Tan)
AF_CPU_ADVANCED_UNARY_PLAIN(Asin)
AF_CPU_ADVANCED_UNARY_PLAIN(Acos)
AF_CPU_ADVANCED_UNARY_PLAIN(Atan)
AF_CPU_ADVANCED_UNARY_PLAIN(Sinh)
AF_CPU_ADVANCED_UNARY_PLAIN(Cosh)
AF_CPU_ADVANCED_UNARY_PLAIN(Asinh)
AF_CPU_ADVANCED_UNARY_PLAIN(Acosh)
AF_CPU_ADVANCED_UNARY_PLAIN(Atanh)
AF_CPU_ADVANCED_UNARY_PLAIN(Erfc)
AF_CPU_ADVANCED_UNARY_PLAIN(Lgamma)
AF_CPU_ADVANCED_UNARY_PLAIN(Digamma)
AF_CPU_ADVANCED_UNARY_PLAIN(Floor)
AF_CPU_ADVANCED_UNARY_PLAIN(Ceil)
AF_CPU_ADVANCED_UNARY_PLAIN(Round)
AF_CPU_ADVANCED_UNARY_PLAIN(Trunc)
AF_CPU_ADVANCED_UNARY_PLAIN(Log2)
AF_CPU_ADVANCED_UNARY_PLAIN(Log10)
AF_CPU_ADVANCED_UNARY_PLAIN(Gelu)

// ---- Fmod / Hypot (dst, src0, src1[, sharedTmpBuffer], calCount) ----
#define AF_CPU_ADVANCED_BINARY(Name, expr)                                                       \
  template <typename T, bool isReuseSource = false>                                              \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, \
                              const LocalTensor<T>& src1Tensor,                                  \
                              const LocalTensor<uint8_t>& sharedTmpBuffer,                       \
                              const uint32_t calCount) {                                         \
    af_cpu::RequireFloat<T>(#Name);                                                              \
    af_cpu::AdvancedBinary(#Name, dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount,  \
                           [](T a, T b) {                                                        \
                             const float x = af_cpu::F(a), y = af_cpu::F(b);                     \
                             return af_cpu::FromF<T>(expr);                                      \
                           });                                                                   \
  }                                                                                              \
  template <typename T, bool isReuseSource = false>                                              \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, \
                              const LocalTensor<T>& src1Tensor, const uint32_t calCount) {       \
    af_cpu::RequireFloat<T>(#Name);                                                              \
    af_cpu::AdvancedBinary(#Name, dstTensor, src0Tensor, src1Tensor, af_cpu::NoTmp{}, calCount,  \
                           [](T a, T b) {                                                        \
                             const float x = af_cpu::F(a), y = af_cpu::F(b);                     \
                             return af_cpu::FromF<T>(expr);                                      \
                           });                                                                   \
  }

AF_CPU_ADVANCED_BINARY(Fmod, std::fmod(x, y))
AF_CPU_ADVANCED_BINARY(Hypot, std::hypot(x, y))
#undef AF_CPU_ADVANCED_BINARY

// ---- BitwiseAnd / BitwiseOr / BitwiseXor (dst, src0, src1, count), BitwiseNot (dst, src) ----
struct BitwiseConfig {
  bool isReuseSource;
};
inline constexpr BitwiseConfig DEFAULT_BITWISE_AND_CONFIG = {false};
inline constexpr BitwiseConfig DEFAULT_BITWISE_OR_CONFIG = {false};
inline constexpr BitwiseConfig DEFAULT_BITWISE_XOR_CONFIG = {false};
inline constexpr BitwiseConfig DEFAULT_BITWISE_NOT_CONFIG = {false};

#define AF_CPU_BITWISE(Name, op)                                                                \
  template <const BitwiseConfig& config = DEFAULT_##op##_CONFIG, typename T>                    \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
                              const LocalTensor<T>& src1, const uint32_t count) {               \
    static_assert(af_cpu::kIsBitwiseInt<T>, #Name " is defined for integer types");             \
    af_cpu::AdvancedBinary(#Name, dst, src0, src1, af_cpu::NoTmp{}, count,                      \
                           [](T a, T b) { return static_cast<T>(AF_CPU_BITWISE_##op(a, b)); }); \
  }
#define AF_CPU_BITWISE_BITWISE_AND(a, b) ((a) & (b))
#define AF_CPU_BITWISE_BITWISE_OR(a, b) ((a) | (b))
#define AF_CPU_BITWISE_BITWISE_XOR(a, b) ((a) ^ (b))
AF_CPU_BITWISE(BitwiseAnd, BITWISE_AND)
AF_CPU_BITWISE(BitwiseOr, BITWISE_OR)
AF_CPU_BITWISE(BitwiseXor, BITWISE_XOR)
#undef AF_CPU_BITWISE
#undef AF_CPU_BITWISE_BITWISE_AND
#undef AF_CPU_BITWISE_BITWISE_OR
#undef AF_CPU_BITWISE_BITWISE_XOR

template <const BitwiseConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
__aicore__ inline void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const uint32_t count) {
  static_assert(af_cpu::kIsBitwiseInt<T>, "BitwiseNot is defined for integer types");
  af_cpu::AdvancedBinary("BitwiseNot", dst, src, src, af_cpu::NoTmp{}, count,
                         [](T a, T) { return static_cast<T>(~a); });
}

// ---- IsNan / IsInf (dst, src, count), IsFinite (dst, src, calCount) ----
struct IsNanConfig {
  bool isReuseSource;
};
struct IsInfConfig {
  bool isReuseSource;
};
inline constexpr IsNanConfig DEFAULT_IS_NAN_CONFIG = {false};
inline constexpr IsInfConfig DEFAULT_IS_INF_CONFIG = {false};

template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
__aicore__ inline void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                             const uint32_t count) {
  af_cpu::Classify("IsNan", dst, src, count, [](float x) { return std::isnan(x); });
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
__aicore__ inline void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                             const uint32_t count) {
  af_cpu::Classify("IsInf", dst, src, count, [](float x) { return std::isinf(x); });
}
template <typename T, typename U>
__aicore__ inline void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src,
                                uint32_t calCount) {
  af_cpu::Classify("IsFinite", dst, src, calCount, [](float x) { return std::isfinite(x); });
}

// ---- LogicalAnd / LogicalOr / LogicalXor (dst, src0, src1, count), LogicalNot (dst, src,
// count): dst bool, sources compared with 0 ----
struct LogicalConfig {
  bool isReuseSource;
};
inline constexpr LogicalConfig DEFAULT_LOGICAL_AND_CONFIG = {false};
inline constexpr LogicalConfig DEFAULT_LOGICAL_OR_CONFIG = {false};
inline constexpr LogicalConfig DEFAULT_LOGICAL_XOR_CONFIG = {false};
inline constexpr LogicalConfig DEFAULT_LOGICAL_NOT_CONFIG = {false};

}  // namespace AscendC

namespace af_cpu {

template <typename T, typename U, typename Fn>
inline void LogicalLoop(const char* api, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<U>& src0, const AscendC::LocalTensor<U>& src1,
                        bool binary, uint32_t count, Fn fn) {
  static_assert(std::is_same_v<T, bool>, "the logical APIs write bool");
  BlockCtx& c = Enter(api);
  const uint64_t n = count;
  CheckVecOperand(api, "dst", dst, n);
  CheckVecOperand(api, "src0", src0, n * sizeof(U));
  CheckOverlap(api, "dst", dst, n, "src0", src0, n * sizeof(U), false);
  if (binary) {
    CheckVecOperand(api, "src1", src1, n * sizeof(U));
    CheckOverlap(api, "dst", dst, n, "src1", src1, n * sizeof(U), false);
  }
  AddRepeats(c, api, n * sizeof(U));
  for (uint64_t i = 0; i < n; ++i) {
    const bool a = Load<U>(src0.AfBytes() + i * sizeof(U)) != U(0);
    const bool b = binary && Load<U>(src1.AfBytes() + i * sizeof(U)) != U(0);
    Store<uint8_t>(dst.AfBytes() + i, fn(a, b) ? 1 : 0);
  }
}

}  // namespace af_cpu

namespace AscendC {

template <const LogicalConfig& config = DEFAULT_LOGICAL_AND_CONFIG, typename T, typename U>
__aicore__ inline void LogicalAnd(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                                  const LocalTensor<U>& src1, const uint32_t count) {
  af_cpu::LogicalLoop("LogicalAnd", dst, src0, src1, true, count,
                      [](bool a, bool b) { return a && b; });
}
template <const LogicalConfig& config = DEFAULT_LOGICAL_OR_CONFIG, typename T, typename U>
__aicore__ inline void LogicalOr(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                                 const LocalTensor<U>& src1, const uint32_t count) {
  af_cpu::LogicalLoop("LogicalOr", dst, src0, src1, true, count,
                      [](bool a, bool b) { return a || b; });
}
template <const LogicalConfig& config = DEFAULT_LOGICAL_XOR_CONFIG, typename T, typename U>
__aicore__ inline void LogicalXor(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                                  const LocalTensor<U>& src1, const uint32_t count) {
  af_cpu::LogicalLoop("LogicalXor", dst, src0, src1, true, count,
                      [](bool a, bool b) { return a != b; });
}
template <const LogicalConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
__aicore__ inline void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                  const uint32_t count) {
  af_cpu::LogicalLoop("LogicalNot", dst, src, src, false, count, [](bool a, bool) { return !a; });
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
