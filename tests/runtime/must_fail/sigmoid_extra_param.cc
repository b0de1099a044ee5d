// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function|wrong number of template arguments|template argument
// Sigmoid is template <typename T, bool isReuseSource>: a third template argument is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Sigmoid<float, false, void>(f, f, 64);
#else
  Sigmoid<float, false>(f, f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
