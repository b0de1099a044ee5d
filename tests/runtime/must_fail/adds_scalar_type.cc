// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// Adds takes a scalar of the tensor type (const T&): a double is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Adds(f, f, 1.0, 64);
#else
  Adds(f, f, 1.0f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
