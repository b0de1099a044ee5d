// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// Duplicate deduces T from the tensor and the scalar: a float scalar for a half tensor is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Duplicate(h, 1.0f, 16);
#else
  Duplicate(h, static_cast<half>(1.0f), 16);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
