// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// The count form of Exp has one template parameter before the 950.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Exp<float, false>(f, f, 64);
#else
  Exp<float>(f, f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
