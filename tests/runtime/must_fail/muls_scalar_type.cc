// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// Muls takes a scalar of the tensor type: a float scalar for a half tensor is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Muls(h, h, 0.5f, 16);
#else
  Muls(h, h, static_cast<half>(0.5f), 16);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
