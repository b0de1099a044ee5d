// The advanced ("high-level") math APIs our op set needs: Sigmoid, Tanh, Erf, Sign and Power
// (tensor^tensor, tensor^scalar, scalar^tensor). Each has the documented overloads with and without
// a sharedTmpBuffer and with and without calCount; they compute in float (reference libm) and
// round once, and enforce the documented "no overlap between dst, src and the temporary" rule.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/types.h"
#include "af_cpu/vec_common.h"

AF_CPU_HIDDEN_BEGIN

namespace AscendC {

enum class ErfAlgo : uint8_t { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
inline constexpr ErfConfig defaultErfConfig{};

enum class PowerAlgo : uint8_t { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
inline constexpr PowerConfig defaultPowerConfig{};

#if __NPU_ARCH__ == 3510
// Tanh's algorithm choice, a template argument on the 950 only (CANN's tanh_utils.h).
enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig {
  TanhAlgo algo = TanhAlgo::INTRINSIC;
};
inline constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};
#endif

}  // namespace AscendC

namespace af_cpu {

// Optional sharedTmpBuffer: bound, aligned, disjoint from dst and src.
struct NoTmp {};

template <typename T, typename Tmp>
inline void CheckTmp(const char* api, const AscendC::LocalTensor<T>& dst, uint64_t bytes,
                     const Tmp& tmp) {
  if constexpr (!std::is_same_v<Tmp, NoTmp>) {
    tmp.AfCheckRange(api, "sharedTmpBuffer", 0, 0);
    tmp.AfCheckAligned(api, "sharedTmpBuffer");
    const uint64_t tbytes = tmp.GetSize();
    CheckOverlap(api, "dst", dst, bytes, "sharedTmpBuffer", tmp, tbytes, false);
  }
}

// dst[i] = fn(src[i]) with dst/src/tmp pairwise disjoint.
template <typename T, typename Tmp, typename Fn>
inline void AdvancedUnary(const char* api, const AscendC::LocalTensor<T>& dst,
                          const AscendC::LocalTensor<T>& src, const Tmp& tmp, int64_t count,
                          Fn fn) {
  static_assert(kIsFloatLike<T> && !std::is_same_v<T, double>,
                "this advanced API is defined for half and float");
  BlockCtx& c = Enter(api);
  CheckCount(api, count);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckVecOperand(api, "dst", dst, bytes);
  CheckVecOperand(api, "src", src, bytes);
  CheckOverlap(api, "dst", dst, bytes, "src", src, bytes, false);
  CheckTmp(api, dst, bytes, tmp);
  if constexpr (!std::is_same_v<Tmp, NoTmp>) {
    CheckOverlap(api, "src", src, bytes, "sharedTmpBuffer", tmp, tmp.GetSize(), false);
  }
  AddRepeats(c, api, bytes);
  for (uint64_t off = 0; off < bytes; off += sizeof(T)) {
    Store<T>(dst.AfBytes() + off, FromF<T>(fn(F(Load<T>(src.AfBytes() + off)))));
  }
}

inline float SigmoidF(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}
inline float SignF(float x) {
  if (x > 0.0f) return 1.0f;
  if (x < 0.0f) return -1.0f;
  return 0.0f;  // +-0 and NaN
}

template <typename T>
inline T PowV(T base, T exponent) {
  if constexpr (kIsFloatLike<T>) {
    return FromF<T>(std::pow(F(base), F(exponent)));
  } else {
    // Integer power by squaring; negative exponents give 0 except for bases 1 and -1.
    if (exponent < 0) {
      if (base == 1) return T(1);
      if (base == T(-1)) return (exponent % 2 == 0) ? T(1) : T(-1);
      return T(0);
    }
    uint64_t r = 1;
    auto b = static_cast<uint64_t>(base);
    auto e = static_cast<uint64_t>(exponent);
    while (e != 0) {
      if ((e & 1u) != 0) r *= b;
      b *= b;
      e >>= 1;
    }
    return static_cast<T>(r);
  }
}

// Power with each side either a tensor or a scalar; all tensors pairwise disjoint.
template <typename T, typename Tmp, typename GetBase, typename GetExp>
inline void PowerLoop(const AscendC::LocalTensor<T>& dst, const Tmp& tmp, int64_t count,
                      GetBase base, GetExp exponent) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                "Power is defined for half, float and int32_t");
  const char* api = "Power";
  BlockCtx& c = Ctx(api);
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckTmp(api, dst, bytes, tmp);
  AddRepeats(c, api, bytes);
  for (uint64_t i = 0; i < static_cast<uint64_t>(count); ++i) {
    Store<T>(dst.AfBytes() + i * sizeof(T), PowV<T>(base(i), exponent(i)));
  }
}

template <typename T>
inline void PowerTensor(const char* operand, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src, int64_t count) {
  const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  CheckVecOperand("Power", operand, src, bytes);
  CheckOverlap("Power", "dst", dst, bytes, operand, src, bytes, false);
}

}  // namespace af_cpu

// Declares the four documented overloads of a unary advanced API.
#define AF_CPU_ADVANCED_UNARY(Name, Extra)                                                        \
  template <typename T, bool isReuseSource = false, Extra>                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const LocalTensor<uint8_t>& sharedTmpBuffer,                        \
                              const uint32_t calCount) {                                          \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, sharedTmpBuffer, calCount, AfFn##Name);    \
  }                                                                                               \
  template <typename T, bool isReuseSource = false, Extra>                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {                      \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(),      \
                          AfFn##Name);                                                            \
  }                                                                                               \
  template <typename T, bool isReuseSource = false, Extra>                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const uint32_t calCount) {                                          \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, af_cpu::NoTmp{}, calCount, AfFn##Name);    \
  }                                                                                               \
  template <typename T, bool isReuseSource = false, Extra>                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) { \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, af_cpu::NoTmp{}, srcTensor.GetSize(),      \
                          AfFn##Name);                                                            \
  }

// The same without a config template parameter (Sigmoid, Sign; Tanh before the 950).
#define AF_CPU_ADVANCED_UNARY_PLAIN(Name)                                                         \
  template <typename T, bool isReuseSource = false>                                               \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const LocalTensor<uint8_t>& sharedTmpBuffer,                        \
                              const uint32_t calCount) {                                          \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, sharedTmpBuffer, calCount, AfFn##Name);    \
  }                                                                                               \
  template <typename T, bool isReuseSource = false>                                               \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {                      \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(),      \
                          AfFn##Name);                                                            \
  }                                                                                               \
  template <typename T, bool isReuseSource = false>                                               \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,   \
                              const uint32_t calCount) {                                          \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, af_cpu::NoTmp{}, calCount, AfFn##Name);    \
  }                                                                                               \
  template <typename T, bool isReuseSource = false>                                               \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) { \
    af_cpu::AdvancedUnary(#Name, dstTensor, srcTensor, af_cpu::NoTmp{}, srcTensor.GetSize(),      \
                          AfFn##Name);                                                            \
  }

namespace AscendC {

inline float AfFnSigmoid(float x) {
  return af_cpu::SigmoidF(x);
}
inline float AfFnTanh(float x) {
  return std::tanh(x);
}
inline float AfFnErf(float x) {
  return std::erf(x);
}
inline float AfFnSign(float x) {
  return af_cpu::SignF(x);
}

AF_CPU_ADVANCED_UNARY_PLAIN(Sigmoid)
#if __NPU_ARCH__ == 3510
AF_CPU_ADVANCED_UNARY(Tanh, const TanhConfig& config = DEFAULT_TANH_CONFIG)
#else
AF_CPU_ADVANCED_UNARY_PLAIN(Tanh)
#endif
AF_CPU_ADVANCED_UNARY(Erf, const ErfConfig& config = defaultErfConfig)
AF_CPU_ADVANCED_UNARY_PLAIN(Sign)

// ---- Power(dst, src0Tensor, src1Tensor) ----
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src0", dstTensor, src0Tensor, calCount);
  af_cpu::PowerTensor("src1", dstTensor, src1Tensor, calCount);
  af_cpu::PowerLoop(
      dstTensor, sharedTmpBuffer, calCount,
      [&](uint64_t i) { return af_cpu::Load<T>(src0Tensor.AfBytes() + i * sizeof(T)); },
      [&](uint64_t i) { return af_cpu::Load<T>(src1Tensor.AfBytes() + i * sizeof(T)); });
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src0", dstTensor, src0Tensor, calCount);
  af_cpu::PowerTensor("src1", dstTensor, src1Tensor, calCount);
  af_cpu::PowerLoop(
      dstTensor, af_cpu::NoTmp{}, calCount,
      [&](uint64_t i) { return af_cpu::Load<T>(src0Tensor.AfBytes() + i * sizeof(T)); },
      [&](uint64_t i) { return af_cpu::Load<T>(src1Tensor.AfBytes() + i * sizeof(T)); });
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

// ---- Power(dst, src0Tensor, src1Scalar) ----
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const af_cpu::NoDeduceT<T>& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src0", dstTensor, src0Tensor, calCount);
  const T e = src1Scalar;
  af_cpu::PowerLoop(
      dstTensor, sharedTmpBuffer, calCount,
      [&](uint64_t i) { return af_cpu::Load<T>(src0Tensor.AfBytes() + i * sizeof(T)); },
      [e](uint64_t) { return e; });
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const af_cpu::NoDeduceT<T>& src1Scalar, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src0", dstTensor, src0Tensor, calCount);
  const T e = src1Scalar;
  af_cpu::PowerLoop(
      dstTensor, af_cpu::NoTmp{}, calCount,
      [&](uint64_t i) { return af_cpu::Load<T>(src0Tensor.AfBytes() + i * sizeof(T)); },
      [e](uint64_t) { return e; });
}

// ---- Power(dst, src0Scalar, src1Tensor) ----
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor,
                             const af_cpu::NoDeduceT<T>& src0Scalar,
                             const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src1", dstTensor, src1Tensor, calCount);
  const T b = src0Scalar;
  af_cpu::PowerLoop(
      dstTensor, sharedTmpBuffer, calCount, [b](uint64_t) { return b; },
      [&](uint64_t i) { return af_cpu::Load<T>(src1Tensor.AfBytes() + i * sizeof(T)); });
}
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor,
                             const af_cpu::NoDeduceT<T>& src0Scalar,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount) {
  af_cpu::Enter("Power");
  af_cpu::CheckVecOperand("Power", "dst", dstTensor, uint64_t{calCount} * sizeof(T));
  af_cpu::PowerTensor("src1", dstTensor, src1Tensor, calCount);
  const T b = src0Scalar;
  af_cpu::PowerLoop(
      dstTensor, af_cpu::NoTmp{}, calCount, [b](uint64_t) { return b; },
      [&](uint64_t i) { return af_cpu::Load<T>(src1Tensor.AfBytes() + i * sizeof(T)); });
}

}  // namespace AscendC

#undef AF_CPU_ADVANCED_UNARY

AF_CPU_HIDDEN_END
