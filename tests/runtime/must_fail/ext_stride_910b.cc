// NPU-ARCH: 2201
// EXPECT-ERROR: narrowing
// DataCopyExtParams strides are uint32_t before the 950: an int64_t stride narrows.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  DataCopyExtParams p{1, 64, int64_t{-1}, 0, 0};
  (void)p;
#else
  DataCopyExtParams p{1, 64, uint32_t{0}, 0, 0};
  (void)p;
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
