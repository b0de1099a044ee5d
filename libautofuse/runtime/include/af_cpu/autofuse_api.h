// The CPU side of AutoFuse's own kernel library: the special functions its 950 (V2) kernels call
// where AscendC has no API (graph-autofusion autofuse/v35/ascendc/api_regbase: BesselJ0Extend,
// NdtrExtend, Erfinv, ..., Atan2Extend, CopySignExtend, SignBitExtend), with those signatures
// (dst, src[, src1], sharedTmpBuffer, calCount), float only as there (half too for Atan2 and
// CopySign). Values are computed in double with libstdc++'s special functions (the incomplete
// gamma, Hurwitz zeta and Airy functions with af_cpu/special_math.h) and rounded once; dst, src and
// the temporary must not overlap. On the device these come from AutoFuse's headers, not from CANN.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/special_math.h"
#include "af_cpu/tensor.h"
#include "af_cpu/vec_advanced.h"
#include "af_cpu/vec_common.h"
#include "af_cpu/vec_math.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

inline double ErfinvD(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::nan("");
  if (y == 1 || y == -1) return std::copysign(HUGE_VAL, y);
  const double w = -std::log((1 - y) * (1 + y));
  double x = std::copysign(std::sqrt(std::fmax(w - std::log(w) / 2, 0.0) * 0.5), y);
  if (std::fabs(y) < 0.5) x = y * std::sqrt(M_PI) / 2;
  for (int k = 0; k < 60; ++k) {
    const double step = (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fmax(1.0, std::fabs(x))) break;
  }
  return x;
}

inline double BesselLike(int which, double x) {
  const double a = std::fabs(x);
  const double s = x < 0 ? -1.0 : 1.0;
  const double nan = std::nan("");
  switch (which) {
    case 0:
      return std::cyl_bessel_j(0.0, a);
    case 1:
      return s * std::cyl_bessel_j(1.0, a);
    case 2:
      return x < 0 ? nan : x == 0 ? -HUGE_VAL : std::cyl_neumann(0.0, x);
    case 3:
      return x < 0 ? nan : x == 0 ? -HUGE_VAL : std::cyl_neumann(1.0, x);
    case 4:
      return std::cyl_bessel_i(0.0, a);
    case 5:
      return s * std::cyl_bessel_i(1.0, a);
    case 6:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::cyl_bessel_k(0.0, x);
    case 7:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::cyl_bessel_k(1.0, x);
    case 8:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::exp(x) * std::cyl_bessel_k(0.0, x);
    case 9:
      return x < 0 ? nan : x == 0 ? HUGE_VAL : std::exp(x) * std::cyl_bessel_k(1.0, x);
    case 10:
      return x == 0 ? 1.0 : std::sin(x) / x;
    case 11:
      return 0.5 * std::erfc(-x / M_SQRT2);
    case 12:
      return M_SQRT2 * ErfinvD(2 * x - 1);
    case 13:
      return ErfinvD(x);
    default:
      return std::exp(x * x) * std::erfc(x);  // 14: Erfcx
  }
}

template <typename T>
inline void AutofuseUnary(const char* api, int which, const AscendC::LocalTensor<T>& dst,
                          const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<uint8_t>& tmp, uint32_t count) {
  static_assert(std::is_same_v<T, float>, "AutoFuse's special functions take float only");
  AdvancedUnary(api, dst, src, tmp, count,
                [which](float x) { return static_cast<float>(BesselLike(which, x)); });
}

}  // namespace af_cpu

namespace AscendC {

#define AF_CPU_AUTOFUSE_UNARY(Name, which)                                          \
  template <typename T>                                                             \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, \
                              const LocalTensor<uint8_t>& sharedTmpBuffer,          \
                              const uint32_t calCount) {                            \
    af_cpu::AutofuseUnary(#Name, which, dst, src, sharedTmpBuffer, calCount);       \
  }

AF_CPU_AUTOFUSE_UNARY(BesselJ0Extend, 0)
AF_CPU_AUTOFUSE_UNARY(BesselJ1Extend, 1)
AF_CPU_AUTOFUSE_UNARY(BesselY0Extend, 2)
AF_CPU_AUTOFUSE_UNARY(BesselY1Extend, 3)
AF_CPU_AUTOFUSE_UNARY(ModifiedBesselI0Extend, 4)
AF_CPU_AUTOFUSE_UNARY(ModifiedBesselI1Extend, 5)
AF_CPU_AUTOFUSE_UNARY(ModifiedBesselK0Extend, 6)
AF_CPU_AUTOFUSE_UNARY(ModifiedBesselK1Extend, 7)
AF_CPU_AUTOFUSE_UNARY(ScaledModifiedBesselK0Extend, 8)
AF_CPU_AUTOFUSE_UNARY(ScaledModifiedBesselK1Extend, 9)
AF_CPU_AUTOFUSE_UNARY(SphericalBesselJ0Extend, 10)
AF_CPU_AUTOFUSE_UNARY(NdtrExtend, 11)
AF_CPU_AUTOFUSE_UNARY(NdtriExtend, 12)
AF_CPU_AUTOFUSE_UNARY(Erfinv, 13)
#undef AF_CPU_AUTOFUSE_UNARY

// ErfcxExtend takes its temporary by non-const reference (api_regbase/erfcx.h).
template <typename T>
__aicore__ inline void ErfcxExtend(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                   LocalTensor<uint8_t>& tmp_buf, const uint32_t calc_cnt) {
  af_cpu::AutofuseUnary("ErfcxExtend", 14, dst, src, tmp_buf, calc_cnt);
}

// Atan2Extend(dst, src0, src1, tmp, n): dst = atan2(src1, src0), src0 being the abscissa
// (api_regbase/atan2.h: Div(dst, src1, src0), Atan, then the quadrant fix-up); half or float.
// Values follow C's atan2 (signed zeros and NaN included), computed in double, rounded once.
template <typename T>
__aicore__ inline void Atan2Extend(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                   const LocalTensor<T>& src1, LocalTensor<uint8_t>& tmp_buf,
                                   const uint32_t calc_cnt) {
  af_cpu::RequireFloat<T>("Atan2Extend");
  af_cpu::AdvancedBinary("Atan2Extend", dst, src0, src1, tmp_buf, calc_cnt, [](T a, T b) {
    const double x = af_cpu::F(a);
    const double y = af_cpu::F(b);
    return af_cpu::FromF<T>(static_cast<float>(std::atan2(y, x)));
  });
}

// CopySignExtend(dst, src0, src1, n): src0's magnitude with src1's sign bit (api_regbase/
// copy_sign.h works on the bit patterns, so NaN and signed zeros carry their sign bit).
template <typename T>
__aicore__ inline void CopySignExtend(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                      const LocalTensor<T>& src1, const uint32_t calc_cnt) {
  af_cpu::RequireFloat<T>("CopySignExtend");
  af_cpu::AdvancedBinary(
      "CopySignExtend", dst, src0, src1, af_cpu::NoTmp{}, calc_cnt,
      [](T a, T b) { return af_cpu::FromF<T>(std::copysign(af_cpu::F(a), af_cpu::F(b))); });
}

// SignBitExtend(dst, src, sharedTmpBuffer, n): dst[i] = the sign bit of src[i] (1 for -0.0 and
// for NaNs with the bit set; x < 0 for int32), as bool or uint8_t; float or int32 source as
// AutoFuse's.
template <typename T, typename U>
__aicore__ inline void SignBitExtend(const LocalTensor<U>& dst, const LocalTensor<T>& src,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                "SignBitExtend: float or int32 source");
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, bool>,
                "SignBitExtend: the result is uint8_t or bool");
  af_cpu::CheckTmp("SignBitExtend", dst, static_cast<uint64_t>(calCount) * sizeof(U),
                   sharedTmpBuffer);
  if constexpr (std::is_same_v<U, bool>) {
    af_cpu::Classify("SignBitExtend", dst, src, calCount, [](float x) { return std::signbit(x); });
  } else {
    af_cpu::Classify("SignBitExtend", dst.template ReinterpretCast<bool>(), src, calCount,
                     [](float x) { return std::signbit(x); });
  }
}

// The incomplete gamma, Hurwitz zeta and Airy functions (api_regbase igamma.h, igammac.h,
// zeta.h, airy_ai.h): IgammaExtend(dst, a, x, tmp, n) = P(a, x), IgammacExtend = Q(a, x),
// ZetaExtend(dst, x, q, tmp, n) = zeta(x, q), AiryAiExtend(dst, src, tmp, n) = Ai(x); float only
// as there. Values by af_cpu/special_math.h in double, rounded once.
template <typename T>
__aicore__ inline void IgammaExtend(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                    const LocalTensor<T>& src1, const LocalTensor<uint8_t>& tmp,
                                    const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "IgammaExtend takes float only");
  af_cpu::AdvancedBinary("IgammaExtend", dst, src0, src1, tmp, calCount, [](T a, T x) {
    return static_cast<float>(af_cpu::special::Igamma(a, x));
  });
}

template <typename T>
__aicore__ inline void IgammacExtend(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                     const LocalTensor<T>& src1, const LocalTensor<uint8_t>& tmp,
                                     const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "IgammacExtend takes float only");
  af_cpu::AdvancedBinary("IgammacExtend", dst, src0, src1, tmp, calCount, [](T a, T x) {
    return static_cast<float>(af_cpu::special::Igammac(a, x));
  });
}

template <typename T>
__aicore__ inline void ZetaExtend(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<T>& src1,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "ZetaExtend takes float only");
  af_cpu::AdvancedBinary("ZetaExtend", dst, src0, src1, sharedTmpBuffer, calCount,
                         [](T x, T q) { return static_cast<float>(af_cpu::special::Zeta(x, q)); });
}

template <typename T>
__aicore__ inline void AiryAiExtend(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "AiryAiExtend takes float only");
  af_cpu::AdvancedUnary("AiryAiExtend", dstLocal, srcLocal, sharedTmpBuffer, calCount,
                        [](float x) { return static_cast<float>(af_cpu::special::AiryAi(x)); });
}

// The orthogonal polynomials of degree n (api_regbase shifted_chebyshev_polynomial_t.h, .._u.h,
// .._v.h, .._w.h, laguerre_polynomial_l.h, legendre_polynomial_p.h): the shifted Chebyshev ones
// take the degree as a template argument and a temporary,
// ShiftedChebyshevPolynomialTExtend<T, N>(dst, src, tmp, n); Laguerre and Legendre take it as a
// scalar of any integer type and no temporary, LaguerrePolynomialLExtend(dst, src, degree, n).
// Float only as there. Values by af_cpu/special_math.h in double (PyTorch's rules for the
// degree: a negative one gives 0), rounded once.
#define AF_CPU_SHIFTED_CHEBYSHEV(Kind)                                                            \
  template <typename T, int64_t N>                                                                \
  __aicore__ inline void ShiftedChebyshevPolynomial##Kind##Extend(                                \
      const LocalTensor<T>& dst, const LocalTensor<T>& src,                                       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                     \
    static_assert(std::is_same_v<T, float>,                                                       \
                  "ShiftedChebyshevPolynomial" #Kind "Extend takes float only");                  \
    af_cpu::AdvancedUnary("ShiftedChebyshevPolynomial" #Kind "Extend", dst, src, sharedTmpBuffer, \
                          calCount, [](float x) {                                                 \
                            return static_cast<float>(af_cpu::special::ShiftedChebyshev(          \
                                #Kind[0], x, static_cast<double>(N)));                            \
                          });                                                                     \
  }
AF_CPU_SHIFTED_CHEBYSHEV(T)
AF_CPU_SHIFTED_CHEBYSHEV(U)
AF_CPU_SHIFTED_CHEBYSHEV(V)
AF_CPU_SHIFTED_CHEBYSHEV(W)
#undef AF_CPU_SHIFTED_CHEBYSHEV

template <typename T, typename U>
__aicore__ inline void LaguerrePolynomialLExtend(const LocalTensor<T>& dst,
                                                 const LocalTensor<T>& src, U n,
                                                 const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "LaguerrePolynomialLExtend takes float only");
  static_assert(std::is_integral_v<U>, "LaguerrePolynomialLExtend takes an integer degree");
  const auto degree = static_cast<double>(n);
  af_cpu::AdvancedUnary(
      "LaguerrePolynomialLExtend", dst, src, af_cpu::NoTmp{}, calCount,
      [degree](float x) { return static_cast<float>(af_cpu::special::Laguerre(x, degree)); });
}

template <typename T, typename U>
__aicore__ inline void LegendrePolynomialPExtend(const LocalTensor<T>& dst,
                                                 const LocalTensor<T>& src, U n,
                                                 const uint32_t calCount) {
  static_assert(std::is_same_v<T, float>, "LegendrePolynomialPExtend takes float only");
  static_assert(std::is_integral_v<U>, "LegendrePolynomialPExtend takes an integer degree");
  const auto degree = static_cast<double>(n);
  af_cpu::AdvancedUnary(
      "LegendrePolynomialPExtend", dst, src, af_cpu::NoTmp{}, calCount,
      [degree](float x) { return static_cast<float>(af_cpu::special::Legendre(x, degree)); });
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
