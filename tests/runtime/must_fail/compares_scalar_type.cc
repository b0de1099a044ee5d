// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// Compares takes its scalar as the source type T: an int for a float tensor is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Compares(m, f, 0, CMPMODE::LT, 64);
#else
  Compares(m, f, 0.0f, CMPMODE::LT, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
