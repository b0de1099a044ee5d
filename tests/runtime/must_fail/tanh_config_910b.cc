// NPU-ARCH: 2201
// EXPECT-ERROR: TanhConfig|DEFAULT_TANH_CONFIG|was not declared|no matching function
// Before the 950 Tanh has no TanhConfig.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Tanh<float, false, DEFAULT_TANH_CONFIG>(f, f, 64);
#else
  Tanh<float, false>(f, f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
