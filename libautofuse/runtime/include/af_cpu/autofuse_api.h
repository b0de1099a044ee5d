// The CPU side of AutoFuse's own kernel library: the special functions its 950 (V2) kernels call
// where AscendC has no API (graph-autofusion autofuse/v35/ascendc/api_regbase: BesselJ0Extend,
// NdtrExtend, Erfinv, ...), with those signatures (dst, src, sharedTmpBuffer, calCount), float
// only as there. Values are computed in double with libstdc++'s special functions and rounded
// once; dst, src and the temporary must not overlap. On the device these come from AutoFuse's
// headers, not from CANN.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/tensor.h"
#include "af_cpu/vec_advanced.h"
#include "af_cpu/vec_common.h"

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

}  // namespace AscendC

AF_CPU_HIDDEN_END
