// NPU-ARCH: 3510
// EXPECT-ERROR: no matching function|template argument
// On the 950 the count form of Exp takes an ExpConfig.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Exp<float, false>(f, f, 64);
#else
  Exp<float, DEFAULT_EXP_CONFIG>(f, f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
